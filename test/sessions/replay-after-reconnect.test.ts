import { describe, expect, it } from "vitest";
import type { SseEvent } from "../helpers/sse";
import {
  answer,
  callOnStream,
  expectOrderedIds,
  getStream,
  isAnyResponse,
  isRequest,
  seqOf,
  sseOf,
  startSession,
  streamOf,
  toolText,
} from "../helpers/session";

const progressOf = (events: SseEvent[]) => events.filter((e) => e.json?.method === "notifications/progress").map((e) => e.json?.params);

describe("resuming a stream with Last-Event-ID", () => {
  it("replays exactly the events after the last one seen, ending with the response", async () => {
    const s = await startSession("2025-06-18");
    const first = await callOnStream(s, 1, "stream_progress", { count: 50 }, "tok");
    const seen = [await first.next(), await first.next(), await first.next(), await first.next(), await first.next()];
    await first.cancel();
    const last = seen.at(-1)?.id as string;

    const replayed = await sseOf(await getStream(s, last)).all();
    expect(replayed.map((e) => e.json?.params).slice(0, -1)).toEqual(
      Array.from({ length: 45 }, (_, i) => ({ progressToken: "tok", progress: i + 6, total: 50 })),
    );
    expect(replayed.at(-1)?.json?.id).toBe(1);
    expect(toolText(replayed.at(-1))).toBe("done 50");
    expectOrderedIds([...(seen as SseEvent[]), ...replayed]);
    expect(seqOf(replayed[0]?.id)).toBe(seqOf(last) + 1);
  });

  it("replays what was missed of a call still running, then continues live until the response (disconnection is not cancellation)", async () => {
    const s = await startSession("2025-06-18");
    const first = await callOnStream(s, 1, "slow_countdown", { seconds: 2 }, "tok");
    const seen = await first.next();
    await first.cancel();

    const rest = await sseOf(await getStream(s, seen?.id)).all();
    expect(progressOf(rest)).toEqual([
      { progressToken: "tok", progress: 1, total: 2 },
      { progressToken: "tok", progress: 2, total: 2 },
    ]);
    expect(rest.filter(isAnyResponse)).toHaveLength(1);
    expect(toolText(rest.at(-1))).toBe("Countdown of 2 s finished");
    expectOrderedIds([seen as SseEvent, ...rest]);
  });

  it("replays a response that was produced while the client was disconnected", async () => {
    const s = await startSession("2025-06-18", { sampling: {} });
    const stream = await callOnStream(s, 1, "test_sampling", { prompt: "hi" });
    const asked = await stream.until(isRequest("sampling/createMessage"));
    await stream.cancel();
    // The answer settles the tool before the 202 leaves the object: the response is stored with no connection attached.
    const ack = await answer(s, asked.at(-1)?.json?.id, { role: "assistant", content: { type: "text", text: "hello" }, model: "m" });
    expect(ack.status).toBe(202);

    const replayed = await sseOf(await getStream(s, asked.at(-1)?.id)).all();
    expect(replayed).toHaveLength(1);
    expect(replayed[0]?.json?.id).toBe(1);
    expect(toolText(replayed[0])).toBe("LLM response: hello");
  });

  it("delivers the result of a call whose stream the server closed early (2025-11-25 test_reconnection)", async () => {
    const s = await startSession("2025-11-25");
    const closedEarly = await (await callOnStream(s, 1, "test_reconnection")).all();
    expect(closedEarly).toHaveLength(1);
    expect(closedEarly[0]?.data).toBe("");

    const resumed = await sseOf(await getStream(s, closedEarly[0]?.id)).all();
    expect(resumed).toHaveLength(1);
    expect(resumed[0]?.json?.id).toBe(1);
    expect(toolText(resumed[0])).toBe("Reconnection test completed");
    expect(streamOf(resumed[0]?.id)).toBe(streamOf(closedEarly[0]?.id));
  });

  it("never replays events of another stream", async () => {
    const s = await startSession("2025-06-18");
    const a = await (await callOnStream(s, "a", "stream_progress", { count: 3 }, "token-a")).all();
    const b = await (await callOnStream(s, "b", "stream_progress", { count: 3 }, "token-b")).all();
    expect(streamOf(a[0]?.id)).not.toBe(streamOf(b[0]?.id));

    const resumedB = await sseOf(await getStream(s, b[0]?.id)).all();
    expect(resumedB.map((e) => e.data)).toEqual(b.slice(1).map((e) => e.data));
    expect(resumedB.every((e) => streamOf(e.id) === streamOf(b[0]?.id))).toBe(true);
    expect(resumedB.some((e) => e.data.includes("token-a") || e.json?.id === "a")).toBe(false);
  });

  it("replays a finished stream the same way every time it is resumed", async () => {
    const s = await startSession("2025-11-25");
    const events = await (await callOnStream(s, 1, "stream_progress", { count: 4 }, "tok")).all();
    const once = await sseOf(await getStream(s, events[0]?.id)).all();
    const twice = await sseOf(await getStream(s, events[0]?.id)).all();
    expect(once).toEqual(events.slice(1));
    expect(twice).toEqual(once);
  });

  it.each(["garbage", "12", "1_x", "_1", "1-1", ""])("answers 400 to a Last-Event-ID that is not an event id (%j)", async (value) => {
    const s = await startSession("2025-06-18");
    await (await callOnStream(s, 1, "stream_progress", { count: 1 }, "tok")).all();
    const res = await getStream(s, value);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
  });

  it("answers 400 to a Last-Event-ID naming a stream the session does not have", async () => {
    const s = await startSession("2025-06-18");
    await (await callOnStream(s, 1, "stream_progress", { count: 1 }, "tok")).all();
    const res = await getStream(s, "999_1");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: -32000 } });
  });
});
