/**
 * The 2024-11-05 HTTP+SSE transport inside a session object: GET /sse makes a fresh object
 * the session and opens its one stream with the `endpoint` event; each POST to the endpoint
 * is answered 202 and everything it causes travels on that stream. No resumption exists in
 * that revision, so a session whose stream is gone is gone. The `legacySse()` feature's half in the
 * session object, reached through the kernel's `legacy` seam: a session object without it bundles none of this.
 *
 * Meta keys: legacy_stream (the stream number), legacy_subject (the principal that opened it).
 */
import { INVALID_REQUEST } from "../../src/jsonrpc/errors";
import { errorMessage } from "../../src/jsonrpc/messages";
import { parseBody } from "../../src/jsonrpc/parse";
import type { Principal } from "../../src/auth/principal";
import { toExchange } from "../../src/mcp/dispatch/exchange";
import { sseNamedEventText } from "../../src/wire/sse";
import { accepted } from "../../src/wire/json";
import { refuse } from "../../src/wire/refusals";
import { LEGACY_SESSION_NOT_FOUND, LEGACY_STREAM_CONFLICT } from "../../src/wire/legacy-sse-refusals";
import type { LegacyHost } from "../../src/kernel/legacy-sse-seam";
import { isUpgrade } from "../kit/held-sockets";
import { HEADER_LEGACY_ENDPOINT, LEGACY_OPEN_URL, LEGACY_POST_URL } from "./contract";

/**
 * A session object's answer to the internal URLs the Worker's half forwards (the `legacy` seam's
 * `answer`): the stream's upgrade, or a message; undefined for any other request.
 */
export function answerLegacy(host: LegacyHost, request: Request, principal: Principal | undefined): Promise<Response> | undefined {
  if (request.url === LEGACY_OPEN_URL && isUpgrade(request))
    return Promise.resolve(openLegacyStream(host, request.headers.get(HEADER_LEGACY_ENDPOINT) ?? "", principal));
  if (request.url === LEGACY_POST_URL) return request.text().then((text) => postLegacyMessage(host, text, principal));
  return undefined;
}

function openLegacyStream(host: LegacyHost, endpoint: string, principal: Principal | undefined): Response {
  const { core } = host;
  // Taken: the object is already a session of either transport, or was terminated.
  if (core.state !== null || core.terminated || core.record.getMeta("legacy_stream") !== undefined) {
    return refuse(LEGACY_STREAM_CONFLICT);
  }
  const stream = core.log.openStream("get");
  core.record.setMeta("legacy_stream", stream);
  // Auth: the legacy session belongs to the principal that opened its stream.
  if (principal) core.record.setMeta("legacy_subject", principal.subject);
  core.touch(true);
  const { socket, response } = core.held.open(stream, {});
  socket.send(sseNamedEventText("endpoint", endpoint));
  return response;
}

/**
 * How long a POST waits for the stream's probe: a client that is there but reads slowly (a full
 * TCP window) must not hold its POST; only a connection that fails is taken as gone.
 */
const PROBE_WAIT_MS = 2_000;

function isStreamAlive(held: LegacyHost["core"]["held"], stream: number): Promise<boolean> {
  const socket = held.socketOf(stream);
  if (!socket) return Promise.resolve(false);
  let timer: ReturnType<typeof setTimeout> | null = null;
  const slow = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), PROBE_WAIT_MS);
  });
  return Promise.race([held.probe(socket), slow]).finally(() => {
    if (timer !== null) clearTimeout(timer);
  });
}

async function postLegacyMessage(host: LegacyHost, text: string, principal: Principal | undefined): Promise<Response> {
  const { core, inflight } = host;
  if (core.terminated) return refuse(LEGACY_SESSION_NOT_FOUND);
  const stream = core.record.getMeta("legacy_stream");
  const owner = core.record.getMeta("legacy_subject");
  if (stream === undefined || !core.held.isAttached(stream) || owner !== principal?.subject) {
    return refuse(LEGACY_SESSION_NOT_FOUND);
  }
  // Everything this POST causes travels on the stream: a 202 for a stream whose client left
  // would lose it all, so ask the connection first (this revision has no resumption).
  if (!(await isStreamAlive(core.held, stream)) || core.terminated) return refuse(LEGACY_SESSION_NOT_FOUND);
  const parsed = parseBody(text);
  if (!parsed.ok)
    return refuse({ reason: "unparsable", code: parsed.error.code as -32700 | -32600 | -32602, message: parsed.error.message });
  core.touch();
  const exchange = inflight.admit(toExchange(parsed));
  for (const invalid of exchange.invalid) core.emit(stream, invalid);
  for (const message of exchange.others) inflight.receive(message);
  await host.hear(exchange.others, principal);
  for (const request of exchange.requests) {
    if (request.method === "initialize") {
      core.emit(
        stream,
        core.state !== null
          ? errorMessage(request.id, { code: INVALID_REQUEST, message: "Invalid Request: the session is already initialized" })
          : host.initialize(request, owner),
      );
    } else if (core.state === null) {
      core.emit(stream, errorMessage(request.id, { code: INVALID_REQUEST, message: "Invalid Request: send initialize first" }));
    } else {
      inflight.start(stream, request, principal);
    }
  }
  return accepted();
}
