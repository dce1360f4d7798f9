/**
 * How a tool declares that it may run as a task (the Tasks extension, ext-tasks): the definition
 * side, part of the core's tool definitions. Running tasks is src/features/tasks' (plugged in through the
 * dispatch context's `tasks` seam) and the task object's.
 */
import type { InteractiveContext } from "./context";

/** Whether a tool may run as a task: "optional" (when the client declared the extension) or "required". */
export type TaskSupport = "optional" | "required";

export interface TaskToolOptions {
  support: TaskSupport;
  /** How long the task and its result are kept after creation (default: the edge's `tasks.ttlMs`). */
  ttlMs?: number;
  /** Suggested polling interval sent to clients (default: the edge's `tasks.pollIntervalMs`). */
  pollIntervalMs?: number;
  /**
   * When the task's object restarts mid-run, run the handler again from the top, replaying the
   * answers the client already gave (same asks in the same order get the same answers). Only
   * for handlers whose work before the last ask is safe to repeat. Default false: the task
   * fails with a stored -32603 error instead.
   */
  resumable?: boolean;
  /**
   * Input gathered before the task exists: runs in the Worker when the client chose a task, and
   * its `ctx.elicit`/`ctx.sample` are 2026-07-28 multi round-trip asks (the call answers
   * `input_required` until they are answered). What it returns reaches the task's handler as
   * `ctx.gathered`. Its context is an interactive one; keep side effects out of it (it runs once per round).
   */
  gather?: (args: Record<string, unknown>, ctx: InteractiveContext<never>) => Promise<Record<string, unknown>>;
}

/** What a tool's definition keeps (ToolConfig.task, resolved). */
export type TaskToolSettings = Required<Pick<TaskToolOptions, "support" | "resumable">> &
  Pick<TaskToolOptions, "ttlMs" | "pollIntervalMs" | "gather">;

export function resolveTaskOption(name: string, option: TaskSupport | TaskToolOptions | undefined): TaskToolSettings | undefined {
  if (option === undefined) return undefined;
  const o: TaskToolOptions = typeof option === "string" ? { support: option } : option;
  if (o.support !== "optional" && o.support !== "required") throw new TypeError(`tool "${name}": task support is "optional" or "required"`);
  for (const key of ["ttlMs", "pollIntervalMs"] as const) {
    const v = o[key];
    if (v !== undefined && (!Number.isSafeInteger(v) || v <= 0))
      throw new TypeError(`tool "${name}": task.${key} must be a positive integer`);
  }
  if (o.gather !== undefined && typeof o.gather !== "function") throw new TypeError(`tool "${name}": task.gather must be a function`);
  return { support: o.support, resumable: o.resumable ?? false, ttlMs: o.ttlMs, pollIntervalMs: o.pollIntervalMs, gather: o.gather };
}
