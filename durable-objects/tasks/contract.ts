/**
 * The Worker <-> task object contract: what the Worker sends to create a task, and the plain-data
 * replies of the object's RPC methods (errors travel as data: RPC does not keep RpcError's class).
 * Both sides import this file; neither imports the other's code.
 */
import type { Principal } from "../../src/auth/principal";
import type { ErrorObject } from "../../src/jsonrpc/messages";
import type { AnyVersion } from "../../src/mcp/definition/versions";
import type { RequestSnapshot } from "../../src/mcp/definition/request-info";

export interface CreateTaskInput {
  tool: string;
  /** The call's arguments, already validated against the tool's input schema by the Worker. */
  args: Record<string, unknown>;
  /** With auth: the principal that created the task; only its subject may use the task. */
  principal?: Principal;
  /** The creating client (src/http/client-key.ts): its tasks in flight are capped (`tasks.maxInFlightPerClient`). */
  clientKey?: string;
  /** The capabilities the creating request declared: what the handler's asks may use. */
  clientCapabilities: Record<string, unknown>;
  /** The creating request's `_meta` (the handler sees it as `ctx.meta`). */
  requestMeta?: Record<string, unknown>;
  /** What the tool's `task.gather` returned (input gathered by MRTR before the task existed). */
  gathered?: Record<string, unknown>;
  /** The creating request (`ctx.request` in the run): a plain snapshot, credentials already withheld. */
  request?: RequestSnapshot;
  /** With tracing: the span of the request that created the task (W3C traceparent); the run's span is its child. */
  traceparent?: string;
  protocolVersion: AnyVersion;
}

export type TaskReply = { ok: true; result: Record<string, unknown> } | { ok: false; error: ErrorObject };

/** `tasks/update` answers by `inputRequests` key. */
export type InputResponses = Record<string, Record<string, unknown>>;

/**
 * What the Worker may call on a task object over Workers RPC; McpTaskObject implements it. The
 * same class plays the per-client ledger, whose calls are its own contract (durable-objects/tasks/ledger-contract.ts).
 */
export interface TaskObjectRpc extends Rpc.DurableObjectBranded {
  taskCreate(taskId: string, input: CreateTaskInput): Promise<TaskReply>;
  /** `route` (these four): the request's route key; a task answers only on the route it was created on ("" for a literal path). */
  taskGet(subject: string | null, route?: string): Promise<TaskReply>;
  taskVisible(subject: string | null, route?: string): Promise<boolean>;
  taskUpdate(subject: string | null, responses: InputResponses, route?: string): Promise<TaskReply>;
  taskCancel(subject: string | null, route?: string): Promise<TaskReply>;
}
