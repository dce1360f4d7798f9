/**
 * The hub's refusals of a listen stream (the hub() feature and its object): rows of the refusal table
 * (refusals.ts) kept beside it, so a Worker without the hub bundles none of them. docs/errors.md's rows
 * are checked against these.
 */
import { INTERNAL_ERROR, LIMIT_EXCEEDED_2026 } from "../jsonrpc/errors";
import type { RefusalRow } from "./refusals";

/**
 * Over `listen.maxStreams` (or, `perClient`, `listen.maxStreamsPerClient`). subscriptions/listen exists only on
 * 2026-07-28: that era's limit code (errors.ts). A slot comes back the moment a stream closes: retrying a second
 * later is reasonable.
 */
export function tooManyListenStreamsRow(limit: number, perClient: boolean): RefusalRow {
  return {
    status: 429,
    code: LIMIT_EXCEEDED_2026,
    message: perClient
      ? `Too many listen streams for this client (limit ${limit}); close one, or retry later`
      : `Too many listen streams on this server (limit ${limit}); close one, or retry later`,
    headers: { "Retry-After": "1" },
  };
}

/**
 * The hub opened a listen stream's socket but did not acknowledge it in time (src/platform/held-stream.ts): the
 * shard is stuck or failed the stream's open; nothing was written, and another try may reach it restarted.
 */
export function streamNotAcknowledgedRow(seconds: number): RefusalRow {
  return {
    status: 503,
    code: INTERNAL_ERROR,
    message: `Service Unavailable: the listen stream was not acknowledged within ${seconds} s; retry`,
    headers: { "Retry-After": "1" },
  };
}
