/**
 * GET on a session: a new standalone stream, or with `Last-Event-ID` the replay of one stored
 * stream after that event, then live. All of Last-Event-ID lives here: reading the id, refusing
 * a position that names no stream or whose events were trimmed, and attaching with no gap.
 * Event ids are `<stream>_<seq>` (event-log.ts writes them).
 */
import { usesSsePolling, type ProtocolVersion } from "../../src/mcp/definition/versions";
import type { ResolvedSessionOptions } from "../../src/kernel/options";
import { HEADER_LAST_EVENT_ID } from "../../src/wire/headers";
import { sseEventText } from "../../src/wire/sse";
import { formatEventId, parseEventId, type EventLog } from "./event-log";
import type { HeldSockets } from "../kit/held-sockets";
import type { LiveStreams } from "../../src/platform/live-streams";
import { refuse } from "../../src/wire/refusals";

/** What replay needs from its session object: the log, the connections and the stream limits. */
export interface ReplayHost {
  readonly log: EventLog;
  /** GET streams are held by the Worker (held-sockets.ts); POST streams count against the cap too. */
  readonly held: HeldSockets<object>;
  /** A POST stream's connection in the object, which a resumed stream replaces. */
  readonly live: LiveStreams;
  openStreams(): number;
  readonly options: Pick<ResolvedSessionOptions, "maxStreams" | "maxEventsPerStream" | "retryMs">;
}

/** GET /mcp in a live session of `version` (the Worker's upgrade: the answer is 101 with the stream's socket, or a refusal). */
export function handleGet(host: ReplayHost, request: Request, version: ProtocolVersion): Response {
  const lastEventId = request.headers.get(HEADER_LAST_EVENT_ID);
  if (lastEventId !== null) return resume(host, lastEventId);
  // A new GET gets its own stream and becomes the one standalone messages go to: the older
  // one may be a connection that died unnoticed, and a message is never sent on two streams.
  const open = host.log.latestOpen("get");
  if (host.openStreams() >= host.options.maxStreams) {
    return refuse({ reason: "too-many-streams", limit: host.options.maxStreams, hint: "close" });
  }
  if (open !== undefined) host.log.markDone(open, Date.now());
  const stream = host.log.openStream("get");
  host.log.enforceStreamCap(host.options.maxStreams);
  const { response } = host.held.open(stream, {});
  if (usesSsePolling(version)) host.held.send(stream, sseEventText("", formatEventId(stream, 0), host.options.retryMs));
  return response;
}

/** Replays one stream's events after the given id (a range read), then continues live. */
function resume(host: ReplayHost, lastEventId: string): Response {
  const cursor = parseEventId(lastEventId);
  const row = cursor ? host.log.stream(cursor.stream) : undefined;
  if (!cursor || !row) {
    return refuse({ reason: "unknown-last-event-id" });
  }
  const first = host.log.firstSeq(cursor.stream);
  if (first !== undefined && first > cursor.seq + 1) {
    // Replaying from here would skip trimmed events silently: say so instead.
    return refuse({ reason: "events-trimmed", lastEventId, kept: host.options.maxEventsPerStream });
  }
  // Read and attach with no await between them, so no event can fall in the gap.
  const events = host.log.after(cursor.stream, cursor.seq);
  // A resumed stream replaces the connection it had (one that died unnoticed, most likely).
  host.live.close(cursor.stream);
  host.held.close(cursor.stream, "resumed elsewhere");
  const { socket, response } = host.held.open(cursor.stream, {});
  for (const event of events) socket.send(sseEventText(event.data, event.id));
  if (row.done) host.held.close(cursor.stream);
  return response;
}
