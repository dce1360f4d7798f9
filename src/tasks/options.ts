/** Task settings a deployment chooses (`createMcpEdge(server, { tasks })`), and their defaults. */

export interface TaskOptions {
  /** How long a task and its result are kept after creation, unless its tool says otherwise (default 1 h). */
  ttlMs?: number;
  /** The polling interval suggested to clients (default 2 s). */
  pollIntervalMs?: number;
  /**
   * How often a task that is not finished wakes its object to check its runner (default 60 s):
   * a runner lost in a restart is noticed within this time even if nobody polls.
   */
  watchdogMs?: number;
  /**
   * Tasks one client may have in flight (not yet completed, failed or cancelled) at once (default
   * 32); one more is refused with HTTP 429, Retry-After and -31003. The client is the principal's
   * subject with auth, else the CF-Connecting-IP address (src/http/client-key.ts).
   */
  maxInFlightPerClient?: number;
}

export type ResolvedTaskOptions = Required<TaskOptions>;

/** `tasks.maxInFlightPerClient` unless set: well above what one agent runs at once, well below a flood. */
export const DEFAULT_MAX_TASKS_IN_FLIGHT = 32;

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) throw new TypeError(`mcp-edge option tasks.${name} must be a positive integer`);
  return value;
}

export function resolveTaskOptions(o: TaskOptions = {}): ResolvedTaskOptions {
  return {
    ttlMs: positiveInteger("ttlMs", o.ttlMs, 60 * 60_000),
    pollIntervalMs: positiveInteger("pollIntervalMs", o.pollIntervalMs, 2000),
    watchdogMs: positiveInteger("watchdogMs", o.watchdogMs, 60_000),
    maxInFlightPerClient: positiveInteger("maxInFlightPerClient", o.maxInFlightPerClient, DEFAULT_MAX_TASKS_IN_FLIGHT),
  };
}
