/**
 * What a task's record holds at its start and at its end, and the bounds on what a task keeps:
 * the record a `taskCreate` stores, the answers `tasks/update` stores (each bounded by
 * MAX_TASK_STORAGE_BYTES with the record and every ask), and the terminal state a run's outcome
 * writes (a result too large to keep fails the task as the call would have, -31003).
 */
import { LIMIT_EXCEEDED_2026 } from "../../src/jsonrpc/errors";
import type { CreateTaskInput, InputResponses, TaskReply } from "./contract";
import { jsonBytes, MAX_TASK_RECORD_BYTES, MAX_TASK_STORAGE_BYTES, type TaskRecord } from "./model";
import type { RunOutcome, TaskRun } from "./run";
import type { TaskStore } from "./task-store";

/** How long a task lives, how often its client should poll, and whether its tool may run again after a restart. */
export interface TaskSettings {
  ttlMs: number;
  pollIntervalMs: number;
  resumable: boolean;
}

/** The record of a new task, `working`, before its first run. */
export function newRecord(taskId: string, input: CreateTaskInput, settings: TaskSettings): TaskRecord {
  const now = new Date().toISOString();
  return {
    taskId,
    status: "working",
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: settings.ttlMs,
    pollIntervalMs: settings.pollIntervalMs,
    owner: input.principal?.subject ?? null,
    tool: input.tool,
    args: input.args,
    principal: input.principal,
    clientKey: input.clientKey,
    clientCapabilities: input.clientCapabilities,
    meta: input.requestMeta,
    gathered: input.gathered,
    request: input.request,
    traceparent: input.traceparent,
    protocolVersion: input.protocolVersion,
    resumable: settings.resumable,
    attempt: 0,
    cancelRequested: false,
  };
}

/** Bytes a task keeps with `record`: the record and every ask and answer. */
export function storedBytes(record: TaskRecord | undefined, store: TaskStore): number {
  return (record ? jsonBytes(record) : 0) + store.askBytes();
}

/**
 * Stores each answer to an outstanding ask and hands it to the run; a refusal when an answer would
 * make the task keep more than MAX_TASK_STORAGE_BYTES (answers before it are kept).
 */
export function updateTask<Env>(
  store: TaskStore,
  responses: InputResponses,
  task: { storedBytes(): number; run: TaskRun<Env> | undefined },
): TaskReply | undefined {
  for (const [key, answer] of Object.entries(responses)) {
    const json = JSON.stringify(answer);
    if (task.storedBytes() + new TextEncoder().encode(json).byteLength > MAX_TASK_STORAGE_BYTES) {
      const message = `tasks/update: the answer for "${key.slice(0, 100)}" would make the task keep more than ${MAX_TASK_STORAGE_BYTES} bytes`;
      return { ok: false, error: { code: LIMIT_EXCEEDED_2026, message } };
    }
    if (!store.answer(key, json)) continue;
    task.run?.deliver(key, answer);
  }
  return undefined;
}

/** Writes a run's outcome into `r` (its terminal state); `bytesWith` measures what the task would keep with a result. */
export function finalState(r: TaskRecord, outcome: RunOutcome, bytesWith: (record: TaskRecord) => number): void {
  r.status = outcome.status;
  r.lastUpdatedAt = new Date().toISOString();
  const withResult = outcome.status === "completed" ? { ...r, result: outcome.result } : undefined;
  if (withResult && (jsonBytes(withResult) > MAX_TASK_RECORD_BYTES || bytesWith(withResult) > MAX_TASK_STORAGE_BYTES)) {
    // Too large to store means too large to serve: the task fails as the call would have (-31003).
    r.status = "failed";
    r.error = {
      code: LIMIT_EXCEEDED_2026,
      message: `The result is larger than a task can keep (${MAX_TASK_RECORD_BYTES} bytes of JSON in its record, ${MAX_TASK_STORAGE_BYTES} bytes with its asks and answers)`,
    };
    r.statusMessage = "The result was too large to keep";
  } else if (outcome.status === "completed") {
    r.result = outcome.result;
    delete r.statusMessage;
  } else {
    r.statusMessage = outcome.statusMessage;
    if (outcome.status === "failed") r.error = outcome.error;
  }
}
