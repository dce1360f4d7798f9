/**
 * The Worker's side of the Tasks extension: decide whether a `tools/call` becomes a task,
 * create it in its own Durable Object (the id is the object's unguessable id), and route
 * `tasks/get|update|cancel` to that object for the principal that created it. Takes plain
 * values so any lane (the 2026-07-28 request lane) can call it; throws RpcError for refusals.
 */
import { requestSnapshot, type RequestSnapshot } from "../../mcp/definition/request-info";
import { routeKey } from "../../wire/route-params";
import { observationOf } from "../../mcp/operations/observe";
import { INVALID_PARAMS, LIMIT_EXCEEDED_2026, RpcError } from "../../jsonrpc/errors";
import type { Params } from "../../jsonrpc/messages";
import type { Principal } from "../../auth/principal";
import { checkExtensionMethod, clientDeclares, missingExtensionError, TASKS_EXTENSION } from "../../mcp/definition/extensions";
import { decideTaskExecution } from "../../kernel/task-seam";
import type { TaskLane } from "../../mcp/handlers/dispatch-context";
import type { HandlerContext } from "../../mcp/definition/context";
import type { McpServer, ToolDefinition } from "../../mcp/definition/server";
import { isWellFormedSessionId, taskObjectId } from "../../platform/addresses";
import { type AnyVersion, VERSIONS_2026 } from "../../mcp/definition/versions";
import type { EdgeEnv } from "../../kernel/env";

import type { InputResponses, TaskObjectRpc, TaskReply } from "../../../durable-objects/tasks/contract";
import { jsonBytes, MAX_TASK_INPUT_BYTES, MAX_TASK_MESSAGE_BYTES } from "../../../durable-objects/tasks/model";
import { isObject } from "../../jsonrpc/parse";
import { requireNamespace, TASK_BINDING } from "../../platform/bindings";

const TASK_METHODS = ["tasks/get", "tasks/update", "tasks/cancel"] as const;
export type TaskMethod = (typeof TASK_METHODS)[number];

function isTaskMethod(method: string): method is TaskMethod {
  return (TASK_METHODS as readonly string[]).includes(method);
}

/** The task namespace, or an error naming the wrangler.toml lines to add (a missing migration too, at the first call). */
function taskNamespace(env: EdgeEnv): DurableObjectNamespace<TaskObjectRpc> {
  return requireNamespace<DurableObjectNamespace<TaskObjectRpc>>(env, TASK_BINDING);
}

function fromReply(reply: TaskReply): Params {
  if (reply.ok) return reply.result;
  throw new RpcError(reply.error.code, reply.error.message, reply.error.data);
}

export interface CreateTaskRequest {
  tool: string;
  args: Record<string, unknown>;
  principal?: Principal;
  /** Who the per-client cap on tasks in flight counts this task against (src/http/client-key.ts). */
  clientKey?: string;
  /** The creating request's declared capabilities (2026-07-28: its `_meta` envelope's). */
  clientCapabilities: unknown;
  requestMeta?: Record<string, unknown>;
  gathered?: Record<string, unknown>;
  request?: RequestSnapshot;
  traceparent?: string;
  /** The creating request's revision (tasks are negotiated on 2026-07-28 only, the default). */
  protocolVersion?: AnyVersion;
}

/**
 * Creates a task for a call of a task-capable tool and returns its `CreateTaskResult`
 * (`resultType: "task"`). Returns only after the task's object stored the task, so `tasks/get`
 * for the id resolves at once. Arguments are validated first: invalid ones get -32602 and no task.
 */
