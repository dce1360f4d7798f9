/**
 * Discovery (the Server Card extension, SEP-2127, docs/discovery.md): the demo's Server Card at
 * `GET /mcp/server-card` (its media type, permissive CORS, Cache-Control, ETag and 304), valid
 * against the card's schema and agreeing with `server/discover`; the AI Catalog listing it; the
 * MCP Registry key; and the options refused at setup.
 */
import { Validator, type Schema } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { createMcpEdge } from "../../src/edge";
import { discovery } from "../../src/features/discovery/index";
import { rateLimits } from "../../src/features/rate-limits/index";
import { defineServer } from "../../src/mcp/definition/server";
import cardSchema from "../fixtures/server-card/schema.json";
import minimalCard from "../fixtures/server-card/minimal.json";
import templatedCard from "../fixtures/server-card/templated-remote.json";
import { BASE, request } from "../helpers/mcp";
import { expectComplete, post2026 } from "../helpers/era-2026";

const CARD_URL = `${BASE}/mcp/server-card`;
const validator = new Validator({ $defs: cardSchema.$defs, $ref: "#/$defs/ServerCard" } as unknown as Schema, "2020-12", false);

function get(url: string, headers: Record<string, string> = {}, method = "GET"): Promise<Response> {
  return request(url, { method, headers: { Accept: "application/mcp-server-card+json", ...headers } });
}

async function card(): Promise<Record<string, unknown>> {
  return (await (await get(CARD_URL)).json()) as Record<string, unknown>;
}

describe("the Server Card", () => {
  it("answers application/mcp-server-card+json with permissive CORS, Cache-Control and an ETag", async () => {
    const res = await get(CARD_URL);
    expect(res.status).toBe(200);
    expect(
      Object.fromEntries(
        ["Content-Type", "Access-Control-Allow-Origin", "Access-Control-Expose-Headers", "Cache-Control"].map((h) => [
          h,
          res.headers.get(h),
        ]),
      ),
    ).toEqual({
      "Content-Type": "application/mcp-server-card+json",
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Expose-Headers": "ETag",
      "Cache-Control": "public, max-age=3600",
    });
    expect(res.headers.get("ETag")).toMatch(/^"[0-9a-f]{32}"$/);
  });

  it("is valid against the Server Card schema (as the schema's own examples are)", async () => {
    for (const example of [minimalCard, templatedCard]) expect(validator.validate(example).valid).toBe(true);
    const served = await card();
    expect(validator.validate(served).errors).toEqual([]);
    expect(validator.validate({ ...served, name: "no-namespace" }).valid).toBe(false);
  });

  it("says what server/discover says: version, title, description, icons, and the versions served at the endpoint", async () => {
    const served = await card();
    const discovered = await expectComplete(await post2026("server/discover"));
    const info = (discovered._meta as Record<string, Record<string, unknown>>)["io.modelcontextprotocol/serverInfo"] as Record<
      string,
      unknown
    >;
    expect(served).toMatchObject({
      name: "com.example.mcp-edge/demo",
      version: info.version,
      description: info.description,
      icons: info.icons,
    });
    expect(served.title).toBe(info.title);
    expect((served.remotes as Record<string, unknown>[])[0]).toEqual({
      type: "streamable-http",
      url: `${BASE}/mcp`,
      supportedProtocolVersions: discovered.supportedVersions,
    });
  });

  it("answers 304 with no body to If-None-Match with its ETag (weak or strong), 200 to another tag", async () => {
    const etag = (await get(CARD_URL)).headers.get("ETag") as string;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const res = await get(CARD_URL, { "If-None-Match": ifNoneMatch });
      expect({ status: res.status, etag: res.headers.get("ETag"), body: await res.text() }, ifNoneMatch).toEqual({
        status: 304,
        etag,
        body: "",
      });
    }
    expect((await get(CARD_URL, { "If-None-Match": '"something-else"' })).status).toBe(200);
  });

  it("is served to a page of any origin, and answers its preflight", async () => {
    const res = await get(CARD_URL, { Origin: "https://catalog-browser.example" });
    expect({ status: res.status, origin: res.headers.get("Access-Control-Allow-Origin") }).toEqual({ status: 200, origin: "*" });
    const preflight = await get(CARD_URL, { Origin: "https://catalog-browser.example", "Access-Control-Request-Method": "GET" }, "OPTIONS");
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Headers")).toBe("Content-Type, If-None-Match");
  });

  it("still refuses a Host that is not allowed (DNS rebinding)", async () => {
    expect((await request(CARD_URL, { method: "GET", headers: { Host: "rebound.example" } })).status).toBe(403);
  });

  it("answers HEAD without a body and other methods with 405 naming GET", async () => {
    const head = await get(CARD_URL, {}, "HEAD");
    expect({ status: head.status, body: await head.text() }).toEqual({ status: 200, body: "" });
    const post = await get(CARD_URL, {}, "POST");
    expect(post.status).toBe(405);
    expect(post.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
  });
});

