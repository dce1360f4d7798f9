/**
 * The one refusal table: every HTTP-level refusal as a tagged reason mapped to its status,
 * JSON-RPC code and message (DESIGN.md "Errors", docs/errors.md "HTTP errors"). Guards, the router and the lanes build a
 * `Refusal` value and call `refuse`; no status number for a refusal is written anywhere else.
 * The `switch` has no `default`, so a new reason does not compile until it has a row.
 */
import {
  HEADER_MISMATCH,
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  LIMIT_EXCEEDED,
  METHOD_NOT_FOUND,
  MISSING_CLIENT_CAPABILITY,
  code2026,
  type PARSE_ERROR,
  SESSION_NOT_FOUND,
  TRANSPORT_ERROR,
  UNSUPPORTED_PROTOCOL_VERSION,
} from "../jsonrpc/errors";
import type { RequestId, ResponseMessage } from "../jsonrpc/messages";
import { json } from "./json";

export type Refusal =
  | { reason: "host-not-allowed"; host: string }
  | { reason: "origin-not-allowed" }
  | { reason: "unsupported-media-type" }
  | { reason: "not-acceptable"; types: readonly string[] }
  | { reason: "payload-too-large"; limit: number }
  /** The body is not JSON, or JSON but no valid message: the parser's own code and message. */
  | { reason: "unparsable"; code: typeof PARSE_ERROR | typeof INVALID_REQUEST | typeof INVALID_PARAMS; message: string }
  | { reason: "batch-unsupported"; version: string }
  | { reason: "initialize-in-batch" }
  | { reason: "unsupported-version-header"; value: string; supported: readonly string[] }
  | { reason: "session-id-required"; afterInitialize: boolean }
  | { reason: "session-not-found" }
  /** Without `allow`: a method the session object does not route (no Allow header, nothing to list). */
  | { reason: "method-not-allowed"; allow?: string }
  /** Without `endpoint`: an internal URL no object serves (only the Worker's own calls reach it). */
  | { reason: "not-found"; endpoint?: string }
  /** `reference`: the correlation id of the log line with the details, when one was written. */
  | { reason: "internal"; reference?: string }
  /** A deployment mistake (a missing binding): the message names the fix, never a bare "Internal error". */
  | { reason: "misconfigured"; message: string; data: Record<string, unknown> }
  // Answers of the session object (durable-objects/): the same table, so a status is written once.
  | { reason: "too-many-streams"; limit: number; hint: "wait" | "close" }
  | { reason: "unknown-last-event-id" }
  | { reason: "events-trimmed"; lastEventId: string; kept: number }
  /** `tasks.maxInFlightPerClient`: the client's tasks in flight; `data` carries both figures for the client. */
  | { reason: "too-many-tasks"; limit: number; retryAfterSeconds: number }
  // 2026-07-28 (basic/index.mdx "Error Codes", transports/streamable-http.mdx "Server Validation").
  | { reason: "header-mismatch"; message: string }
  /** `detail` replaces the list of missing capability names when a plain list would not say enough. */
  | { reason: "missing-client-capability"; required: Record<string, unknown>; detail?: string }
  | { reason: "unsupported-protocol-version"; requested: string; supported: readonly string[] }
  | { reason: "invalid-envelope"; message: string }
  | { reason: "method-not-found-2026"; method: string }
  /**
   * A 2025-era request for a method of an extension (`defineMethod(…, { extension })`) its session's client did not
   * declare in `initialize` (or without a session: nothing was negotiated). On 2026-07-28 the same is
   * "missing-client-capability": that client declares capabilities per request and can retry.
   */
  | { reason: "extension-not-negotiated"; method: string; extension: string }
  | { reason: "batch-with-claim" };

export interface RefusalRow {
  status: number;
  code: number;
  message: string;
  data?: unknown;
  headers?: Record<string, string>;
}

