/**
 * The 2024-11-05 HTTP+SSE transport inside a session object: GET /sse makes a fresh object
 * the session and opens its one stream with the `endpoint` event; each POST to the endpoint
 * is answered 202 and everything it causes travels on that stream. No resumption exists in
 * that revision, so a session whose stream is gone is gone.
 *
 * Meta keys: legacy_stream (the stream number), legacy_subject (the principal that opened it).
 */
import { INVALID_REQUEST } from "../../src/jsonrpc/errors";
import { errorMessage, type Message, type RequestMessage, type ResponseMessage } from "../../src/jsonrpc/messages";
import { parseBody } from "../../src/jsonrpc/parse";
import type { Principal } from "../../src/auth/principal";
import { toExchange, type Exchange } from "../../src/mcp/dispatch/exchange";
import { sseNamedEventText } from "../../src/wire/sse";

import { accepted } from "../../src/wire/json";
import { refuse } from "../../src/wire/refusals";
import type { EventLog } from "./event-log";
import type { SessionRecord } from "./session-record";
import type { HeldSockets } from "../kit/held-sockets";
import type { SessionCore } from "./core";
import type { InflightRequests } from "./inflight";

/** What the legacy transport needs from its session object. */
export interface LegacyHost {
  readonly log: EventLog;
  readonly record: SessionRecord;
  /** The `/sse` stream is held by the Worker (held-sockets.ts); this object sleeps behind its socket. */
  readonly held: HeldSockets<object>;
  /** True once the object is a session of either transport, or was terminated. */
  isTaken(): boolean;
  isInitialized(): boolean;
  isTerminated(): boolean;
  touch(force?: boolean): void;
  emit(stream: number, message: Message | ResponseMessage): void;
  receive(message: Message): void;
  /** Runs the server's handlers of the client notifications among `messages` (defineNotification). */
  hear(messages: readonly Message[], principal: Principal | undefined): Promise<void>;
  /** The requests of an exchange that may start now; the others become -32003 errors (run-limits.ts). */
  admit(exchange: Exchange): Exchange;
  /** Runs a request on a stream (records it in flight first). */
  start(stream: number, request: RequestMessage, principal: Principal | undefined): void;
  /** Answers initialize, making the object a session owned by `subject`. */
  initialize(request: RequestMessage, subject: string | undefined): ResponseMessage;
}

/** The host of a session object whose state is `core` and whose requests run in `inflight`; `initialize` is the object's. */
export function legacyHostOf<Env>(core: SessionCore, inflight: InflightRequests<Env>, initialize: LegacyHost["initialize"]): LegacyHost {
  return {
    log: core.log,
    record: core.record,
    held: core.held,
    isTaken: () => core.state !== null || core.terminated,
    isInitialized: () => core.state !== null,
    isTerminated: () => core.terminated,
    touch: (force) => core.touch(force),
    emit: (stream, message) => core.emit(stream, message),
    receive: (message) => inflight.receive(message),
    hear: (messages, principal) => inflight.hear(messages, { principal, origin: {} }),
    admit: (exchange) => inflight.admit(exchange),
    start: (stream, request, principal) => inflight.start(stream, request, principal),
    initialize,
  };
}

export function openLegacyStream(host: LegacyHost, endpoint: string, principal: Principal | undefined): Response {
  if (host.isTaken() || host.record.getMeta("legacy_stream") !== undefined) {
    return refuse({ reason: "legacy-stream-conflict" });
  }
  const stream = host.log.openStream("get");
  host.record.setMeta("legacy_stream", stream);
  // Auth: the legacy session belongs to the principal that opened its stream.
  if (principal) host.record.setMeta("legacy_subject", principal.subject);
  host.touch(true);
  const { socket, response } = host.held.open(stream, {});
  socket.send(sseNamedEventText("endpoint", endpoint));
  return response;
}

const GONE = { reason: "session-not-found", legacy: true } as const;
/**
 * How long a POST waits for the stream's probe: a client that is there but reads slowly (a full
 * TCP window) must not hold its POST; only a connection that fails is taken as gone.
 */
const PROBE_WAIT_MS = 2_000;

function isStreamAlive(host: LegacyHost, stream: number): Promise<boolean> {
  const socket = host.held.socketOf(stream);
  if (!socket) return Promise.resolve(false);
  let timer: ReturnType<typeof setTimeout> | null = null;
  const slow = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), PROBE_WAIT_MS);
  });
  return Promise.race([host.held.probe(socket), slow]).finally(() => {
    if (timer !== null) clearTimeout(timer);
  });
}

export async function postLegacyMessage(host: LegacyHost, text: string, principal: Principal | undefined): Promise<Response> {
  if (host.isTerminated()) return refuse(GONE);
  const stream = host.record.getMeta("legacy_stream");
  const owner = host.record.getMeta("legacy_subject");
  if (stream === undefined || !host.held.isAttached(stream) || owner !== principal?.subject) {
    return refuse(GONE);
  }
  // Everything this POST causes travels on the stream: a 202 for a stream whose client left
  // would lose it all, so ask the connection first (this revision has no resumption).
  if (!(await isStreamAlive(host, stream)) || host.isTerminated()) return refuse(GONE);
  const parsed = parseBody(text);
  if (!parsed.ok)
    return refuse({ reason: "unparsable", code: parsed.error.code as -32700 | -32600 | -32602, message: parsed.error.message });
  host.touch();
  const exchange = host.admit(toExchange(parsed));
  for (const invalid of exchange.invalid) host.emit(stream, invalid);
  for (const message of exchange.others) host.receive(message);
  await host.hear(exchange.others, principal);
  for (const request of exchange.requests) {
    if (request.method === "initialize") {
      host.emit(
        stream,
        host.isInitialized()
          ? errorMessage(request.id, { code: INVALID_REQUEST, message: "Invalid Request: the session is already initialized" })
          : host.initialize(request, owner),
      );
    } else if (!host.isInitialized()) {
      host.emit(stream, errorMessage(request.id, { code: INVALID_REQUEST, message: "Invalid Request: send initialize first" }));
    } else {
      host.start(stream, request, principal);
    }
  }
  return accepted();
}
