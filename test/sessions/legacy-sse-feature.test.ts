/**
 * The 2024-11-05 HTTP+SSE transport is the `legacySse()` feature: an edge with `sessions()` only answers
 * GET /sse and POST /messages as paths it does not serve (404 naming the endpoint), one with
 * `[sessions(), legacySse()]` serves the whole exchange (the endpoint event, POST, the answer on the
 * stream), at the paths its options name. Its options are checked when createMcpEdge runs.
 */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { demoServer } from "../../src/demo/server";
import { createMcpEdge } from "../../src/edge";
import { discovery } from "../../src/features/discovery/index";
import { deferredSessions, legacySse, sessions } from "../../src/features/sessions/index";
import type { EdgeOptions } from "../../src/kernel/options";
import { TRANSPORT_ERROR } from "../../src/jsonrpc/errors";
import { initializeParams } from "../helpers/mcp";
import { expectRpcError } from "../helpers/rpc-expect";
import { isResponseTo, SseReader } from "../helpers/sse";

const ORIGIN = "http://127.0.0.1:8787";

/** A Worker of the demo server with `options`, called with the test's bindings (the demo's session class). */
function edgeFetch(options: EdgeOptions) {
  const worker = createMcpEdge(demoServer, options).worker;
  return (path: string, init: RequestInit = {}): Promise<Response> =>
    Promise.resolve(
      worker.fetch!(
        new Request(`${ORIGIN}${path}`, init) as Request<unknown, IncomingRequestCfProperties>,
        env as never,
        createExecutionContext(),
      ),
    );
}

type EdgeCall = ReturnType<typeof edgeFetch>;

const post = (fetch: EdgeCall, endpoint: string, message: unknown) =>
  fetch(endpoint, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(message) });

/** Opens the transport's stream at `ssePath`: its reader and the endpoint its first event names. */
async function openStream(fetch: EdgeCall, ssePath: string): Promise<{ reader: SseReader; endpoint: string }> {
  const res = await fetch(ssePath, { headers: { Accept: "text/event-stream" } });
  expect(res.status).toBe(200);
  expect(res.headers.get("Content-Type")).toContain("text/event-stream");
  const reader = new SseReader(res);
  const first = await reader.next();
  expect(first?.event).toBe("endpoint");
  return { reader, endpoint: first?.data ?? "" };
}

describe("an edge with sessions() only", () => {
  const fetch = edgeFetch({ features: [sessions()] });

  it("answers GET /sse as a path it does not serve: 404 naming the MCP endpoint", async () => {
    const res = await fetch("/sse", { headers: { Accept: "text/event-stream" } });
    const body = await expectRpcError(res, 404, TRANSPORT_ERROR, null);
    expect(body.error?.message).toBe("Not Found: the MCP endpoint is /mcp");
  });

  it("answers POST /messages the same way, reaching no session object", async () => {
    const res = await post(fetch, `/messages?sessionId=${"ab".repeat(32)}`, { jsonrpc: "2.0", id: 1, method: "ping" });
    expect((await expectRpcError(res, 404, TRANSPORT_ERROR, null)).error?.message).toBe("Not Found: the MCP endpoint is /mcp");
  });

  it("lists no SSE remote in its Server Card", async () => {
    const card = edgeFetch({ features: [sessions(), discovery({ name: "com.example/no-sse" })] });
    const served = (await (await card("/mcp/server-card")).json()) as { remotes: { type: string }[] };
    expect(served.remotes.map((r) => r.type)).toEqual(["streamable-http"]);
  });
});

