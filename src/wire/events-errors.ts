/**
 * The Events extension's errors (SEP-3415 "Error Codes"), beside the refusal table (refusals.ts) and
 * shaped like it: a tagged reason mapped to its JSON-RPC code, message and `data` in one exhaustive
 * `switch`. Kept apart so a Worker that does not serve events bundles none of it. The numbers are
 * the constants of src/jsonrpc/errors.ts (one line each); docs/errors.md's Events rows are checked
 * against this table (test/http/refusal-table.test.ts). Answered 200 with the request's id.
 */
import {
  EVENTS_CALLBACK_ENDPOINT_ERROR,
  EVENTS_FORBIDDEN,
  EVENTS_NOT_FOUND,
  EVENTS_RESOURCE_EXHAUSTED,
  EVENTS_UNSUPPORTED,
  RpcError,
} from "../jsonrpc/errors";

/** The `lastError` categories a webhook endpoint's failure is reported by (SEP-3415; never the endpoint's own output). */
type EventsCallbackFailure = "connection_refused" | "timeout" | "tls_error" | "http_4xx" | "http_5xx" | "challenge_failed";

export type EventsFailure =
  /** An unknown event name (`kind: "event"`), or no webhook subscription with the key (`kind: "subscription"`). */
  | { reason: "not-found"; kind: "event" | "subscription"; name: string }
  | { reason: "forbidden"; detail: string; data?: Record<string, unknown> }
  | { reason: "resource-exhausted"; limit: string; max?: number }
  /** `feature`: "deliveryMode" (`value` the mode), or "inputSchema"/"payloadSchema" (`reason: "schema_changed"`). */
  | { reason: "unsupported"; detail: string; data: Record<string, unknown> }
  | { reason: "callback-endpoint"; detail: string; category: EventsCallbackFailure };

/** The JSON-RPC error of one Events failure. */
export function eventsErrorOf(f: EventsFailure): { code: number; message: string; data: Record<string, unknown> } {
  switch (f.reason) {
    case "not-found":
      return {
        code: EVENTS_NOT_FOUND,
        message:
          f.kind === "event"
            ? `NotFound: this server offers no event named "${f.name.slice(0, 100)}" (events/list names them)`
            : `NotFound: no webhook subscription to "${f.name.slice(0, 100)}" has this delivery URL and these arguments`,
        data: { kind: f.kind },
      };
    case "forbidden":
      return { code: EVENTS_FORBIDDEN, message: `Forbidden: ${f.detail}`, data: f.data ?? { reason: f.detail } };
    case "resource-exhausted":
      return {
        code: EVENTS_RESOURCE_EXHAUSTED,
        message: `ResourceExhausted: the limit on ${f.limit} was reached${f.max === undefined ? "" : ` (at most ${f.max})`}`,
        data: f.max === undefined ? { limit: f.limit } : { limit: f.limit, max: f.max },
      };
    case "unsupported":
      return { code: EVENTS_UNSUPPORTED, message: `Unsupported: ${f.detail}`, data: f.data };
    case "callback-endpoint":
      return { code: EVENTS_CALLBACK_ENDPOINT_ERROR, message: `CallbackEndpointError: ${f.detail}`, data: { reason: f.category } };
  }
}

/** The same, to throw from a handler. */
export function eventsError(f: EventsFailure): RpcError {
  const error = eventsErrorOf(f);
  return new RpcError(error.code, error.message, error.data);
}