export async function createTask<Env extends EdgeEnv>(server: McpServer<Env>, env: Env, request: CreateTaskRequest): Promise<Params> {
  const tool = server.tools.get(request.tool);
  if (!tool?.task) throw new RpcError(INVALID_PARAMS, `Unknown tool or not task-capable: ${request.tool}`);
  if (!clientDeclares(request.clientCapabilities, TASKS_EXTENSION)) throw missingExtensionError(TASKS_EXTENSION);
  const checked = await tool.input.validate(request.args);
  if (!checked.ok) throw new RpcError(INVALID_PARAMS, `Invalid arguments for tool "${request.tool}": ${checked.message}`);
  if (
    jsonBytes([request.args, request.clientCapabilities, request.requestMeta, request.principal, request.gathered, request.request]) >
    MAX_TASK_INPUT_BYTES
  ) {
    throw new RpcError(
      LIMIT_EXCEEDED_2026,
      `A task's arguments, capabilities and _meta may hold at most ${MAX_TASK_INPUT_BYTES} bytes of JSON`,
    );
  }
  const namespace = taskNamespace(env);
  const id = namespace.newUniqueId();
  const stub = namespace.get(id);
  return fromReply(
    await stub.taskCreate(id.toString(), {
      tool: request.tool,
      args: request.args,
      principal: request.principal,
      clientKey: request.clientKey,
      clientCapabilities: isObject(request.clientCapabilities) ? request.clientCapabilities : {},
      requestMeta: request.requestMeta,
      gathered: request.gathered,
      request: request.request,
      traceparent: request.traceparent,
      protocolVersion: request.protocolVersion ?? VERSIONS_2026[0],
    }),
  );
}

/**
 * The one call a `tools/call` lane makes for a tool it found (and found enabled): the
 * CreateTaskResult when the call becomes a task, undefined to run it synchronously as usual;
 * throws -32021 for a task-only tool whose request did not declare the extension.
 */
export async function runAsTaskIfChosen<Env extends EdgeEnv>(
  place: TaskPlace<Env>,
  tool: Pick<ToolDefinition<Env>, "name" | "task">,
  args: Record<string, unknown>,
  request: Omit<CreateTaskRequest, "tool" | "args">,
): Promise<Params | undefined> {
  const { server, env } = place;
  const decision = decideTaskExecution(tool, request.clientCapabilities);
  if (decision instanceof RpcError) throw decision;
  if (decision === "sync") return undefined;
  return createTask(server, env, { ...request, tool: tool.name, args });
}

/** The task seam the 2026-07-28 lane plugs into the core's dispatch context for one request. */
export function taskLane<Env extends EdgeEnv>(server: McpServer<Env>, env: Env, clientKey?: string): TaskLane {
  return new WorkerTaskLane(server, env, clientKey);
}

/** One per 2026-07-28 request: docs/engine-notes.md "Classes for what a request builds". */
class WorkerTaskLane<Env extends EdgeEnv> implements TaskLane {
  constructor(
    readonly server: McpServer<Env>,
    readonly env: Env,
    private readonly clientKey: string | undefined,
  ) {}

  serve(method: string, params: Params, handlerContext: HandlerContext<unknown>): Promise<Params> {
    if (!isTaskMethod(method)) return Promise.reject(new RpcError(INVALID_PARAMS, `not a Tasks method: ${method}`));
    // Observed: one request to the task's object (counted also when a malformed id is refused before it).
    observationOf(handlerContext)?.countDoRequests();
    const asker = {
      subject: handlerContext.principal?.subject,
      clientCapabilities: handlerContext.clientCapabilities,
      route: routeKey(handlerContext.request?.params),
    };
    return serveTaskMethod(this, method, params, asker);
  }

  async runIfChosen(
    tool: ToolDefinition<never>,
    args: Record<string, unknown>,
    handlerContext: HandlerContext<unknown>,
    gathered: Record<string, unknown> | undefined,
  ): Promise<Params | undefined> {
    const created = await runAsTaskIfChosen(this, tool, args, {
      principal: handlerContext.principal,
      clientKey: this.clientKey,
      clientCapabilities: handlerContext.clientCapabilities,
      requestMeta: handlerContext.meta,
      gathered,
      request: handlerContext.request && requestSnapshot(handlerContext.request),
      traceparent: observationOf(handlerContext)?.traceparent,
      protocolVersion: handlerContext.protocolVersion,
    });
    if (created) observationOf(handlerContext)?.countDoRequests();
    return created;
  }
}

