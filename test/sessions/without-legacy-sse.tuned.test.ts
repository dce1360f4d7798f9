/**
 * A Worker whose edge passes no legacySse() (test/servers/tuned/entry.ts: sessions() and hub()): its session
 * objects hold none of the 2024-11-05 transport, so the transport's internal requests, were one to reach
 * a session object, are answered as any request for a session that does not exist; and its Worker answers
 * GET /sse as a path it does not serve.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { HEADER_LEGACY_ENDPOINT, LEGACY_OPEN_URL, LEGACY_POST_URL } from "../../durable-objects/sessions/contract";
import { SESSION_NOT_FOUND, TRANSPORT_ERROR } from "../../src/jsonrpc/errors";
import { expectRpcError } from "../helpers/rpc-expect";

const sessionObject = () => {
  const namespace = (env as unknown as { MCP_SESSION: DurableObjectNamespace }).MCP_SESSION;
  return namespace.get(namespace.newUniqueId());
};

describe("a session object of an edge without legacySse()", () => {
  it("answers the transport's stream request 404 session not found, opening nothing", async () => {
    const res = await sessionObject().fetch(
      new Request(LEGACY_OPEN_URL, { headers: { Upgrade: "websocket", [HEADER_LEGACY_ENDPOINT]: "/messages" } }),
    );
    expect(res.webSocket).toBeNull();
    await expectRpcError(res, 404, SESSION_NOT_FOUND, null);
  });

  it("answers the transport's message 404 session not found", async () => {
    const res = await sessionObject().fetch(
      new Request(LEGACY_POST_URL, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      }),
    );
    await expectRpcError(res, 404, SESSION_NOT_FOUND, null);
  });
});

describe("its Worker", () => {
  it("answers GET /sse 404 naming the MCP endpoint", async () => {
    const worker = exports as unknown as { default: { fetch(request: Request): Promise<Response> } };
    const res = await worker.default.fetch(new Request("http://127.0.0.1/sse", { headers: { Accept: "text/event-stream" } }));
    expect((await expectRpcError(res, 404, TRANSPORT_ERROR, null)).error?.message).toBe("Not Found: the MCP endpoint is /mcp");
  });
});
