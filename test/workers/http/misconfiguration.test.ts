/**
 * A Worker deployed without the MCP_SESSION binding: every request that needs a session gets
 * 500 with a message giving the wrangler.toml lines to add (never a bare "Internal error"),
 * while requests that need no session object (2026-07-28, stateless) are served as usual.
 */
import { describe, expect, it } from "vitest";
import { createMcpEdge } from "../../../src/edge";
import { demoServer } from "../../../src/demo/server";
import { initializeParams } from "../../helpers/mcp";
import { envelope, expectComplete, modernHeaders } from "../../helpers/modern";

const edge = createMcpEdge(demoServer);
const NO_BINDINGS = {} as never;

function send(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return edge.worker.fetch!(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(body),
    }) as never,
    NO_BINDINGS,
    {} as ExecutionContext,
  ) as Promise<Response>;
}

describe("session mode without the MCP_SESSION binding", () => {
  it("answers initialize with 500 naming the wrangler.toml lines to add", async () => {
    const res = await send({ jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams() });
    expect(res.status).toBe(500);
    const body = (await res.json()) as {
      id: unknown;
      error: { code: number; message: string; data: { missingBinding: string; wranglerToml: string } };
    };
    expect(body.id).toBeNull();
    expect(body.error.code).toBe(-32603);
    expect(body.error.message).toContain('name = "MCP_SESSION"');
    expect(body.error.data.missingBinding).toBe("MCP_SESSION");
    expect(body.error.data.wranglerToml).toContain('new_sqlite_classes = ["McpSession"]');
  });

  it("answers a GET on the endpoint the same way", async () => {
    const res = await edge.worker.fetch!(
      new Request("http://127.0.0.1/mcp", {
        method: "GET",
        headers: { Accept: "text/event-stream", "Mcp-Session-Id": "ab".repeat(32) },
      }) as never,
      NO_BINDINGS,
      {} as ExecutionContext,
    );
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("[[durable_objects.bindings]]");
  });

  it("still serves 2026-07-28 requests, which need no session object", async () => {
    const params = { _meta: envelope() };
    const res = await send({ jsonrpc: "2.0", id: 1, method: "tools/list", params }, modernHeaders("tools/list", params));
    const result = await expectComplete(res);
    expect(Array.isArray(result.tools)).toBe(true);
  });
});