/** A task id names an object this namespace minted; anything else is refused without waking one. */
function taskStub(env: EdgeEnv, taskId: unknown): DurableObjectStub<TaskObjectRpc> {
  const notFound = new RpcError(INVALID_PARAMS, "Failed to retrieve task: Task not found");
  // A malformed id is refused before the binding is looked at (no misconfiguration for a forged id).
  if (typeof taskId !== "string" || !isWellFormedSessionId(taskId)) throw notFound;
  const namespace = taskNamespace(env);
  const id = taskObjectId(namespace, taskId);
  if (!id) throw notFound;
  return namespace.get(id);
}

/** Where a task lives: the server that defines its tool, and the env with the task namespace. */
export interface TaskPlace<Env> {
  readonly server: McpServer<Env>;
  readonly env: Env;
}

/**
 * Who asks about a task: the principal's `subject` (undefined without auth), the capabilities its
 * request declared, and its `route` key ("" or absent for a literal path).
 */
export interface TaskAsker {
  subject: string | undefined;
  clientCapabilities: unknown;
  route?: string;
}

/**
 * Answers `tasks/get`, `tasks/update` or `tasks/cancel`: -32601 when the server declares no
 * task tools, -32021 when this request's client did not declare the extension, -32602 for an
 * unknown, expired, another principal's or another route's task.
 */
export async function serveTaskMethod<Env extends EdgeEnv>(
  place: TaskPlace<Env>,
  method: TaskMethod,
  params: Params | undefined,
  asker: TaskAsker,
): Promise<Params> {
  const { server, env } = place;
  const { clientCapabilities, route = "" } = asker;
  const refusal = checkExtensionMethod(server.extensions, method, clientCapabilities);
  if (refusal) throw refusal;
  const p = params ?? {};
  if (typeof p.taskId !== "string") throw new RpcError(INVALID_PARAMS, `${method} needs a string "taskId"`);
  let responses: InputResponses | undefined;
  if (method === "tasks/update") {
    const given = p.inputResponses;
    if (!isObject(given))
      throw new RpcError(INVALID_PARAMS, 'tasks/update needs "inputResponses": an object of answers by inputRequests key');
    for (const [key, answer] of Object.entries(given)) {
      if (!isObject(answer))
        throw new RpcError(INVALID_PARAMS, `tasks/update: inputResponses["${key}"] must be an object (the answer's result)`);
      if (jsonBytes(answer) > MAX_TASK_MESSAGE_BYTES)
        throw new RpcError(
          LIMIT_EXCEEDED_2026,
          `tasks/update: inputResponses["${key}"] is larger than ${MAX_TASK_MESSAGE_BYTES} bytes of JSON`,
        );
    }
    responses = given as InputResponses;
  }
  const stub = taskStub(env, p.taskId);
  const subject = asker.subject ?? null;
  switch (method) {
    case "tasks/get":
      return fromReply(await stub.taskGet(subject, route));
    case "tasks/update":
      return fromReply(await stub.taskUpdate(subject, responses ?? {}, route));
    case "tasks/cancel":
      return fromReply(await stub.taskCancel(subject, route));
  }
}

/**
 * The subset of `taskIds` that `principalSubject` may follow on `route`: for `subscriptions/listen`'s
 * acknowledgement, so a listener never learns of (or hears about) another principal's task.
 */
export async function visibleTaskIds(
  env: EdgeEnv,
  taskIds: readonly unknown[],
  principalSubject: string | undefined,
  route = "",
): Promise<string[]> {
  const subject = principalSubject ?? null;
  const checks = await Promise.all(
    taskIds.map(async (taskId) => {
      try {
        return typeof taskId === "string" && (await taskStub(env, taskId).taskVisible(subject, route)) ? taskId : undefined;
      } catch (error) {
        if (error instanceof RpcError) return undefined;
        throw error;
      }
    }),
  );
  return checks.filter((id): id is string => id !== undefined);
}
