/**
 * Choosing eras (`eras` option) and browsers on 2026-07-28: with 2026 off the endpoint answers
 * exactly as a 2025-era server (a probe gets its 400 -32000, no modern error body, so dual-era
 * clients fall back to initialize: basic/versioning.mdx "Backward Compatibility"); with 2025
 * off, unclaimed requests get 400 -32022 listing the served versions and GET/DELETE 405
 * (streamable-http.mdx "Earlier Streamable HTTP Revisions"). CORS allows and exposes the
 * 2026 headers, and allows the Mcp-Param-* headers a preflight asks for.
 */
import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { demoServer } from "../../src/demo/server";
import { createMcpEdge } from "../../src/edge";
import type { EdgeOptions } from "../../src/kernel/options";
import { ACCEPT_BOTH, initializeParams, MCP, request } from "../helpers/mcp";
import { envelope, expectComplete, expect2026Error, headers2026, post2026 } from "../helpers/era-2026";
import { expectRpcError } from "../helpers/rpc-expect";

function edgeFetch(options: EdgeOptions) {
  const worker = createMcpEdge(demoServer, options).worker;
  return (init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<Response> => {
    const req = new Request("http://localhost/mcp", {
      method: init.method ?? "POST",
      headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, ...init.headers },
      body: init.method === "GET" || init.method === "DELETE" ? undefined : JSON.stringify(init.body),
    });
    return Promise.resolve(worker.fetch!(req as Request<unknown, IncomingRequestCfProperties>, {}, createExecutionContext()));
  };
}

const DISCOVER = { jsonrpc: "2.0", id: 7, method: "server/discover", params: { _meta: envelope() } };

describe('eras: ["2025"]', () => {
  const fetch = edgeFetch({ sessions: false, eras: ["2025"] });

  it("answers the server/discover probe with today's 400 -32000 (no modern error), so clients fall back to initialize", async () => {
    await expectRpcError(await fetch({ body: DISCOVER, headers: headers2026("server/discover", {}) }), 400, -32000, null);
  });

  it("still answers initialize and 2025-era requests", async () => {
    const res = await fetch({ body: { jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2025-11-25") } });
    expect(res.status).toBe(200);
  });
});

describe('eras: ["2026"]', () => {
  const fetch = edgeFetch({ eras: ["2026"] });

  it("serves claimed requests", async () => {
    const res = await fetch({ body: DISCOVER, headers: headers2026("server/discover", {}) });
    expect((await expectComplete(res, 7)).supportedVersions).toEqual(["2026-07-28"]);
  });

  it("refuses initialize with 400 -32022 naming the served versions (versioning.mdx: name them for legacy clients)", async () => {
    const res = await fetch({ body: { jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2025-11-25") } });
    const body = await expect2026Error(res, 400, -32022, 0);
    expect(body.error?.data).toEqual({ supported: ["2026-07-28"], requested: "2025-11-25" });
  });

  it("answers GET and DELETE with 405", async () => {
    expect((await fetch({ method: "GET", headers: { Accept: "text/event-stream" } })).status).toBe(405);
    expect((await fetch({ method: "DELETE" })).status).toBe(405);
  });

  it("rejects an empty eras list at definition", () => {
    expect(() => createMcpEdge(demoServer, { eras: [] })).toThrow(/eras/);
  });
});

describe("CORS for 2026-07-28 headers", () => {
  it("allows Mcp-Method and Mcp-Name, and the Mcp-Param-* headers the preflight asks for", async () => {
    const res = await request(MCP, {
      method: "OPTIONS",
      headers: {
        Origin: "http://127.0.0.1:5173",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "mcp-method, mcp-name, mcp-param-region, x-other",
      },
    });
    const allowed = res.headers.get("Access-Control-Allow-Headers") ?? "";
    expect(allowed).toContain("Mcp-Method");
    expect(allowed).toContain("Mcp-Name");
    expect(allowed).toContain("mcp-param-region");
    expect(allowed).not.toContain("x-other");
  });

  it("exposes Mcp-Method and Mcp-Name to a browser on a 2026 answer", async () => {
    const res = await post2026("tools/list", {}, { headers: { Origin: "http://127.0.0.1:5173" } });
    expect(res.headers.get("Access-Control-Expose-Headers")).toContain("Mcp-Name");
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("http://127.0.0.1:5173");
  });
});
