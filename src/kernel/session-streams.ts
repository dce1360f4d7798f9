/**
 * How the Worker holds a 2025-era session's long-lived streams (the standalone GET and the
 * 2024-11-05 `/sse` stream; src/platform/held-stream.ts holds them): their byte bound, their CPU
 * budget, and their end at the token's expiry, each ending as the era lets a client come back. The
 * router's GET (src/http/router.ts) and the `legacySse()` feature's Worker half hold theirs so.
 */
import type { Principal } from "../mcp/definition/principal";
import type { HoldOptions } from "../platform/held-stream";
import type { ResolvedOptions } from "./options";
import { encodeSseComment } from "../wire/sse";

const encoder = new TextEncoder();

/**
 * A GET stream's client resumes with Last-Event-ID and the session's event log replays what it
 * missed: the stream ends with a `retry:` field (the WHATWG reconnection time), so an EventSource or
 * an SDK client comes back after `retryMs`. An `/sse` stream (2024-11-05) has no resumption: it just ends.
 */
export function sessionStreamHold(
  options: Pick<ResolvedOptions, "session" | "streamCpuBudgetMs">,
  principal: Principal | undefined,
  kind: "get" | "sse",
): HoldOptions {
  const { session } = options;
  const hold: HoldOptions = {
    keepAliveMs: session.keepAliveMs,
    maxBufferedBytes: session.maxBufferedBytes,
    cpuBudgetMs: options.streamCpuBudgetMs,
  };
  if (kind === "get") hold.resume = encoder.encode(`retry: ${session.retryMs}\n\n`);
  if (principal) {
    // Its grant was revoked (src/platform/end-streams.ts): a comment says so; a GET stream's client comes back and
    // gets 401 (its token no longer verifies), so it authorizes again.
    const reason = "authorization ended: the grant was revoked";
    hold.revoked = kind === "get" ? encoder.encode(`: ${reason}\nretry: ${session.retryMs}\n\n`) : encodeSseComment(reason);
  }
  if (principal?.expiresAt !== undefined) {
    hold.authorizedUntil = principal.expiresAt * 1000;
    // 2025 has no message for it: a comment says why (a person reading the stream sees it), and a GET
    // stream's client comes back with a fresh token (an expired one gets 401 and the client refreshes it).
    const reason = "authorization ended: the access token expired";
    hold.expired = kind === "get" ? encoder.encode(`: ${reason}\nretry: ${session.retryMs}\n\n`) : encodeSseComment(reason);
  }
  return hold;
}
