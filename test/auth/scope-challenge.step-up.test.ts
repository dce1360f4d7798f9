/**
 * Scopes per operation (SEP-2350, 2026-07-28 authorization "Scope Challenge Handling"): the draft
 * conformance scenario `sep-2350-server-scope-challenge` run inside workerd against
 * test/servers/step-up, with its opaque tokens and its check ids, on the 2026-07-28 wire and the
 * 2025 one; scopes computed from the call; the old toolScopes option beside declared scopes; and
 * the protected resource metadata the challenges point at.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { envelope, headers2026 } from "../helpers/era-2026";
import { ACCEPT_BOTH, initializeParams } from "../helpers/mcp";

const worker = (exports as unknown as { default: Fetcher }).default;
const MCP_URL = "https://mcp.example.com/mcp";
const METADATA_URL = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";
const LOW = "mcp-conformance-scope-low";
const FULL = "mcp-conformance-scope-full";

/** The scenario's four fixtures, as scope-challenge.ts states them (each needs both scopes, in one challenge). */
const FIXTURES = [
  { key: "tool", method: "tools/call", params: { name: "test_simple_text" }, scopes: ["tools:call", "tools:test_simple_text"] },
  {
    key: "static-resource",
    method: "resources/read",
    params: { uri: "test://static-text" },
    scopes: ["resources:read", "resources:static"],
  },
  {
    key: "template-resource",
    method: "resources/read",
    params: { uri: "test://template/123/data" },
    scopes: ["resources:read", "resources:template:123"],
  },
  { key: "prompt", method: "prompts/get", params: { name: "test_simple_prompt" }, scopes: ["prompts:get", "prompts:test_simple_prompt"] },
].map((f) => ({ ...f, scopes: f.scopes.map((s) => `mcp:conformance:${s}`) }));

/** A stateless 2026-07-28 request, headers and envelope as the scenario's sendStatelessRequest builds them. */
function post2026(method: string, params: Record<string, unknown>, token: string): Promise<Response> {
  return worker.fetch(MCP_URL, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, Authorization: `Bearer ${token}`, ...headers2026(method, params) },
    body: JSON.stringify({ jsonrpc: "2.0", id: `scope-challenge-${method}`, method, params: { ...params, _meta: envelope() } }),
  });
}

/** The scenario's parse of a Bearer challenge: its auth-params by name. */
function bearerParams(header: string | null): Record<string, string> {
  const params: Record<string, string> = {};
  const bearer = header?.split(/,\s*(?=DPoP )/)[0] ?? "";
  if (!/^Bearer /.test(bearer)) return params;
  for (const [, name, value] of bearer.slice(7).matchAll(/([a-z_]+)="([^"]*)"/g)) params[name as string] = value as string;
  return params;
}

/** The scenario's resource_metadata rule: an absolute URL, no user information or fragment, https (or same-origin http). */
function isValidMetadataUrl(value: string | undefined): boolean {
  if (value === undefined || !URL.canParse(value)) return false;
  const url = new URL(value);
  return !url.username && !url.password && !url.hash && url.protocol === "https:";
}

describe("sep-2350-server-scope-challenge, on the 2026-07-28 wire", () => {
  for (const fixture of FIXTURES) {
    describe(`${fixture.key}: ${fixture.method} ${JSON.stringify(fixture.params)}`, () => {
      it("server-scope-challenge-http-403: 403 for a valid token holding only the baseline", async () => {
        const res = await post2026(fixture.method, fixture.params, LOW);
        expect(res.status).toBe(403);
      });

      it("server-scope-challenge-www-authenticate: a Bearer insufficient_scope challenge naming the resource metadata", async () => {
        const res = await post2026(fixture.method, fixture.params, LOW);
        const params = bearerParams(res.headers.get("WWW-Authenticate"));
        expect(params.error).toBe("insufficient_scope");
        expect(isValidMetadataUrl(params.resource_metadata)).toBe(true);
        expect(params.resource_metadata).toBe(METADATA_URL);
      });

      it("sep-2350-server-single-challenge: one challenge names every scope the operation needs", async () => {
        const res = await post2026(fixture.method, fixture.params, LOW);
        const scopes = (bearerParams(res.headers.get("WWW-Authenticate")).scope ?? "").split(" ");
        for (const scope of fixture.scopes) expect(scopes).toContain(scope);
        // The complete set: the baseline every request needs, too.
        expect(scopes).toContain("mcp:conformance:baseline");
      });

      it("server-scope-challenge-upgraded-retry: the same operation succeeds with the full token", async () => {
        const res = await post2026(fixture.method, fixture.params, FULL);
        expect(res.status).toBe(200);
        const body = (await res.json()) as { result?: Record<string, unknown>; error?: unknown };
        expect(body.error).toBeUndefined();
        expect(body.result).toBeDefined();
      });
    });
  }

  it("names the template's computed scope for the id read (another id, another scope)", async () => {
    const res = await post2026("resources/read", { uri: "test://template/9/data" }, FULL);
    expect(res.status).toBe(403);
    expect(bearerParams(res.headers.get("WWW-Authenticate")).scope).toBe(
      "mcp:conformance:baseline mcp:conformance:resources:read mcp:conformance:resources:template:9",
    );
  });
});

