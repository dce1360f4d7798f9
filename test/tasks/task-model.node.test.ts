/** The Task shapes on the wire (ext-tasks "Tasks"): one view per status, and the terminal rule. */
import { describe, expect, it } from "vitest";
import {
  canTransition,
  createTaskResult,
  getTaskResult,
  isTerminal,
  taskStatusNotification,
  type TaskRecord,
  type TaskStatus,
} from "../../durable-objects/tasks/model";

const base: TaskRecord = {
  taskId: "t1",
  status: "working",
  createdAt: "2026-01-01T00:00:00.000Z",
  lastUpdatedAt: "2026-01-01T00:00:01.000Z",
  ttlMs: 60_000,
  pollIntervalMs: 2000,
  owner: null,
  tool: "x",
  args: {},
  clientCapabilities: {},
  protocolVersion: "2025-11-25",
  resumable: false,
  attempt: 1,
  cancelRequested: false,
};
const at = (status: TaskStatus, extra: Partial<TaskRecord> = {}): TaskRecord => ({ ...base, status, ...extra });
const asks = { "1-0": { method: "elicitation/create", params: { message: "?" } } };
const common = { taskId: "t1", createdAt: base.createdAt, lastUpdatedAt: base.lastUpdatedAt, ttlMs: 60_000, pollIntervalMs: 2000 };

describe("task views", () => {
  it("CreateTaskResult is the seed state with resultType task, and no internals", () => {
    expect(createTaskResult(base)).toEqual({ resultType: "task", status: "working", ...common });
  });

  it("tasks/get inlines exactly the payload of the status, with resultType complete", () => {
    expect(getTaskResult(at("working", { statusMessage: "half" }), asks)).toEqual({
      resultType: "complete",
      status: "working",
      statusMessage: "half",
      ...common,
    });
    expect(getTaskResult(at("input_required"), asks)).toEqual({
      resultType: "complete",
      status: "input_required",
      inputRequests: asks,
      ...common,
    });
    expect(getTaskResult(at("completed", { result: { content: [] } }), asks)).toEqual({
      resultType: "complete",
      status: "completed",
      // The inlined CallToolResult is a 2026-07-28 result: it carries its own resultType.
      result: { resultType: "complete", content: [] },
      ...common,
    });
    expect(getTaskResult(at("failed", { error: { code: -32603, message: "m" } }), asks)).toEqual({
      resultType: "complete",
      status: "failed",
      error: { code: -32603, message: "m" },
      ...common,
    });
    expect(getTaskResult(at("cancelled"), asks)).toEqual({ resultType: "complete", status: "cancelled", ...common });
  });

  it("notifications/tasks carries what tasks/get would return, without the task's own resultType", () => {
    const n = taskStatusNotification(at("completed", { result: { content: [] } }), {});
    expect(n).toEqual({
      method: "notifications/tasks",
      params: { status: "completed", result: { resultType: "complete", content: [] }, ...common },
    });
  });
});

describe("the terminal rule", () => {
  it("completed, failed and cancelled are terminal and never change; working and input_required may", () => {
    expect((["completed", "failed", "cancelled"] as TaskStatus[]).every((s) => isTerminal(s) && !canTransition(s))).toBe(true);
    expect((["working", "input_required"] as TaskStatus[]).every((s) => !isTerminal(s) && canTransition(s))).toBe(true);
  });
});
