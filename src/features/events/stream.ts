/**
 * `events/stream` (SEP-3415 "Push-Based Delivery"): a bad subscription is answered with a JSON-RPC
 * error and no stream; otherwise an SSE stream whose first message is `notifications/events/active`,
 * then the events, with `notifications/events/heartbeat {cursor}` as a `data:` frame whenever the
 * stream is quiet for `heartbeatMs`. Every notification carries the request's id as its subscription id.
 * An emitted type's stream is held here while its events object sleeps behind a hibernatable socket
 * (src/platform/held-stream.ts); an upstream-backed type's is driven here by the author's `poll`.
 */
import { INTERNAL_ERROR, INVALID_PARAMS, RpcError } from "../../jsonrpc/errors";
import type { RequestId } from "../../jsonrpc/messages";
import type { StreamCall } from "../../kernel/feature";
import { clientDeclares } from "../../mcp/definition/extensions";
import { holdStream, upgradeInit } from "../../platform/held-stream";
import { json } from "../../wire/json";
import { errorOf, refusalRow, type Refusal } from "../../wire/refusals";
import { encodeSseEvent } from "../../wire/sse";
import {
  cursorOf,
  EVENTS_STREAM_URL,
  HEADER_EVENTS_OPEN,
  streamFrame,
  SUBSCRIPTION_ID_KEY,
  type StreamOpen,
} from "../../../durable-objects/events/contract";
import { maxAgeOf, EVENTS_EXTENSION, type EventRegistry } from "./registry";
import { streamUpstream } from "./upstream-stream";

/** Response header the 2026-07-28 transport asks for on streams: proxies must not buffer. */
const SSE_EXTRA_HEADERS = { "X-Accel-Buffering": "no" };
/**
 * The events object keeps a stream's request id on its socket (an attachment holds at most 16,384 bytes, the
 * arguments' share included) after it travelled in a header: a string id is refused past this many characters.
 */
const MAX_REQUEST_ID_CHARS = 1_024;

const encoder = new TextEncoder();

/** A notification of an events stream as the bytes of its SSE frame (the frame is the contract's `streamFrame`). */
export function notificationFrame(method: string, params: Record<string, unknown>, id: RequestId): Uint8Array {
  return encoder.encode(streamFrame(method, params, id));
}

/** The stream's final result, sent when the server ends it (SEP-3415: `resultType` on 2026-07-28). */
export function finalResultFrame(id: RequestId, era: "2025" | "2026"): Uint8Array {
  const result: Record<string, unknown> = { _meta: { [SUBSCRIPTION_ID_KEY]: id } };
  if (era === "2026") result.resultType = "complete";
  return encodeSseEvent(JSON.stringify({ jsonrpc: "2.0", id, result }));
}

/** The JSON-RPC error answering a request that opens no stream. */
function errorResponse(id: RequestId, error: RpcError, status = 200): Response {
  const body =
    error.data === undefined
      ? { code: error.code, message: error.message }
      : { code: error.code, message: error.message, data: error.data };
  return json({ jsonrpc: "2.0", id, error: body }, status);
}

/** The gate every events method has: the client declared the extension (the refusal table's row for each era). */
function undeclared<Env>(call: StreamCall<Env>): Response | undefined {
  if (clientDeclares(call.clientCapabilities, EVENTS_EXTENSION)) return undefined;
  const refusal: Refusal =
    call.era === "2026"
      ? {
          reason: "missing-client-capability",
          required: { extensions: { [EVENTS_EXTENSION]: {} } },
          detail: `events/stream belongs to the "${EVENTS_EXTENSION}" extension; declare it in _meta["io.modelcontextprotocol/clientCapabilities"].extensions`,
        }
      : { reason: "extension-not-negotiated", method: "events/stream", extension: EVENTS_EXTENSION };
  const row = refusalRow(refusal);
  return json({ jsonrpc: "2.0", id: call.id, error: errorOf(row) }, row.status, row.headers);
}

export async function streamLane<Env>(registry: EventRegistry<Env>, call: StreamCall<Env>): Promise<Response> {
  const refused = undeclared(call);
  if (refused) return refused;
  if (typeof call.id === "string" && call.id.length > MAX_REQUEST_ID_CHARS) {
    const message = `Invalid params: the request id is ${call.id.length} characters long; an events/stream request's id may be at most ${MAX_REQUEST_ID_CHARS}`;
    return errorResponse(call.id, new RpcError(INVALID_PARAMS, message));
  }
  try {
    const type = registry.find(call.params, "push");
    const args = await registry.arguments(type, call.params);
    const maxAgeMs = maxAgeOf(call.params);
    if (type.poll) {
      const { heartbeatMs, maxEventsPerPoll } = registry.options;
      const cursor = registry.upstreamCursor(call.params);
      // Awaited here: the first round's RpcError is this request's error (no stream).
      return await streamUpstream(type, { call, args, cursor, maxAgeMs, heartbeatMs, maxEvents: maxEventsPerPoll });
    }
    const open: StreamOpen = { id: call.id, name: type.name, arguments: args, after: registry.position(call.params) };
    if (maxAgeMs !== undefined) open.since = Date.now() - maxAgeMs;
    return await holdEmitted(registry, call, open);
  } catch (error) {
    if (error instanceof RpcError) return errorResponse(call.id, error);
    throw error;
  }
}

/**
 * An emitted type's stream: the events object answers the upgrade and sends `active`, the replay
 * and each emit; this invocation relays them, follows the cursor they carry and writes the
 * heartbeat with it when the stream is quiet, so the object sleeps while nothing happens.
 */
async function holdEmitted<Env>(registry: EventRegistry<Env>, call: StreamCall<Env>, open: StreamOpen): Promise<Response> {
  const stub = registry.object(call.env, open.name);
  const answer = await stub.fetch(
    EVENTS_STREAM_URL,
    upgradeInit({ method: "GET", headers: { [HEADER_EVENTS_OPEN]: JSON.stringify(open) } }),
  );
  let cursor = open.after === null ? null : cursorOf(open.after);
  return holdStream(answer, {
    keepAliveMs: registry.options.heartbeatMs,
    keepAliveFrame: () => notificationFrame("notifications/events/heartbeat", { cursor }, call.id),
    onFrame: (frame) => {
      cursor = cursorIn(frame) ?? cursor;
    },
    awaitFirst: {
      refusal: () =>
        errorResponse(call.id, new RpcError(INTERNAL_ERROR, "Internal error: the events stream was not confirmed in time; retry")),
    },
    last: finalResultFrame(call.id, call.era),
    headers: SSE_EXTRA_HEADERS,
  });
}

/** The cursor an `active` or `event` notification frame carries (`data: {...}` from the events object). */
function cursorIn(frame: string): string | undefined {
  const start = frame.indexOf("data: ");
  if (start < 0) return undefined;
  try {
    const message = JSON.parse(frame.slice(start + 6)) as { params?: { cursor?: unknown } };
    return typeof message.params?.cursor === "string" ? message.params.cursor : undefined;
  } catch {
    return undefined;
  }
}
