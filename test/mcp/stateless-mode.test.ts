/**
 * The stateless lane (/stateless/mcp, docs/configuration.md "Configuration"): no session ids and no Durable
 * Object; an interactive tool is answered as a non-resumable SSE stream (no event ids); a
 * handler that needs a server-to-client request fails fast with a clear error instead of hanging.
 */
import { listDurableObjectIds } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { CAPABILITY_UNAVAILABLE, INVALID_PARAMS } from "../../src/jsonrpc/errors";
import { initializeParams } from "../helpers/mcp";
import { SseReader, type SseEvent } from "../helpers/sse";
import { expectResult, expectRpcError, postStateless, sessionNamespace, statelessCall } from "../helpers/rpc-expect";

async function sseEvents(res: Response): Promise<SseEvent[]> {
  expect(res.status).toBe(200);
  expect(res.headers.get("Content-Type")).toBe("text/event-stream");
  expect(res.headers.get("Mcp-Session-Id")).toBeNull();
  return new SseReader(res).all();
}

const messages = (events: SseEvent[]) => events.map((e) => e.json);

describe("stateless initialize and simple calls", () => {
  it("answers initialize without an Mcp-Session-Id and creates no Durable Object", async () => {
    const before = (await listDurableObjectIds(sessionNamespace())).length;
    const res = await postStateless({ jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2025-06-18") });
    expect(res.headers.get("Mcp-Session-Id")).toBeNull();
    expect((await expectResult(res, 0)).protocolVersion).toBe("2025-06-18");
    expect((await listDurableObjectIds(sessionNamespace())).length).toBe(before);
  });

  it("answers tools/call with no session header as JSON", async () => {
    const res = await statelessCall("tools/call", { name: "add", arguments: { a: 1, b: 2 } }, { version: "2025-06-18" });
    expect((await expectResult(res)).structuredContent).toEqual({ sum: 3 });
  });

  it("answers without any initialize having happened", async () => {
    const res = await statelessCall("tools/call", { name: "test_simple_text" });
    expect((await expectResult(res)).content).toEqual([{ type: "text", text: "This is a simple text response for testing." }]);
  });

  it("ignores an Mcp-Session-Id header", async () => {
    const res = await statelessCall("ping", {}, { sessionId: "ab".repeat(32) });
    expect(await expectResult(res)).toEqual({});
  });

  it("answers initialized and other notifications with 202", async () => {
    const res = await postStateless({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(res.status).toBe(202);
  });
});

describe("interactive tools in stateless mode", () => {
  it("streams progress notifications then the result as SSE without event ids", async () => {
    const res = await statelessCall(
      "tools/call",
      { name: "stream_progress", arguments: { count: 3 }, _meta: { progressToken: "tok" } },
      {},
      7,
    );
    const events = await sseEvents(res);
    expect(events.every((e) => e.id === undefined)).toBe(true);
    expect(messages(events)).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "tok", progress: 1, total: 3 } },
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "tok", progress: 2, total: 3 } },
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "tok", progress: 3, total: 3 } },
      { jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "done 3" }] } },
    ]);
  });

  it("keeps a numeric progressToken numeric", async () => {
    const res = await statelessCall(
      "tools/call",
      { name: "stream_progress", arguments: { count: 1 }, _meta: { progressToken: 12 } },
      {},
      8,
    );
    const [progress] = messages(await sseEvents(res));
    expect(progress).toMatchObject({ method: "notifications/progress", params: { progressToken: 12, progress: 1 } });
  });

  it("sends only the result when the request carries no progressToken", async () => {
    const res = await statelessCall("tools/call", { name: "stream_progress", arguments: { count: 2 } }, {}, 9);
    expect(messages(await sseEvents(res))).toEqual([{ jsonrpc: "2.0", id: 9, result: { content: [{ type: "text", text: "done 2" }] } }]);
  });

  it("streams the log notifications of test_tool_with_logging before its result", async () => {
    const events = messages(await sseEvents(await statelessCall("tools/call", { name: "test_tool_with_logging", arguments: {} })));
    expect(events.map((m) => m?.method ?? "response")).toEqual([
      "notifications/message",
      "notifications/message",
      "notifications/message",
      "response",
    ]);
    expect(events.slice(0, 3).map((m) => (m?.params as { data: string }).data)).toEqual([
      "Tool execution started",
      "Tool processing data",
      "Tool execution completed",
    ]);
  });

  it("answers test_sampling with an isError result explaining that sampling needs a session", async () => {
    const res = await statelessCall("tools/call", { name: "test_sampling", arguments: { prompt: "hi" } }, {}, 10);
    const events = await sseEvents(res);
    expect(events).toHaveLength(1);
    const reply = events[0]?.json as { id: number; result: { isError: boolean; content: { type: string; text: string }[] } };
    expect(reply.id).toBe(10);
    expect(reply.result.isError).toBe(true);
    expect(reply.result.content[0]?.text).toMatch(/sampling\/createMessage is unavailable: .*stateless mode.*session/);
  });

  it("answers test_elicitation with an isError result instead of waiting for an answer", async () => {
    const events = await sseEvents(await statelessCall("tools/call", { name: "test_elicitation", arguments: { message: "who?" } }));
    const reply = events[0]?.json as { result: { isError: boolean; content: { text: string }[] } };
    expect(reply.result.isError).toBe(true);
    expect(reply.result.content[0]?.text).toContain("elicitation/create is unavailable");
  });

  it("answers invalid arguments to an interactive tool with -32602 on the stream", async () => {
    const res = await statelessCall("tools/call", { name: "stream_progress", arguments: { count: -1 } }, { version: "2025-06-18" }, 11);
    expect(messages(await sseEvents(res))).toEqual([
      expect.objectContaining({ jsonrpc: "2.0", id: 11, error: expect.objectContaining({ code: INVALID_PARAMS }) }),
    ]);
  });

  it("answers a batch holding an interactive call with one SSE stream carrying every response", async () => {
    const batch = [
      { jsonrpc: "2.0", id: "a", method: "ping" },
      { jsonrpc: "2.0", id: "b", method: "tools/call", params: { name: "stream_progress", arguments: { count: 1 } } },
      "junk",
    ];
    const replies = messages(await sseEvents(await postStateless(batch)));
    expect(replies).toHaveLength(3);
    expect(replies).toEqual(
      expect.arrayContaining([
        { jsonrpc: "2.0", id: "a", result: {} },
        { jsonrpc: "2.0", id: "b", result: { content: [{ type: "text", text: "done 1" }] } },
        expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) }),
      ]),
    );
  });
});

describe("session features in stateless mode", () => {
  it("refuses resources/subscribe with -32006 (there is no session to notify)", async () => {
    await expectRpcError(
      await statelessCall("resources/subscribe", { uri: "test://watched-resource" }, {}, 12),
      200,
      CAPABILITY_UNAVAILABLE,
      12,
    );
  });

  it("refuses resources/unsubscribe with -32006", async () => {
    await expectRpcError(
      await statelessCall("resources/unsubscribe", { uri: "test://watched-resource" }, {}, 13),
      200,
      CAPABILITY_UNAVAILABLE,
      13,
    );
  });
});
