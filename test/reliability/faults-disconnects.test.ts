/**
 * Faults: the client disconnects at random points of a stream — while the server is still
 * producing it or after — and resumes with Last-Event-ID, again and again (seeded rounds).
 * Nothing is lost or repeated: what the client pieced together equals the stored stream.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { SseReader, type SseEvent } from "../helpers/sse";
import type { Session } from "../helpers/session";
import { callOnStream, getStream, startSession } from "./support/direct";
import { fuzzParameters, reportFigures } from "./support/settings";
import { expectExactlyTheStream } from "./support/streams";

const figures = { rounds: 0, disconnects: 0, eventsReceived: 0 };
afterAll(() => reportFigures("faults-disconnects", figures));

const sessions: Session[] = [];
beforeAll(async () => {
  sessions.push(await startSession("2025-11-25"), await startSession("2025-06-18"), await startSession("2025-03-26"));
});

/** A call and where the client hangs up: after `cuts[i]` events of the i-th connection. */
const round = fc.record({
  session: fc.nat({ max: 2 }),
  tool: fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: 1, max: 300 }).map((count) => ({ name: "stream_progress", args: { count } })) },
    { weight: 1, arbitrary: fc.constant({ name: "test_tool_with_progress", args: {} }) },
    { weight: 1, arbitrary: fc.constant({ name: "test_tool_with_logging", args: {} }) },
  ),
  cuts: fc.array(fc.nat({ max: 80 }), { minLength: 1, maxLength: 12 }),
});

let callId = 0;

describe("client disconnects at random points, then resumes", () => {
  it("lose nothing and repeat nothing, over many seeded rounds", { timeout: 300_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(round, async ({ session, tool, cuts }) => {
        figures.rounds++;
        const s = sessions[session] as Session;
        const id = `round-${++callId}`;
        const received: SseEvent[] = [];
        let reader: SseReader = await callOnStream(s, id, tool.name, tool.args, "tok");
        for (let connection = 0; ; connection++) {
          const cut = cuts[connection];
          let ended = false;
          for (let i = 0; cut === undefined || i < cut; i++) {
            const e = await reader.next();
            if (!e) {
              ended = true;
              break;
            }
            received.push(e);
          }
          if (ended) break;
          await reader.cancel();
          figures.disconnects++;
          const last = [...received].reverse().find((e) => e.id !== undefined)?.id;
          // A 2025-06-18 client that hung up before its first event has no cursor: it cannot resume (no priming event before 2025-11-25).
          if (last === undefined) return;
          reader = new SseReader(await getStream(s, last));
        }
        figures.eventsReceived += received.length;
        await expectExactlyTheStream(s.sessionId, received, id);
      }),
      fuzzParameters(150, 20),
    );
  });
});
