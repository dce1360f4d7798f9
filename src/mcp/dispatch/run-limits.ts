/**
 * How many handlers one POST may start, decided before any of them starts. Lane-neutral: the
 * Worker applies the per-request limit, the session object also its per-session room. Requests
 * beyond the limit are answered one by one with -32003 naming the limit; the others run.
 */
import { LIMIT_EXCEEDED } from "../../jsonrpc/errors";
import { errorMessage } from "../../jsonrpc/messages";
import type { Exchange } from "./exchange";

export interface RunLimits {
  /** Requests of one POST that may run (`maxRunsPerRequest`). */
  perRequest: number;
  /** Handlers the session may still start, when a session object runs them. */
  sessionRoom?: number;
  /** The session's limit, for the message. */
  perSession?: number;
}

/** The exchange with the requests that may run; the rest become per-item -32003 errors. */
export function limitRuns(exchange: Exchange, limits: RunLimits): Exchange {
  const room = Math.max(0, Math.min(limits.perRequest, limits.sessionRoom ?? Infinity));
  if (exchange.requests.length <= room) return exchange;
  const bySession = limits.sessionRoom !== undefined && limits.sessionRoom < limits.perRequest;
  const reason = bySession
    ? `this session already runs its limit of ${limits.perSession} handlers at once; retry when some finish`
    : `one request may start at most ${limits.perRequest} handlers; send the rest in another request`;
  const refused = exchange.requests.slice(room).map((r) => errorMessage(r.id, { code: LIMIT_EXCEEDED, message: `Not run: ${reason}` }));
  return { ...exchange, requests: exchange.requests.slice(0, room), invalid: [...exchange.invalid, ...refused] };
}
