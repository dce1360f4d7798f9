/**
 * Helpers for the Tasks tests: the Worker-side calls a lane makes (createTask, serveTaskMethod),
 * a look into a task's object, and waiting for a status as an event (no polling loops, no sleeps).
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { McpTaskObject } from "../../durable-objects/tasks/mcp-task";
import type { Principal } from "../../src/auth/principal";
import { RpcError } from "../../src/jsonrpc/errors";
import type { EdgeEnv } from "../../src/kernel/env";
import { createTask, serveTaskMethod, type TaskMethod } from "../../src/tasks/lane";
import type { TaskRecord, TaskStatus } from "../../durable-objects/tasks/model";
import { tasksServer } from "../servers/tasks/entry";

export const edgeEnv = env as unknown as EdgeEnv;
export const TASKS = "io.modelcontextprotocol/tasks";
/** A client that declared the extension and the asks the tools make. */
export const CAPS = { extensions: { [TASKS]: {} }, elicitation: {}, sampling: {} };

export type Json = Record<string, unknown>;

export function principal(subject: string): Principal {
  return { subject, scopes: [], claims: { sub: subject } };
}

export async function create(tool: string, args: Json = {}, opts: { principal?: Principal; caps?: unknown } = {}): Promise<Json> {
  return createTask(tasksServer, edgeEnv, {
    tool,
    args,
    principal: opts.principal,
    clientCapabilities: opts.caps ?? CAPS,
    protocolVersion: "2025-11-25",
  });
}

function method(m: TaskMethod, params: Json, subject?: string, caps: unknown = CAPS): Promise<Json> {
  return serveTaskMethod({ server: tasksServer, env: edgeEnv }, m, params, { subject, clientCapabilities: caps });
}

export const get = (taskId: string, subject?: string) => method("tasks/get", { taskId }, subject);
export const update = (taskId: string, inputResponses: Json, subject?: string) =>
  method("tasks/update", { taskId, inputResponses }, subject);
export const cancel = (taskId: string, subject?: string) => method("tasks/cancel", { taskId }, subject);

/** The RpcError a call rejects with. */
export async function refusal(promise: Promise<unknown>): Promise<RpcError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RpcError) return error;
    throw error;
  }
  throw new Error("expected an RpcError, got a result");
}

export function taskStub(taskId: string): DurableObjectStub<McpTaskObject> {
  const ns = edgeEnv.MCP_TASK as DurableObjectNamespace<McpTaskObject>;
  return ns.get(ns.idFromString(taskId));
}

/** Waits (inside the object, on its change events) until the task has one of `statuses`. */
export function until(taskId: string, ...statuses: TaskStatus[]): Promise<TaskStatus | undefined> {
  return runInDurableObject(taskStub(taskId), (instance) => (instance as unknown as McpTaskObject).awaitStatus(statuses));
}

/** The stored record, read straight from the object's SQLite storage. */
export function storedRecord(taskId: string): Promise<TaskRecord | undefined> {
  return runInDurableObject(taskStub(taskId), (_i, state) => {
    const rows = state.storage.sql.exec<{ json: string }>("SELECT json FROM task_record").toArray();
    return rows[0] ? (JSON.parse(rows[0].json) as TaskRecord) : undefined;
  });
}

export function inputKeys(task: Json): string[] {
  return Object.keys((task.inputRequests ?? {}) as Json);
}
