/** Session behaviour that depends on timing and limits, with small limits (entry.ts). */
import { abortAllDurableObjects } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { isResponseTo, readTextUntil, type SseReader } from "../helpers/sse";
import { callOnStream, getStream, send, sseOf, startSession } from "../helpers/session";
import { TUNED } from "../servers/tuned/entry";

describe("session limits and timing", () => {
  it("sends SSE comment keep-alives on an idle stream", async () => {
    const s = await startSession("2025-06-18");
    const text = await readTextUntil(await getStream(s), ": keepalive");
    expect(text).toContain(": keepalive\n\n");
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
    const open = await Promise.all(
      Array.from({ length: TUNED.maxStreams }, (_, i) => callOnStream(s, i + 1, "slow_countdown", { seconds: 2 })),
    );
    const third = await send(s, {
      jsonrpc: "2.0",
      id: 99,
      method: "tools/call",
      params: { name: "slow_countdown", arguments: { seconds: 1 } },
    });
    expect(third.status).toBe(429);
    expect(await third.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32003 } });
    await Promise.all(open.map((r: SseReader) => r.cancel()));
  });

  it("keeps the newest maxStreams streams: the oldest finished one goes first, also after a restart and when an older stream is still open", {
    timeout: 30_000,
  }, async () => {
    const s = await startSession("2025-06-18");
    /** A finished call's stream; returns the id of its first event (a replay cursor into it). */
    const finishedCall = async (id: number): Promise<string> => {
      const events = await (await callOnStream(s, id, "stream_progress", { count: 1 }, `p${id}`)).all();
      expect(events.at(-1)?.json).toMatchObject({ id, result: {} });
      return events[0]!.id!;
    };
    /** 200 when the stream is still stored (its rest is replayed), 400 once it was deleted. */
    const replayStatus = async (cursor: string): Promise<number> => {
      const res = await getStream(s, cursor);
      await res.body?.cancel();
      return res.status;
    };
    const a = await finishedCall(1);
    const b = await finishedCall(2);
    expect([await replayStatus(a), await replayStatus(b)]).toEqual([200, 200]);
    const c = await finishedCall(3); // a third stream: the cap (2) deletes the oldest, a
    expect([await replayStatus(a), await replayStatus(b), await replayStatus(c)]).toEqual([400, 200, 200]);

    await abortAllDurableObjects(); // the object restarts and rebuilds what it keeps in memory
    const d = await finishedCall(4);
    expect([await replayStatus(b), await replayStatus(c), await replayStatus(d)]).toEqual([400, 200, 200]);

    // An open stream is never deleted: with e still running, f's arrival deletes c and d (four
    // streams, two over the cap); e's finish deletes nothing; the next call deletes e, the oldest finished.
    const e = await callOnStream(s, 5, "slow_countdown", { seconds: 1 }, "p5");
    const f = await finishedCall(6);
    expect([await replayStatus(c), await replayStatus(d)]).toEqual([400, 400]);
    const eEvents = await e.all();
    expect(eEvents.at(-1)?.json).toMatchObject({ id: 5, result: {} });
    expect([await replayStatus(eEvents[0]!.id!), await replayStatus(f)]).toEqual([200, 200]);
    const g = await finishedCall(7);
    expect([await replayStatus(eEvents[0]!.id!), await replayStatus(f), await replayStatus(g)]).toEqual([400, 200, 200]);
  });

  it("runs at most maxConcurrentRuns handlers per session: a request beyond gets -32003 saying so, and runs once some finish", async () => {
    const s = await startSession("2025-03-26");
    const slow = (id: number) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "slow_countdown", arguments: { seconds: 1 } },
    });
    const running = await callOnStream(s, 0, "slow_countdown", { seconds: 1 });
    const batch = sseOf(await send(s, [slow(1), slow(2), slow(3)]));
    const setLevel = (id: number) => send(s, { jsonrpc: "2.0", id, method: "logging/setLevel", params: { level: "info" } });
    const refused = `Not run: this session already runs its limit of ${TUNED.maxConcurrentRuns} handlers at once; retry when some finish`;
    // One call runs, and of the batch of three only two fit: the third is answered on the stream at once.
    expect((await batch.until(isResponseTo(3))).at(-1)?.json).toEqual({ jsonrpc: "2.0", id: 3, error: { code: -32003, message: refused } });
    expect(await (await setLevel(4)).json()).toEqual({ jsonrpc: "2.0", id: 4, error: { code: -32003, message: refused } });
    await running.all();
    await batch.all();
    expect(await (await setLevel(5)).json()).toEqual({ jsonrpc: "2.0", id: 5, result: {} });
  });

  it("caps subscriptions per session at maxSubscriptions: a new URI beyond it is -32003, a repeat or a freed slot is fine", async () => {
    const s = await startSession("2025-06-18");
    const subscribe = async (uri: string, id: number) =>
      (await send(s, { jsonrpc: "2.0", id, method: "resources/subscribe", params: { uri } })).json();
    const uris = [1, 2, 3, 4].map((n) => `test://template/${n}/data`);
    for (const [i, uri] of uris.slice(0, TUNED.maxSubscriptions).entries())
      expect(await subscribe(uri, i)).toEqual({ jsonrpc: "2.0", id: i, result: {} });
    expect(await subscribe(uris[0]!, 10)).toEqual({ jsonrpc: "2.0", id: 10, result: {} }); // already subscribed: no new slot needed
    expect(await subscribe(uris[3]!, 11)).toEqual({
      jsonrpc: "2.0",
      id: 11,
      error: {
        code: -32003,
        message: `Too many subscriptions on this session (limit ${TUNED.maxSubscriptions}); unsubscribe from one first`,
      },
    });
    await send(s, { jsonrpc: "2.0", id: 12, method: "resources/unsubscribe", params: { uri: uris[1] } });
    expect(await subscribe(uris[3]!, 13)).toEqual({ jsonrpc: "2.0", id: 13, result: {} });
  });
});