describe("the AI Catalog and the registry key", () => {
  it("lists the card in /.well-known/ai-catalog.json, at a URL that serves it", async () => {
    const res = await get(`${BASE}/.well-known/ai-catalog.json`);
    expect(res.headers.get("Content-Type")).toBe("application/ai-catalog+json");
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    const catalog = (await res.json()) as { specVersion: string; entries: { identifier: string; type: string; url: string }[] };
    expect(catalog).toEqual({
      specVersion: "1.0",
      entries: [{ identifier: "urn:air:127.0.0.1:mcp:demo", type: "application/mcp-server-card+json", url: CARD_URL }],
    });
    expect((await get(catalog.entries[0]?.url as string)).status).toBe(200);
  });

  it("serves the registry's HTTP verification record as text", async () => {
    const res = await get(`${BASE}/.well-known/mcp-registry-auth`);
    expect(res.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(await res.text()).toMatch(/^v=MCPv1; k=ed25519; p=[A-Za-z0-9+/]{43}=$/);
  });
});

describe("discovery options", () => {
  const described = { name: "s", version: "1", description: "A test server." };

  it("is off unless asked for: no card, no catalog", async () => {
    const edge = createMcpEdge(defineServer(described), {});
    const env = {} as never;
    const ctx = { waitUntil() {}, passThroughOnException() {} } as unknown as ExecutionContext;
    for (const path of ["/mcp/server-card", "/.well-known/ai-catalog.json"])
      expect((await edge.worker.fetch(new Request(`http://localhost${path}`), env, ctx)).status, path).toBe(404);
  });

  it("refuses at setup a card name that is not reverse-DNS, a missing or long description, a malformed registry record", () => {
    const serve = (server: ReturnType<typeof defineServer>, options: Parameters<typeof discovery>[0]) => () =>
      createMcpEdge(server, { features: [discovery(options)] });
    expect(serve(defineServer(described), {})).toThrow(/reverse-DNS name/);
    expect(serve(defineServer({ name: "a", version: "1" }), { name: "com.example/a" })).toThrow(/description/);
    const long = defineServer({ ...described, description: "x".repeat(101) });
    expect(serve(long, { name: "com.example/a" })).toThrow(/1-100 characters/);
    expect(serve(defineServer(described), { name: "com.example/a", registryAuth: "p=abc" })).toThrow(/registryAuth/);
  });

  it("refuses the options that became features, naming the feature and its subpath", () => {
    const server = defineServer({ ...described, name: "com.example/a" });
    const given = (options: object) => () => createMcpEdge(server, options as never);
    expect(given({ discovery: {} })).toThrow(
      /option discovery is now a feature: import \{ discovery \} from "mcp-edge\/discovery" and pass features: \[sessions\(\), discovery\(/,
    );
    expect(given({ tracing: {} })).toThrow(/option tracing is now a feature: import \{ observe \} from "mcp-edge\/observe"/);
    expect(given({ onEvent: () => {} })).toThrow(/features: \[sessions\(\), observe\(\{ onEvent \}\)\]/);
    expect(given({ rateLimits: [{ binding: "L" }] })).toThrow(
      /option rateLimits is now a feature: import \{ rateLimits \} from "mcp-edge\/rate-limits"/,
    );
    expect(given({ auth: { resource: "https://mcp.example.com/mcp" } })).toThrow(
      /option auth is now a feature: import \{ auth \} from "mcp-edge\/auth" and pass features: \[sessions\(\), auth\(/,
    );
    expect(() => createMcpEdge(server, { features: [rateLimits([{ binding: "" }])] })).toThrow(/each rule needs binding/);
  });
});