/** The row for one refusal. */
export function refusalRow(r: Refusal): RefusalRow {
  switch (r.reason) {
    case "host-not-allowed":
      return {
        status: 403,
        code: TRANSPORT_ERROR,
        message: `Forbidden: host "${r.host}" is not an allowed host; add it to the allowedHosts option of createMcpEdge or to the MCP_ALLOWED_HOSTS variable`,
      };
    case "origin-not-allowed":
      return { status: 403, code: TRANSPORT_ERROR, message: "Forbidden: Origin is not allowed (configure allowedOrigins)" };
    case "unsupported-media-type":
      return { status: 415, code: TRANSPORT_ERROR, message: "Unsupported Media Type: Content-Type must be application/json" };
    case "not-acceptable":
      return { status: 406, code: TRANSPORT_ERROR, message: `Not Acceptable: the Accept header must include ${r.types.join(" and ")}` };
    case "payload-too-large":
      return { status: 413, code: LIMIT_EXCEEDED, message: `Payload Too Large: the body exceeds ${r.limit} bytes` };
    case "unparsable":
      return { status: 400, code: r.code, message: r.message };
    case "batch-unsupported":
      return {
        status: 400,
        code: INVALID_REQUEST,
        message: `Invalid Request: JSON-RPC batches are not supported in protocol version ${r.version}`,
      };
    case "initialize-in-batch":
      return { status: 400, code: INVALID_REQUEST, message: "Invalid Request: initialize must not be part of a batch" };
    case "unsupported-version-header":
      return {
        status: 400,
        code: TRANSPORT_ERROR,
        message: `Bad Request: unsupported MCP-Protocol-Version "${r.value.slice(0, 40)}" (supported: ${r.supported.join(", ")})`,
      };
    case "session-id-required":
      return {
        status: 400,
        code: TRANSPORT_ERROR,
        message: `Bad Request: the Mcp-Session-Id header is required${r.afterInitialize ? " after initialize" : ""}`,
      };
    case "session-not-found":
      return {
        status: 404,
        code: SESSION_NOT_FOUND,
        message: "Session not found: it expired or was terminated; send a new initialize request",
      };
    case "method-not-allowed":
      if (r.allow === undefined) return { status: 405, code: TRANSPORT_ERROR, message: "Method Not Allowed" };
      return { status: 405, code: TRANSPORT_ERROR, message: `Method Not Allowed (allowed: ${r.allow})`, headers: { Allow: r.allow } };
    case "not-found":
      if (r.endpoint === undefined) return { status: 404, code: TRANSPORT_ERROR, message: "Not Found" };
      return { status: 404, code: TRANSPORT_ERROR, message: "Not Found: the MCP endpoint is " + r.endpoint };
    case "internal":
      if (r.reference === undefined) return { status: 500, code: INTERNAL_ERROR, message: "Internal error" };
      return { status: 500, code: INTERNAL_ERROR, message: "Internal error", data: { reference: r.reference } };
    case "misconfigured":
      return { status: 500, code: INTERNAL_ERROR, message: r.message, data: r.data };
    case "too-many-streams":
      return {
        status: 429,
        code: LIMIT_EXCEEDED,
        message: `Too many open streams on this session (limit ${r.limit}); ${r.hint === "wait" ? "wait for one to finish" : "close one first"}`,
      };
    case "unknown-last-event-id":
      return { status: 400, code: TRANSPORT_ERROR, message: "Bad Request: Last-Event-ID does not name an event of this session's streams" };
    case "events-trimmed":
      return {
        status: 400,
        code: TRANSPORT_ERROR,
        message: `Bad Request: events after ${r.lastEventId} were trimmed (at most ${r.kept} are kept per stream); they cannot be replayed`,
      };
    case "too-many-tasks":
      return {
        status: 429,
        code: LIMIT_EXCEEDED,
        message: `Too many tasks in flight for this client (limit ${r.limit}); retry when one of them has finished`,
        data: { limit: r.limit, retryAfterSeconds: r.retryAfterSeconds },
        headers: { "Retry-After": String(r.retryAfterSeconds) },
      };
    case "header-mismatch":
      return { status: 400, code: HEADER_MISMATCH, message: `Header mismatch: ${r.message}` };
    case "missing-client-capability":
      return {
        status: 400,
        code: MISSING_CLIENT_CAPABILITY,
        message: `Missing required client capability: ${r.detail ?? Object.keys(r.required).join(", ")}`,
        data: { requiredCapabilities: r.required },
      };
    case "unsupported-protocol-version":
      return {
        status: 400,
        code: UNSUPPORTED_PROTOCOL_VERSION,
        message: "Unsupported protocol version",
        data: { supported: [...r.supported], requested: r.requested.slice(0, 40) },
      };
    case "invalid-envelope":
      return { status: 400, code: INVALID_PARAMS, message: `Invalid params: ${r.message}` };
    case "method-not-found-2026":
      // 2026-07-28 Streamable HTTP "Protocol Version Header": an unimplemented method is 404 with -32601.
      return { status: 404, code: METHOD_NOT_FOUND, message: `Method not found: ${r.method.slice(0, 100)}` };
    case "extension-not-negotiated":
      return {
        status: 200,
        code: METHOD_NOT_FOUND,
        message: `Method not found: ${r.method.slice(0, 100)} belongs to the "${r.extension}" extension, which this session's client did not declare in initialize's capabilities.extensions`,
        data: { requiredCapabilities: { extensions: { [r.extension]: {} } } },
      };
    case "batch-with-claim":
      return { status: 400, code: INVALID_REQUEST, message: "Invalid Request: a 2026-07-28 request must not be part of a batch" };
  }
}

