/**
 * Faults: the session object restarted (abortAllDurableObjects keeps storage, drops every
 * instance; the client's connection is cut with it) at every step of a streaming tool call, of an elicitation
 * round-trip and of a replay. Afterwards each request has exactly one final response (its
 * result, or the stored -32005 "session restarted"), reachable by replay, with no event
 * duplicated and none lost: what the client collected equals the stored stream event for event.
 */
import { abortAllDurableObjects } from "cloudflare:test";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { SseReader, type SseEvent } from "../helpers/sse";
import { isRequest, sql, toolText } from "../helpers/session";
import { CODE } from "./support/documented";
import { call, callOnStream, getStream, post, startSession } from "./support/direct";
import { expectExactlyTheStream, readUntilCut } from "./support/streams";
import { fuzzParameters, reportFigures } from "./support/settings";

const figures = { restarts: 0, streamingSteps: 0, elicitationSteps: 0, replaySteps: 0, finalResults: 0, finalRestartErrors: 0 };
afterAll(() => reportFigures("faults-restart", figures));

const lastId = (events: SseEvent[]) => [...events].reverse().find((e) => e.id !== undefined)?.id as string;

async function restart(): Promise<void> {
  figures.restarts++;
  await abortAllDurableObjects();
}

/** Resumes from the last event seen until the stream closes, after any number of restarts. */
async function resumeToEnd(s: { sessionId: string; version: string }, seen: SseEvent[]): Promise<void> {
  const res = await getStream(s, lastId(seen));
  expect(
    res.status,
    await res
      .clone()
      .text()
      .catch(() => ""),
  ).toBe(200);
  await readUntilCut(new SseReader(res), seen);
}

function countFinal(final: SseEvent): void {
  if (final.json?.error) figures.finalRestartErrors++;
  else figures.finalResults++;
}

/** test_tool_with_progress on 2025-11-25 sends: priming, progress 0, 50, 100, response — with pauses between. */
const STREAMING_STEPS = [0, 1, 2, 3, 4, 5];

describe("a restart at every step of a streaming tool call", () => {
  it.each(STREAMING_STEPS)(
    "after %i events read, resuming yields the stored stream exactly, ending in one final response",
    async (step) => {
      figures.streamingSteps++;
      const s = await startSession("2025-11-25");
      const reader = await callOnStream(s, "call", "test_tool_with_progress", {}, "tok");
      const seen: SseEvent[] = [];
      for (let i = 0; i < step; i++) {
        const e = await reader.next();
        if (e) seen.push(e);
      }
      if (step === 0) seen.push((await reader.next()) as SseEvent); // the priming event: the client's only cursor so far
      // A restart cuts the object's connections; the harness does not, so the client hangs up first.
      await reader.cancel();
      await restart();
      await resumeToEnd(s, seen);

      const final = await expectExactlyTheStream(s.sessionId, seen, "call");
      countFinal(final);
      if (final.json?.error) expect(final.json.error).toMatchObject({ code: CODE.SESSION_RESTARTED });
      else expect(toolText(final)).toBe("Tool with progress executed successfully");
      expect(await sql(s.sessionId, "SELECT * FROM inflight")).toEqual([]);

      // Durable: after one more restart the same replay comes back, nothing appended twice.
      const first = seen.find((e) => e.data !== "") as SseEvent;
      const before = seen.filter((e) => e.data !== "" && e !== first);
      await restart();
      const again: SseEvent[] = [];
      await readUntilCut(new SseReader(await getStream(s, first.id)), again);
      expect(again.map((e) => e.data)).toEqual(before.map((e) => e.data));
      expect(await call(s, "ping", {}, "after")).toEqual({ jsonrpc: "2.0", id: "after", result: {} });
    },
  );
});

/** Steps of an elicitation round-trip at which the object restarts. */
const ELICITATION_STEPS = [
  "before the request is read",
  "after the request is read",
  "after the answer is posted",
  "after the response is read",
] as const;

describe("a restart at every step of an elicitation round-trip", () => {
  it.each(ELICITATION_STEPS)("%s: one final response, replayable, nothing twice, a late answer ignored", async (step) => {
    figures.elicitationSteps++;
    const s = await startSession("2025-11-25", { elicitation: {} });
    const reader = await callOnStream(s, 9, "test_elicitation", { message: "Who are you?" });
    const seen: SseEvent[] = [(await reader.next()) as SseEvent]; // priming
    let answered = false;
    const answer = async (request: SseEvent) => {
      const ack = await post(
        { jsonrpc: "2.0", id: request.json?.id, result: { action: "accept", content: { username: "ada", email: "a@example.com" } } },
        s,
      );
      expect(ack.status).toBe(202);
      answered = true;
    };
    if (step !== "before the request is read") {
      for (let e = await reader.next(); e; e = await reader.next()) {
        seen.push(e);
        if (isRequest("elicitation/create")(e)) break;
      }
      if (step === "after the answer is posted" || step === "after the response is read") await answer(seen.at(-1) as SseEvent);
      if (step === "after the response is read") seen.push((await reader.next()) as SseEvent);
    }
    await reader.cancel();
    await restart();
    // A client that answers after the restart: accepted (202) and ignored, never a second response.
    const asked = seen.find(isRequest("elicitation/create"));
    if (asked && !answered) await answer(asked);
    await resumeToEnd(s, seen);

    const final = await expectExactlyTheStream(s.sessionId, seen, 9);
    countFinal(final);
    if (step === "after the response is read") expect(toolText(final)).toContain("action=accept");
    else if (final.json?.error) expect(final.json.error).toMatchObject({ code: CODE.SESSION_RESTARTED });
    else expect(step).toBe("after the answer is posted");
    expect(await call(s, "ping", {}, "after")).toEqual({ jsonrpc: "2.0", id: "after", result: {} });
  });
});

describe("a restart at every step of a replay", () => {
  it("of a finished stream: wherever the replay is cut, resuming again completes it exactly (seeded)", async () => {
    const s = await startSession("2025-06-18");
    const original = await (await callOnStream(s, "done", "stream_progress", { count: 40 }, "tok")).all();
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: original.length - 2 }), fc.nat({ max: 45 }), async (from, cut) => {
        figures.replaySteps++;
        const seen = original.slice(0, from + 1);
        const reader = new SseReader(await getStream(s, lastId(seen)));
        for (let i = 0; i < cut; i++) {
          const e = await reader.next();
          if (!e) break;
          seen.push(e);
        }
        await reader.cancel();
        await restart();
        await resumeToEnd(s, seen);
        expect(seen.map((e) => e.data)).toEqual(original.map((e) => e.data));
        await expectExactlyTheStream(s.sessionId, seen, "done");
      }),
      fuzzParameters(25, 10),
    );
  });

  it.each([0, 1, 2])("of a call still running (replay cut after %i events): one final response, nothing twice", async (cut) => {
    figures.replaySteps++;
    const s = await startSession("2025-06-18");
    const first = await callOnStream(s, "run", "test_tool_with_progress", {}, "tok");
    const seen: SseEvent[] = [(await first.next()) as SseEvent];
    await first.cancel(); // the client disconnects…
    const replay = new SseReader(await getStream(s, lastId(seen))); // …resumes…
    for (let i = 0; i < cut; i++) {
      const e = await replay.next();
      if (e) seen.push(e);
    }
    await replay.cancel();
    await restart(); // …and the object restarts during the replay.
    await resumeToEnd(s, seen);
    countFinal(await expectExactlyTheStream(s.sessionId, seen, "run"));
  });
});