/** A 2025-06-18 session opened with `token`. */
async function openSession(token: string): Promise<string> {
  const res = await worker.fetch(MCP_URL, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, Authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2025-06-18") }),
  });
  expect(res.status).toBe(200);
  return res.headers.get("Mcp-Session-Id") as string;
}

function post2025(sessionId: string, token: string, method: string, params: Record<string, unknown>): Promise<Response> {
  return worker.fetch(MCP_URL, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: ACCEPT_BOTH,
      Authorization: `Bearer ${token}`,
      "Mcp-Session-Id": sessionId,
      "MCP-Protocol-Version": "2025-06-18",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
}

describe("sep-2350-server-scope-challenge, on the 2025 wire (a session)", () => {
  for (const fixture of FIXTURES) {
    it(`${fixture.key}: 403 with the complete set for the low token, 200 with the full one`, async () => {
      const low = await post2025(await openSession(LOW), LOW, fixture.method, fixture.params);
      expect(low.status).toBe(403);
      const params = bearerParams(low.headers.get("WWW-Authenticate"));
      expect(params).toMatchObject({ error: "insufficient_scope", resource_metadata: METADATA_URL });
      expect(params.scope?.split(" ")).toEqual(expect.arrayContaining(fixture.scopes));
      const full = await post2025(await openSession(FULL), FULL, fixture.method, fixture.params);
      expect(full.status).toBe(200);
      expect(((await full.json()) as { result?: unknown }).result).toBeDefined();
    });
  }
});

describe("scopes computed from the call, and the old options beside them", () => {
  it("a tool's scopes follow its arguments", async () => {
    const params = { name: "delete_repo", arguments: { repo: "web" } };
    const res = await post2026("tools/call", params, "user:ada:mcp:conformance:baseline+repo:api:admin");
    expect(res.status).toBe(403);
    const challenge = bearerParams(res.headers.get("WWW-Authenticate"));
    expect(challenge.scope).toBe("mcp:conformance:baseline repo:web:admin");
    // RFC 6750 §3: no `"` in error_description, so the tool's name loses its quotes there.
    expect(challenge.error_description).toBe("the tool delete_repo needs the scope repo:web:admin");
    const allowed = await post2026("tools/call", params, "user:ada:mcp:conformance:baseline+repo:web:admin");
    expect(((await allowed.json()) as { result: { content: unknown } }).result.content).toEqual([{ type: "text", text: "deleted web" }]);
  });

  it("auth.toolScopes still applies, and its scopes join the handler's in one challenge", async () => {
    const withoutRead = await post2026("tools/call", { name: "write_file" }, "user:ada:mcp:conformance:baseline");
    expect(withoutRead.status).toBe(403);
    expect(bearerParams(withoutRead.headers.get("WWW-Authenticate")).scope).toBe("mcp:conformance:baseline files:read");
    const withRead = await post2026("tools/call", { name: "write_file" }, "user:ada:mcp:conformance:baseline+files:read");
    expect(withRead.status).toBe(403);
    expect(bearerParams(withRead.headers.get("WWW-Authenticate")).scope).toBe("mcp:conformance:baseline files:read files:write");
  });

  it("a scope function that throws is the server's failure: 500 -32603 with a reference, never a refusal of the token", async () => {
    const res = await post2026("tools/call", { name: "broken_scopes" }, FULL);
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error: { code: number; message: string; data: { reference: string } } };
    expect(body.error).toMatchObject({ code: -32603, data: { reference: expect.any(String) } });
    expect(JSON.stringify(body)).not.toContain("scope lookup failed");
  });

  it("the metadata every challenge points at is served, for this resource, with the baseline as scopes_supported", async () => {
    const res = await worker.fetch(METADATA_URL);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ resource: MCP_URL, scopes_supported: ["mcp:conformance:baseline"] });
  });
});
