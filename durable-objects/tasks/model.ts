/**
 * The Task model of the Tasks extension (ext-tasks "Tasks"): statuses, the terminal rule, the
 * stored record and the wire views built from it (`CreateTaskResult`, `tasks/get`'s DetailedTask,
 * `notifications/tasks`). Pure: the task object stores records; this file only shapes them.
 */
import type { RequestSnapshot } from "../../src/mcp/definition/request-info";
import type { Principal } from "../../src/auth/principal";
import type { ErrorObject } from "../../src/jsonrpc/messages";
import type { AnyVersion } from "../../src/mcp/definition/versions";
import type { RouteParams } from "../../src/wire/route-params";

/** A task's record (inputs, then its result) is one SQLite value: at most this many bytes of JSON. */
export const MAX_TASK_RECORD_BYTES = 2_000_000;
/** The creating call's arguments, capabilities and `_meta` together, so a result still fits beside them. */
export const MAX_TASK_INPUT_BYTES = 256 * 1024;
/** One ask or one answer (a stored row each). */
export const MAX_TASK_MESSAGE_BYTES = 1_000_000;
/** Asks outstanding at once in one task. */
export const MAX_OUTSTANDING_ASKS = 32;
/**
 * Everything one task keeps, together: its record (inputs, result) and every ask and answer it
 * stores. An ask, an answer or a result that would pass it is refused (-31003) or fails the task,
 * so a client holding `tasks.maxInFlightPerClient` tasks holds at most that many times this.
 */
export const MAX_TASK_STORAGE_BYTES = 4_000_000;

/** UTF-8 size of a value's JSON. */
export function jsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value) ?? "").byteLength;
}

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";
const TERMINAL: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.has(status);
}

/** ext-tasks state diagram: working <-> input_required, either -> terminal; terminal never changes. */
export function canTransition(from: TaskStatus): boolean {
  return !isTerminal(from);
}

/** One outstanding server-to-client request of a task (`inputRequests[key]`). */
export interface InputRequest {
  method: string;
  params: Record<string, unknown>;
}

/** Everything a task object stores about its task (one row). */
export interface TaskRecord {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  /** The principal's subject that created the task (null without auth): the only one who may see it. */
  owner: string | null;
  tool: string;
  args: Record<string, unknown>;
  principal?: Principal;
  /** The client whose in-flight slot this task holds until it is terminal (`tasks.maxInFlightPerClient`). */
  clientKey?: string;
  clientCapabilities: Record<string, unknown>;
  meta?: Record<string, unknown>;
  /** What the tool's `task.gather` returned before the task was created (MRTR rounds in the Worker). */
  gathered?: Record<string, unknown>;
  /** The creating request, as its handler reads it (`ctx.request`); credentials were never stored. */
  request?: RequestSnapshot;
  /** With tracing: the creating request's span, the parent of every run's span. */
  traceparent?: string;
  /** The revision of the request that created the task (2026-07-28: tasks are negotiated there only). */
  protocolVersion: AnyVersion;
  resumable: boolean;
  /** Runs started so far (a resumed task runs again): a run writes its outcome only while it is the current one. */
  attempt: number;
  cancelRequested: boolean;
  result?: Record<string, unknown>;
  error?: ErrorObject;
}

/** The Task fields every view shares. */
function taskFields(r: TaskRecord): Record<string, unknown> {
  const task: Record<string, unknown> = {
    taskId: r.taskId,
    status: r.status,
    createdAt: r.createdAt,
    lastUpdatedAt: r.lastUpdatedAt,
    ttlMs: r.ttlMs,
    pollIntervalMs: r.pollIntervalMs,
  };
  if (r.statusMessage !== undefined) task.statusMessage = r.statusMessage;
  return task;
}

/** `CreateTaskResult`: `resultType: "task"` and the task's seed state. */
export function createTaskResult(r: TaskRecord): Record<string, unknown> {
  return { resultType: "task", ...taskFields(r) };
}

/**
 * DetailedTask: the status-specific payload inlined (`inputRequests` while input_required,
 * `result` when completed, `error` when failed). Shared by `tasks/get` and `notifications/tasks`.
 */
function detailedTask(r: TaskRecord, inputRequests: Record<string, InputRequest>): Record<string, unknown> {
  const task = taskFields(r);
  switch (r.status) {
    case "input_required":
      task.inputRequests = inputRequests;
      break;
    case "completed":
      // The inlined result is the CallToolResult the call would have returned on 2026-07-28, so it
      // carries that era's `resultType` (the official requester decodes it as such a result).
      task.result = { resultType: "complete", ...(r.result ?? {}) };
      break;
    case "failed":
      task.error = r.error ?? { code: -32603, message: "Internal error" };
      break;
    case "working":
    case "cancelled":
      break;
  }
  return task;
}

/** `tasks/get` result: the DetailedTask with `resultType: "complete"` (its standard result shape). */
export function getTaskResult(r: TaskRecord, inputRequests: Record<string, InputRequest>): Record<string, unknown> {
  return { resultType: "complete", ...detailedTask(r, inputRequests) };
}

/** The `notifications/tasks` message for the task's current state (what tasks/get would return, without resultType). */
export function taskStatusNotification(
  r: TaskRecord,
  inputRequests: Record<string, InputRequest>,
): { method: "notifications/tasks"; params: Record<string, unknown> } {
  return { method: "notifications/tasks", params: detailedTask(r, inputRequests) };
}

/** A `notifications/tasks` message: `params` is the full DetailedTask, as tasks/get would return it. */
export interface TaskStatusNotification {
  method: "notifications/tasks";
  params: Record<string, unknown> & { taskId: string; status: string };
}

/** Who may hear of a task's status: its owner (null without auth), its route, and the trace it continues. */
export interface TaskAudience {
  owner: string | null;
  trace?: string;
  route?: RouteParams;
}
