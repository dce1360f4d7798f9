/** Session behaviour that depends on timing and limits, with small limits (entry.ts). */
import { describe, expect, it } from "vitest";
import { isResponseTo, SseReader } from "../helpers/sse";
import { callOnStream, getStream, send, sseOf, startSession } from "../helpers/session";
import { TUNED } from "./entry";

describe("session limits and timing", () => {
  it("sends SSE comment keep-alives on an idle stream", async () => {
    const s = await startSession("2025-06-18");
    const res = await getStream(s);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes(": keepalive")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(text).toContain(": keepalive\n\n");
    await reader.cancel();
  });

  it("fails a sampling request the client never answers after requestTimeoutMs, as a tool error", async () => {
    const s = await startSession("2025-06-18", { sampling: {} });
    const stream = await callOnStream(s, 1, "test_sampling", { prompt: "anyone?" });
    const events = await stream.until(isResponseTo(1));
    const request = events.find((e) => e.json?.method === "sampling/createMessage");
    expect(request).toBeDefined();
    // The server withdraws its request before answering the call.
    const cancelled = events.find((e) => e.json?.method === "notifications/cancelled");
    expect(cancelled?.json?.params).toMatchObject({ requestId: request?.json?.id });
    const result = events.at(-1)?.json?.result as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toBe(`sampling/createMessage: the client did not answer within ${TUNED.requestTimeoutMs} ms`);
  });

  it("closes a 2025-11-25 POST stream after pollAfterMs and delivers the rest on resume", async () => {
    const s = await startSession("2025-11-25");
    const stream = await callOnStream(s, 1, "slow_countdown", { seconds: 1 }, "tok");
    const before = await stream.all();
    expect(before[0]?.data).toBe("");
    expect(before.some((e) => e.json?.id === 1)).toBe(false);
    const last = before.at(-1)!.id!;
    const rest = await sseOf(await getStream(s, last)).until(isResponseTo(1));
    expect(rest.at(-1)?.json).toMatchObject({ id: 1, result: { content: [{ type: "text" }] } });
    const ids = [...before, ...rest].map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("answers 429 when a session already has maxStreams open streams", async () => {
    const s = await startSession("2025-06-18");
    const open = await Promise.all(Array.from({ length: TUNED.maxStreams }, (_, i) => callOnStream(s, i + 1, "slow_countdown", { seconds: 2 })));
    const third = await send(s, { jsonrpc: "2.0", id: 99, method: "tools/call", params: { name: "slow_countdown", arguments: { seconds: 1 } } });
    expect(third.status).toBe(429);
    expect(await third.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32003 } });
    await Promise.all(open.map((r: SseReader) => r.cancel()));
  });
});
