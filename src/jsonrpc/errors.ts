/**
 * JSON-RPC error codes and the one error class the runtime throws for protocol failures.
 * Every server-defined code (-32000..-32099) is named here once and never reused for
 * another meaning.
 */

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;

/** Transport-level refusal (bad headers, Origin, version, missing session id). */
export const TRANSPORT_ERROR = -32000;
/** The Mcp-Session-Id names no live session (unknown, expired or terminated). */
export const SESSION_NOT_FOUND = -32001;
/** A server-to-client request got no answer in time. */
export const REQUEST_TIMEOUT = -32008;
/** A limit (body, message, streams, pending requests) was exceeded (2025 era; the 2026 lane answers LIMIT_EXCEEDED_2026). */
export const LIMIT_EXCEEDED = -32003;
/**
 * A limit was exceeded, on the 2026-07-28 lane. That revision (basic/index.mdx "Error Codes")
 * says new implementations SHOULD NOT use -32000..-32019 and that new codes SHOULD be allocated
 * outside the JSON-RPC reserved range -32768..-32000, so this one is: its last digits mirror the
 * 2025 era's -32003. The HTTP status says which kind (413 too large, 429 too many, 200 in a result).
 */
export const LIMIT_EXCEEDED_2026 = -31003;

/**
 * The code a 2026-07-28 client gets for `code`, the one place that decides it (that revision
 * reserves -32000..-32019 for legacy use): the limit code becomes LIMIT_EXCEEDED_2026, and a
 * client's malformed answer to an ask (-32007 on the 2025 era) is invalid params of its retry.
 */
export function code2026(code: number): number {
  if (code === LIMIT_EXCEEDED) return LIMIT_EXCEEDED_2026;
  if (code === AUTHORIZATION_REQUIRED) return AUTHORIZATION_REQUIRED_2026;
  if (code === CLIENT_ERROR) return INVALID_PARAMS;
  return code;
}
/** The request was cancelled (client `notifications/cancelled` or session termination). */
export const REQUEST_CANCELLED = -32004;
/** The session object restarted while the request was in flight; its work was lost. */
export const SESSION_RESTARTED = -32005;
/** A handler asked for something the connection cannot carry (no session, missing client capability). */
export const CAPABILITY_UNAVAILABLE = -32006;
/** The client answered a server-initiated request with a JSON-RPC error. */
export const CLIENT_ERROR = -32007;
/**
 * A handler asked the client to sign in again or for more scope (`reauthenticate()`, `needScopes()`)
 * after the HTTP status was sent (a session's SSE answer): `data` carries the challenge the 401/403
 * would have (docs/auth.md "Step-up and re-authentication"). Before that, the answer is the HTTP 401/403 itself.
 */
export const AUTHORIZATION_REQUIRED = -32010;
/** The same, on the 2026-07-28 lane (outside the range that revision reserves, as LIMIT_EXCEEDED_2026). */
export const AUTHORIZATION_REQUIRED_2026 = -31010;
/** MCP resources/read: resource not found (the code the spec names, 2025-06-18 "Resources" > Error Handling). */
export const RESOURCE_NOT_FOUND = -32002;

/** 2026-07-28: an HTTP header is missing or disagrees with the body (HeaderMismatch). */
export const HEADER_MISMATCH = -32020;
/**
 * 2026-07-28: the request needs a client capability (or extension) it did not declare (MissingRequiredClientCapability);
 * `data.requiredCapabilities` names it (also ext-tasks "Capability Negotiation").
 */
export const MISSING_CLIENT_CAPABILITY = -32021;
/** 2026-07-28: the request's protocol version is not served here (UnsupportedProtocolVersion). */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/**
 * The Events extension's errors (SEP-3415 "Error Codes", provisional: the next five of the range
 * 2026-07-28 allocates after -32022; the design sketch and the conformance draft say -32011..-32015).
 * A change of numbering is one line each, here; docs/events.md "Errors" says which texts differ.
 */
export const EVENTS_NOT_FOUND = -32023;
export const EVENTS_FORBIDDEN = -32024;
export const EVENTS_RESOURCE_EXHAUSTED = -32025;
export const EVENTS_UNSUPPORTED = -32026;
export const EVENTS_CALLBACK_ENDPOINT_ERROR = -32027;

/** A protocol failure with a JSON-RPC code; the message is shown to the client, so keep internals out. */
export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "RpcError";
    this.code = code;
    this.data = data;
  }

  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}