/**
 * A refusal as its row: a reason of this table, or a feature's own row, built beside its wing's code
 * (src/wire/auth-refusals.ts, hub-refusals.ts, legacy-sse-refusals.ts, rate-limit-refusals.ts) so a Worker without that
 * feature bundles none of its rows. Either way the status and code are written once.
 */
function rowOf(r: Refusal | RefusalRow): RefusalRow {
  return "status" in r ? r : refusalRow(r);
}

export function errorOf(row: RefusalRow): { code: number; message: string; data?: unknown } {
  return row.data === undefined ? { code: row.code, message: row.message } : { code: row.code, message: row.message, data: row.data };
}

/** The HTTP answer for a refusal: a JSON-RPC error body (id null unless the request's id is known). */
export function refuse(r: Refusal | RefusalRow, id: RequestId | null = null, headers: Record<string, string> = {}): Response {
  const row = rowOf(r);
  return json({ jsonrpc: "2.0", id, error: errorOf(row) }, row.status, { ...row.headers, ...headers });
}

/**
 * A refusal answering a 2026-07-28 request: its id when the body had one, else no `id` (that
 * schema has no `id: null`); a limit's code is that era's (LIMIT_EXCEEDED_2026, errors.ts).
 */
export function refuse2026(r: Refusal | RefusalRow, id: RequestId | null | undefined): Response {
  const legacy = rowOf(r);
  const row = { ...legacy, code: code2026(legacy.code) };
  const body = id === null || id === undefined ? { jsonrpc: "2.0", error: errorOf(row) } : { jsonrpc: "2.0", id, error: errorOf(row) };
  return json(body, row.status, row.headers);
}

/**
 * The status and headers of a JSON answer carrying a handler's response: answerStatus, except an
 * error carrying `data.retryAfterSeconds` (a per-client cap, "too-many-tasks") is its row's 429
 * with Retry-After, so the client's HTTP stack sees the back-off too.
 */
export function answerHttp(response: ResponseMessage): { status: number; headers: Record<string, string> | undefined } {
  const data =
    response.kind === "error" ? (response.error.data as { limit?: unknown; retryAfterSeconds?: unknown } | undefined) : undefined;
  if (typeof data?.retryAfterSeconds === "number" && typeof data.limit === "number") {
    const row = refusalRow({ reason: "too-many-tasks", limit: data.limit, retryAfterSeconds: data.retryAfterSeconds });
    return { status: row.status, headers: row.headers };
  }
  return { status: answerStatus(response), headers: undefined };
}

/**
 * The status of a JSON answer carrying a handler's response: a missing client capability is
 * refused with its row's status even when a handler found it (basic/index.mdx "Per-request
 * protocol fields"); everything else is 200.
 */
function answerStatus(response: ResponseMessage): number {
  if (response.kind === "error" && response.error.code === MISSING_CLIENT_CAPABILITY)
    return refusalRow({ reason: "missing-client-capability", required: {} }).status;
  return 200;
}
