/**
 * The 2024-11-05 HTTP+SSE transport's refusals (the `legacySse()` feature's Worker half,
 * src/features/sessions/legacy-sse-worker.ts, and its half in the session object,
 * durable-objects/sessions/legacy-transport.ts): rows of the refusal table (refusals.ts) kept beside
 * it, so a Worker without the transport bundles none of them.
 */
import { SESSION_NOT_FOUND, TRANSPORT_ERROR } from "../jsonrpc/errors";
import type { RefusalRow } from "./refusals";

/** A POST to the messages path without its `sessionId` query parameter. */
export const LEGACY_SESSION_ID_REQUIRED: RefusalRow = {
  status: 400,
  code: TRANSPORT_ERROR,
  message: "Bad Request: the sessionId query parameter is required",
};

/** A `sessionId` naming no session of this transport, or one whose stream is gone (that revision has no resumption). */
export const LEGACY_SESSION_NOT_FOUND: RefusalRow = {
  status: 404,
  code: SESSION_NOT_FOUND,
  message: "Session not found: open a new stream with GET /sse",
};

/** The stream of a session object that is already a session (of either transport), or was terminated. */
export const LEGACY_STREAM_CONFLICT: RefusalRow = {
  status: 409,
  code: TRANSPORT_ERROR,
  message: "Conflict: this session's legacy stream was already opened",
};
