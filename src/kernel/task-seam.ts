/**
 * Where the Worker's lanes reach the Tasks extension: the edge's task seam, which the `tasks()`
 * feature fills (a Worker without it bundles none of the lane). Without it, a server that declares
 * no task tools answers tasks/* with -32601 (the core's own answer), and one that does refuses what
 * would create or address a task with a misconfiguration naming the fix.
 */
import { RpcError } from "../jsonrpc/errors";
import type { McpServer, ToolDefinition } from "../mcp/definition/server";
import type { TaskLane } from "../mcp/handlers/dispatch-context";
import { clientDeclares, missingExtensionError, TASKS_EXTENSION } from "../mcp/definition/extensions";
import { misconfigured, requireNamespace, TASK_BINDING } from "../platform/bindings";
import type { EdgeEnv } from "./env";
import type { FeatureSeams } from "./feature";

/**
 * How this `tools/call` runs: "task" when the tool may run as a task and this request's client
 * declared the extension; "sync" otherwise; -32021 for a task-only tool whose client did not.
 * (ext-tasks: never a CreateTaskResult to a client that did not declare the extension on its request.)
 */
export function decideTaskExecution(
  tool: Pick<ToolDefinition<unknown>, "name" | "task">,
  clientCapabilities: unknown,
): "task" | "sync" | RpcError {
  if (!tool.task) return "sync";
  if (clientDeclares(clientCapabilities, TASKS_EXTENSION)) return "task";
  return tool.task.support === "required" ? missingExtensionError(TASKS_EXTENSION, `tool "${tool.name}" runs only as a task`) : "sync";
}

/** The task seam of one 2026-07-28 request: the installed lane, else what a Worker without it answers. */
export function taskLaneFor<Env extends EdgeEnv>(
  seams: FeatureSeams,
  server: McpServer<Env>,
  env: Env,
  clientKey: string | undefined,
): TaskLane | undefined {
  if (seams.tasks) return seams.tasks.lane(server, env, clientKey);
  if (!server.extensions.has(TASKS_EXTENSION)) return undefined;
  const missing = (): never => {
    requireNamespace(env, TASK_BINDING);
    throw misconfigured(
      "task-object",
      "Server misconfigured: tools with `task` need the tasks() feature: createMcpEdge(server, { features: [..., tasks()] }) and export const { McpTask } = edge.objects;",
      { missingTaskObject: "McpTask" },
      env,
    );
  };
  return {
    async serve() {
      return missing();
    },
    async runIfChosen(tool, _args, handlerContext) {
      const decision = decideTaskExecution(tool, handlerContext.clientCapabilities);
      if (decision instanceof RpcError) throw decision;
      return decision === "sync" ? undefined : missing();
    },
  };
}

/** The subset of `taskIds` a listener may follow: none without the lane (no task object to ask). */
export function followableTaskIds(
  seams: FeatureSeams,
  env: EdgeEnv,
  listener: { taskIds: readonly unknown[]; subject: string | undefined; route: string },
): Promise<string[]> {
  return seams.tasks ? seams.tasks.visible(env, listener.taskIds, listener.subject, listener.route) : Promise.resolve([]);
}
