/**
 * Tracing (an in-memory tracer in place of @opentelemetry/api's): one span per MCP operation,
 * named and attributed by the OpenTelemetry MCP semantic conventions, continuing the client's
 * `_meta.traceparent`, so that one call is one trace across the Worker, the session object and a
 * task's run, each hop's span the child of the one before.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { envelope, headers2026 } from "../helpers/era-2026";
import { callIn, postRpc, answerOf, TASK_CAPS, textOf } from "../operate/helpers";
import { finished, type FinishedSpan } from "../servers/operate/memory-tracer";

const CLIENT_TRACE = "0af7651916cd43dd8448eb211c80319c";
const CLIENT_SPAN = "b7ad6b7169203331";
const TRACEPARENT = `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`;
const SERVER = 1;

beforeEach(() => {
  finished.length = 0;
});

function spansOf(trace: string): FinishedSpan[] {
  return finished.filter((s) => s.traceId === trace);
}

describe("one call, one trace", () => {
  it("2025 interactive call: the Worker's span continues the client's, the session object's continues the Worker's", async () => {
    const answer = await callIn("session object", "interactive", { meta: { traceparent: TRACEPARENT } });
    expect(textOf(answer)).toBe("interactive ran");
    const spans = spansOf(CLIENT_TRACE);
    expect(spans.map((s) => s.name)).toEqual(["tools/call interactive", "tools/call interactive"]);
    // The Worker's span ends when the object's stream starts; the object's when the tool is done: either may end first.
    const worker = spans.find((s) => s.parentSpanId === CLIENT_SPAN);
    const object = spans.find((s) => s !== worker);
    expect(worker).toBeDefined();
    expect(object?.parentSpanId).toBe(worker?.spanId);
    // The cost counters: the Worker's hop is one Durable Object request.
    expect(worker?.attributes).toMatchObject({ "mcp_edge.place": "forward", "mcp_edge.do_requests": 1 });
    expect(object?.attributes).toMatchObject({ "mcp_edge.place": "session", "mcp_edge.do_requests": 0 });
    for (const span of spans) {
      expect(span.kind).toBe(SERVER);
      expect(span.attributes).toMatchObject({
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": "interactive",
        "gen_ai.operation.name": "execute_tool",
        "mcp.protocol.version": "2025-11-25",
        "jsonrpc.request.id": "7",
      });
      expect(span.attributes["mcp.session.id"]).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it("2026 call in the Worker: one span, the client's span its parent", async () => {
    await callIn("worker 2026", "simple", { meta: { traceparent: TRACEPARENT } });
    const spans = spansOf(CLIENT_TRACE);
    expect(spans).toHaveLength(1);
    expect(spans[0]).toMatchObject({ name: "tools/call simple", parentSpanId: CLIENT_SPAN });
    expect(spans[0]?.attributes).toMatchObject({ "mcp.protocol.version": "2026-07-28", "gen_ai.tool.name": "simple" });
  });

  it("a task: the run's span in the task object is the child of the span of the request that created it", async () => {
    const answer = await callIn("task run", "simple", { meta: { traceparent: TRACEPARENT } });
    expect(textOf(answer)).toBe("simple ran");
    const spans = spansOf(CLIENT_TRACE);
    const creation = spans.find((s) => s.parentSpanId === CLIENT_SPAN);
    const run = spans.find((s) => s.parentSpanId === creation?.spanId);
    expect(creation?.name).toBe("tools/call simple");
    expect(run?.name).toBe("tools/call simple");
    expect(run?.attributes["jsonrpc.request.id"]).toMatch(/^[0-9a-f]{64}$/);
  });

  it("without a traceparent a call starts its own trace; a malformed one is ignored", async () => {
    await callIn("worker 2026", "simple", { meta: { traceparent: "00-not-a-trace-01" } });
    expect(finished).toHaveLength(1);
    expect(finished[0]?.parentSpanId).toBeUndefined();
  });
});

describe("span attributes and status", () => {
  it("a failing tool marks error.type tool_error; a JSON-RPC error its code", async () => {
    await callIn("worker 2026", "throws");
    expect(finished.at(-1)?.attributes["error.type"]).toBe("tool_error");
    expect(finished.at(-1)?.status?.code).toBe(2);
    await callIn("worker 2026", "rpc_refused_simple");
    expect(finished.at(-1)?.attributes).toMatchObject({ "error.type": "-32602", "rpc.response.status_code": "-32602" });
  });

  it("names non-tool operations by method, a prompt by its name, never a resource URI", async () => {
    const list = { jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: envelope() } };
    await answerOf(await postRpc(list, headers2026("tools/list", {})), 3);
    const prompt = { jsonrpc: "2.0", id: 4, method: "prompts/get", params: { name: "greeting", _meta: envelope(TASK_CAPS) } };
    await answerOf(await postRpc(prompt, headers2026("prompts/get", { name: "greeting" })), 4);
    expect(finished.map((s) => s.name)).toEqual(["tools/list", "prompts/get greeting"]);
    expect(finished[1]?.attributes["gen_ai.prompt.name"]).toBe("greeting");
  });
});
