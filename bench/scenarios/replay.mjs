// Bench part: Last-Event-ID replay of the last REPLAY_TAIL events from a short and from a very long
// stored stream (the event log's range read must not slow down with the log's length).

import { pairedRatio, runBursts, send, summarise } from "../harness/load.mjs";
import { countOf, expectProgressStream, openSession, PROTOCOL_VERSION, progressCall, sessionHeaders } from "./messages.mjs";

/** Events the replay scenario resumes: the last REPLAY_TAIL of the stream. */
const REPLAY_TAIL = 100;

/** Stores a stream of `events` events (count-1 progress notifications + the response) and returns the replay cursor for its last REPLAY_TAIL. */
async function storeStream(demo, events) {
  const sessionId = await openSession(demo);
  const res = await send(demo, { path: "/mcp", headers: sessionHeaders(sessionId), body: progressCall(events - 1) });
  expectProgressStream(res.text, events - 1);
  const last = /id: (\d+)_(\d+)\n(?![\s\S]*id: )/.exec(res.text);
  if (!last) throw new Error("the stored stream carried no event ids");
  const [stream, seq] = [Number(last[1]), Number(last[2])];
  return { sessionId, lastEventId: `${stream}_${seq - REPLAY_TAIL}`, stored: seq };
}

export async function runReplayScenario(opts, demo) {
  process.stderr.write(`bench: replay (storing ${opts.replayEvents.toLocaleString("en-US")} events) …`);
  const small = await storeStream(demo, REPLAY_TAIL);
  const large = await storeStream(demo, opts.replayEvents);
  const replay = (target) => async () => {
    const res = await send(demo, {
      method: "GET",
      path: "/mcp",
      headers: {
        accept: "text/event-stream",
        "mcp-session-id": target.sessionId,
        "mcp-protocol-version": PROTOCOL_VERSION,
        "last-event-id": target.lastEventId,
      },
    });
    const events = countOf(res.text, "\nid: ") + (res.text.startsWith("id: ") ? 1 : 0);
    if (events !== REPLAY_TAIL || !res.text.includes("done "))
      throw new Error(`replay sent ${events} events, expected ${REPLAY_TAIL} ending with the response`);
  };
  const [smallBursts, largeBursts] = await runBursts(opts, {}, [{ operation: replay(small) }, { operation: replay(large) }]);
  const smallSummary = summarise(smallBursts);
  const largeSummary = summarise(largeBursts);
  return {
    key: "replay",
    name: `replay of the last ${REPLAY_TAIL} events`,
    unit: "req/s",
    small: { stored: small.stored, ...smallSummary },
    large: { stored: large.stored, ...largeSummary },
    // Cost ratio: how much slower a replay from the large stream is (1 = the same).
    ratio: pairedRatio(smallBursts, largeBursts),
    p50Ratio: largeSummary.p50 / smallSummary.p50,
  };
}
