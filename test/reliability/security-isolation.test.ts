/**
 * Sessions are isolated: a client holding session B cannot answer, cancel or read what belongs
 * to session A by guessing A's server-request ids, request ids or event ids. Event ids are
 * per-session stream cursors, so B's guesses can only ever name B's own streams.
 */
import { afterAll, describe, expect, it } from "vitest";
import { isResponseTo, SseReader, type SseEvent } from "../helpers/sse";
import { isRequest, toolText, type Session } from "../helpers/session";
import { callOnStream, getStream, post, startSession } from "./support/direct";
import { reportFigures } from "./support/settings";

const SAMPLED = (text: string) => ({ role: "assistant", content: { type: "text", text }, model: "m" });
const figures = { guessesTried: 0 };
afterAll(() => reportFigures("security-isolation", figures));

async function pendingSample(s: Session, id: number, prompt: string): Promise<{ stream: SseReader; request: SseEvent }> {
  const stream = await callOnStream(s, id, "test_sampling", { prompt });
  return { stream, request: (await stream.until(isRequest("sampling/createMessage"))).at(-1) as SseEvent };
}

describe("another session's requests and events", () => {
  it("B's answer carrying A's server-request id is accepted (202) and changes nothing in A", async () => {
    const a = await startSession("2025-06-18", { sampling: {} });
    const b = await startSession("2025-06-18", { sampling: {} });
    const inA = await pendingSample(a, 1, "secret prompt of A");
    expect((await post({ jsonrpc: "2.0", id: inA.request.json?.id, result: SAMPLED("forged by B") }, b)).status).toBe(202);
    expect((await post({ jsonrpc: "2.0", id: inA.request.json?.id, error: { code: -1, message: "forged refusal by B" } }, b)).status).toBe(
      202,
    );
    await post({ jsonrpc: "2.0", id: inA.request.json?.id, result: SAMPLED("A's own answer") }, a);
    expect(toolText((await inA.stream.all()).at(-1))).toBe("LLM response: A's own answer");
  });

  it("B's notifications/cancelled naming A's request ids (the client's and the server's) changes nothing in A", async () => {
    const a = await startSession("2025-06-18", { sampling: {} });
    const b = await startSession("2025-06-18");
    const inA = await pendingSample(a, 1, "p");
    for (const requestId of [1, "1", inA.request.json?.id]) {
      expect((await post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "B" } }, b)).status).toBe(202);
    }
    await post({ jsonrpc: "2.0", id: inA.request.json?.id, result: SAMPLED("fine") }, a);
    expect(toolText((await inA.stream.all()).at(-1))).toBe("LLM response: fine");
  });

  it("B's GET with A's Last-Event-ID never yields A's events and never takes over A's live stream", async () => {
    const a = await startSession("2025-11-25");
    const b = await startSession("2025-11-25");
    const aStream = await callOnStream(a, "a-call", "slow_countdown", { seconds: 1 }, "token-of-A");
    const aSeen: SseEvent[] = [(await aStream.next()) as SseEvent, (await aStream.next()) as SseEvent];
    const aEventId = aSeen.at(-1)?.id as string;
    await (await callOnStream(b, "b-call", "stream_progress", { count: 3 }, "token-of-B")).all();

    const res = await getStream(b, aEventId);
    if (res.status === 200) {
      const replay = await new SseReader(res).all();
      expect(replay.some((e) => e.data.includes("token-of-A") || e.json?.id === "a-call")).toBe(false);
    } else expect(res.status).toBe(400);
    const rest = await aStream.until(isResponseTo("a-call"));
    expect(toolText(rest.at(-1))).toBe("Countdown of 1 s finished");
  });

  it("B guessing event ids 0..20 of streams 1..20 only ever reads its own events", async () => {
    const a = await startSession("2025-06-18");
    const b = await startSession("2025-06-18");
    for (let i = 0; i < 3; i++) await (await callOnStream(a, `a${i}`, "stream_progress", { count: 5 }, "token-of-A")).all();
    await (await callOnStream(b, "b0", "stream_progress", { count: 2 }, "token-of-B")).all();
    for (let stream = 1; stream <= 20; stream++) {
      for (let seq = 0; seq <= 20; seq += 5) {
        figures.guessesTried++;
        const res = await getStream(b, `${stream}_${seq}`);
        if (res.status !== 200) {
          expect(res.status).toBe(400);
          await res.body?.cancel();
          continue;
        }
        const events = await new SseReader(res).all();
        expect(events.every((e) => !e.data.includes("token-of-A"))).toBe(true);
      }
    }
  });
});
