/**
 * The task options resolved, every default filled in and each value checked: by the tasks feature when
 * it makes its object class (createMcpEdge with `tasks()`, or the deprecated `taskObject(edge)`), so an
 * edge without tasks carries none of it. A bad value is a TypeError naming the option.
 */
import type { ResolvedTaskOptions, TaskOptions } from "../../kernel/options";

/** `tasks.maxInFlightPerClient` unless set: well above what one agent runs at once, well below a flood. */
export const DEFAULT_MAX_TASKS_IN_FLIGHT = 32;

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) throw new TypeError(`mcp-edge option tasks.${name} must be a positive integer`);
  return value;
}

export function resolveTaskOptions(o: TaskOptions): ResolvedTaskOptions {
  return {
    ttlMs: positiveInteger("ttlMs", o.ttlMs, 60 * 60_000),
    pollIntervalMs: positiveInteger("pollIntervalMs", o.pollIntervalMs, 2000),
    watchdogMs: positiveInteger("watchdogMs", o.watchdogMs, 60_000),
    maxInFlightPerClient: positiveInteger("maxInFlightPerClient", o.maxInFlightPerClient, DEFAULT_MAX_TASKS_IN_FLIGHT),
  };
}
