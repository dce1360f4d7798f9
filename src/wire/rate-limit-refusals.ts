/**
 * The rateLimits() feature's refusal (src/features/rate-limits): a row of the refusal table (refusals.ts)
 * kept beside it, so a Worker without rate limits bundles none of it. docs/errors.md's row is checked against it.
 */
import { LIMIT_EXCEEDED } from "../jsonrpc/errors";
import type { RefusalRow } from "./refusals";

/** Over a rate limit rule: nothing ran; `retryAfterSeconds` is the rule's period. */
export function rateLimitedRow(retryAfterSeconds: number): RefusalRow {
  return {
    status: 429,
    code: LIMIT_EXCEEDED,
    message: `Too many requests: this client reached its rate limit; retry after ${retryAfterSeconds} seconds`,
    data: { retryAfterSeconds },
    headers: { "Retry-After": String(retryAfterSeconds) },
  };
}
