/**
 * createMcpEdge options seen from the Worker's front door: host and origin allow-lists (also
 * from MCP_ALLOWED_HOSTS / MCP_ALLOWED_ORIGINS), the body limit, the endpoint path and
 * stateless-only mode; and the unexpected-failure row of docs/errors.md "HTTP errors": our own failure before a reply
 * exists is 500 with -32603, id null and no internals.
 */
import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { INTERNAL_ERROR, LIMIT_EXCEEDED, TRANSPORT_ERROR } from "../../src/jsonrpc/errors";
import { demoServer } from "../../src/demo/server";
import { createMcpEdge } from "../../src/edge";
import type { EdgeEnv } from "../../src/http/runtime";
import { resolveOptions, type EdgeOptions } from "../../src/kernel/options";
import { ACCEPT_BOTH, initializeParams } from "../helpers/mcp";
import { expectResult, expectRpcError } from "../helpers/rpc-expect";

const PING = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });

/** A Worker built from the demo server with `options`, called with `env` (no bindings by default). */
function edgeFetch(options: EdgeOptions, env: EdgeEnv = {}) {
  const worker = createMcpEdge(demoServer, options).worker;
  return (url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Response> => {
    const request = new Request(url, {
      method: init.method ?? "POST",
      headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, ...init.headers },
      body: init.method === "GET" ? undefined : (init.body ?? PING),
    });
    return Promise.resolve(worker.fetch!(request as Request<unknown, IncomingRequestCfProperties>, env, createExecutionContext()));
  };
}

describe("500 for a Worker deployed without the session binding", () => {
  it("answers the first request 500 with a message naming the wrangler.toml lines to add", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const fetch = edgeFetch({});
      const res = await fetch("http://localhost/mcp", {
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams("2025-11-25") }),
      });
      // The request's id, read from its body (local development: the message names the fix).
      const body = await expectRpcError(res, 500, INTERNAL_ERROR, 1);
      expect(body.error?.message).toContain("needs the MCP_SESSION Durable Object binding");
      expect(body.error?.message).toContain('[[durable_objects.bindings]]\nname = "MCP_SESSION"\nclass_name = "McpSession"');
      expect(body.error?.message).toContain('new_sqlite_classes = ["McpSession"]');
      expect(body.error?.message).toContain("export const { McpSession } = edge.objects; (with sessions() in createMcpEdge's features)");
    } finally {
      logged.mockRestore();
    }
  });

  it("names the fix on every session route, the legacy /sse transport included", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const res = await edgeFetch({})("http://localhost/sse", { method: "GET", headers: { Accept: "text/event-stream" } });
      expect((await expectRpcError(res, 500, INTERNAL_ERROR, null)).error?.message).toContain("MCP_SESSION");
    } finally {
      logged.mockRestore();
    }
  });

  it("serves a stateless server without the binding", async () => {
    expect(await expectResult(await edgeFetch({ sessions: false })("http://localhost/mcp"))).toEqual({});
  });
});

describe("allow-lists", () => {
  it("keeps the loopback hosts allowed when allowedHosts lists a deployed host (additive)", async () => {
    const res = await edgeFetch({ sessions: false, allowedHosts: ["mcp.example.com"] })("http://127.0.0.1:8787/mcp");
    expect(await expectResult(res)).toEqual({});
  });

  it("refuses a deployed host name by default (loopback only), naming the option to set", async () => {
    const res = await edgeFetch({ sessions: false })("https://mcp.example.com/mcp");
    const body = await expectRpcError(res, 403, TRANSPORT_ERROR, null);
    expect(body.error?.message).toContain('host "mcp.example.com" is not an allowed host; add it to the allowedHosts option');
  });

  it("allows a host listed in allowedHosts", async () => {
    const res = await edgeFetch({ sessions: false, allowedHosts: ["MCP.example.com"] })("https://mcp.example.com/mcp");
    expect(await expectResult(res)).toEqual({});
  });

  it("allows a host listed in the MCP_ALLOWED_HOSTS variable", async () => {
    const fetch = edgeFetch({ sessions: false }, { MCP_ALLOWED_HOSTS: " other.example , mcp.example.com" });
    expect(await expectResult(await fetch("https://mcp.example.com/mcp"))).toEqual({});
  });

  it("allows an origin listed in allowedOrigins and echoes it in CORS headers", async () => {
    const fetch = edgeFetch({ sessions: false, allowedOrigins: ["https://app.example.com"] });
    const res = await fetch("http://localhost/mcp", { headers: { Origin: "https://app.example.com" } });
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("https://app.example.com");
    expect(await expectResult(res)).toEqual({});
  });

  it("allows an origin listed in the MCP_ALLOWED_ORIGINS variable", async () => {
    const fetch = edgeFetch({ sessions: false }, { MCP_ALLOWED_ORIGINS: "https://app.example.com" });
    const res = await fetch("http://localhost/mcp", { headers: { Origin: "https://app.example.com" } });
    expect(await expectResult(res)).toEqual({});
  });

  it("still refuses an origin missing from a non-empty allowedOrigins", async () => {
    const fetch = edgeFetch({ sessions: false, allowedOrigins: ["https://app.example.com"] });
    const res = await fetch("http://localhost/mcp", { headers: { Origin: "https://app.example.com.evil.test" } });
    await expectRpcError(res, 403, TRANSPORT_ERROR, null);
  });
});

describe("limits and mounting", () => {
  it("applies a configured maxBodyBytes", async () => {
    const fetch = edgeFetch({ sessions: false, maxBodyBytes: 16 });
    await expectRpcError(await fetch("http://localhost/mcp"), 413, LIMIT_EXCEEDED, null);
  });

  it("serves the endpoint at the configured path and nothing at /mcp", async () => {
    const fetch = edgeFetch({ sessions: false, path: "/api/mcp" });
    expect(await expectResult(await fetch("http://localhost/api/mcp"))).toEqual({});
    await expectRpcError(await fetch("http://localhost/mcp"), 404, TRANSPORT_ERROR, null);
  });

  it("serves the main path statelessly with sessions: false (no session id, GET is 405)", async () => {
    const fetch = edgeFetch({ sessions: false });
    const init = await fetch("http://localhost/mcp", {
      body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams() }),
    });
    expect(init.headers.get("Mcp-Session-Id")).toBeNull();
    expect((await expectResult(init, 0)).capabilities).toMatchObject({ resources: { subscribe: false } });
    const get = await fetch("http://localhost/mcp", { method: "GET", headers: { Accept: "text/event-stream" } });
    expect(get.headers.get("Allow")).toBe("POST, OPTIONS");
    await expectRpcError(get, 405, TRANSPORT_ERROR, null);
  });
});

describe("resolveOptions", () => {
  it("fills in the documented defaults", () => {
    expect(resolveOptions()).toMatchObject({
      path: "/mcp",
      sessions: true,
      statelessPath: undefined,
      allowedHosts: ["localhost", "127.0.0.1", "[::1]"],
      allowedOrigins: [],
      maxBodyBytes: 4 * 1024 * 1024,
    });
  });

  it("rejects a path without a leading slash and a non-positive limit", () => {
    expect(() => resolveOptions({ path: "mcp" })).toThrow(TypeError);
    expect(() => resolveOptions({ maxBodyBytes: 0 })).toThrow(TypeError);
    expect(() => resolveOptions({ session: { idleTimeoutMs: Number.NaN } })).toThrow(TypeError);
  });
});