describe("an edge with [sessions(), legacySse()]", () => {
  it("serves the 2024-11-05 exchange: the endpoint event, 202 for each POST, the answers on the stream", async () => {
    const fetch = edgeFetch({ features: [sessions(), legacySse()] });
    const { reader, endpoint } = await openStream(fetch, "/sse");
    expect(endpoint).toMatch(/^\/messages\?sessionId=[0-9a-f]{64}$/);
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams("2024-11-05") };
    expect((await post(fetch, endpoint, init)).status).toBe(202);
    const initialized = (await reader.until(isResponseTo(1))).at(-1);
    expect(JSON.parse(initialized?.data ?? "{}")).toMatchObject({ id: 1, result: { protocolVersion: "2024-11-05" } });
    expect((await post(fetch, endpoint, { jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);
    const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "old client" } } };
    expect((await post(fetch, endpoint, call)).status).toBe(202);
    const answered = (await reader.until(isResponseTo(2))).at(-1);
    expect(JSON.parse(answered?.data ?? "{}").result.content).toEqual([{ type: "text", text: "old client" }]);
    await reader.cancel();
  });

  it("serves it at the paths its options name, and announces that messages path", async () => {
    const fetch = edgeFetch({ features: [sessions(), legacySse({ ssePath: "/old/sse", messagesPath: "/old/messages" })] });
    const { reader, endpoint } = await openStream(fetch, "/old/sse");
    expect(endpoint).toMatch(/^\/old\/messages\?sessionId=[0-9a-f]{64}$/);
    expect(
      (await post(fetch, endpoint, { jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams("2024-11-05") })).status,
    ).toBe(202);
    await reader.cancel();
    expect((await fetch("/sse", { headers: { Accept: "text/event-stream" } })).status).toBe(404);
  });

  it("serves it beside deferred sessions (their object class passes the transport's requests through)", async () => {
    // This project's McpSession is the demo's deferred session class (src/demo/worker.ts), made by an edge with legacySse().
    const fetch = edgeFetch({ features: [deferredSessions(), legacySse()] });
    const { reader, endpoint } = await openStream(fetch, "/sse");
    expect(
      (await post(fetch, endpoint, { jsonrpc: "2.0", id: 7, method: "initialize", params: initializeParams("2024-11-05") })).status,
    ).toBe(202);
    expect(JSON.parse((await reader.until(isResponseTo(7))).at(-1)?.data ?? "{}")).toMatchObject({
      result: { protocolVersion: "2024-11-05" },
    });
    await reader.cancel();
  });

  it("lists the SSE remote in its Server Card", async () => {
    const card = edgeFetch({ features: [sessions(), legacySse(), discovery({ name: "com.example/with-sse" })] });
    const served = (await (await card("/mcp/server-card")).json()) as { remotes: Record<string, unknown>[] };
    expect(served.remotes[1]).toEqual({ type: "sse", url: `${ORIGIN}/sse`, supportedProtocolVersions: ["2024-11-05"] });
  });
});

describe("legacySse()'s options, checked when createMcpEdge runs", () => {
  it("needs sessions(): without it, a TypeError naming what to pass", () => {
    expect(() => createMcpEdge(demoServer, { features: [legacySse()] })).toThrow(
      new TypeError(
        "mcp-edge legacySse(): the 2024-11-05 transport serves 2025-era sessions; pass sessions() (or deferredSessions()) beside it",
      ),
    );
  });

  it("refuses the top-level paths beside features, naming legacySse({ ssePath, messagesPath })", () => {
    for (const options of [{ legacySsePath: "/sse" }, { legacyMessagesPath: "/messages" }] as EdgeOptions[]) {
      expect(() => createMcpEdge(demoServer, { ...options, features: [sessions()] })).toThrow(
        /with features, the 2024-11-05 transport is the feature legacySse\(\{ ssePath, messagesPath \}\) from "mcp-edge\/sessions"/,
      );
    }
  });

  it("accepts legacySsePath: null beside features (off, as it is without legacySse())", async () => {
    const fetch = edgeFetch({ features: [sessions()], legacySsePath: null });
    expect((await fetch("/sse", { headers: { Accept: "text/event-stream" } })).status).toBe(404);
  });

  it("refuses a path with route parameters", () => {
    expect(() => legacySse({ ssePath: "/sse/:tenant" })).toThrow(
      new TypeError(
        'mcp-edge legacySse({ ssePath: "/sse/:tenant" }): the 2024-11-05 transport is served at fixed paths, without route parameters',
      ),
    );
  });
});
