/**
 * Where the Worker's lanes reach the Tasks extension. The lane itself (lane.ts) is installed by
 * `taskObject(edge)`, which every Worker serving task tools calls to export the MCP_TASK class:
 * a Worker that never calls it (no task tools) bundles none of the lane. Without it, a server
 * that declares no task tools answers tasks/* with -32601 (the core's own answer), and one that
 * does refuses what would create or address a task with a misconfiguration naming the fix.
 */
import { RpcError } from "../jsonrpc/errors";
import type { McpServer, ToolDefinition } from "../mcp/definition/server";
import type { TaskLane } from "../mcp/handlers/dispatch-context";
import { clientDeclares, missingExtensionError, TASKS_EXTENSION } from "../mcp/definition/extensions";
import { misconfigured, requireNamespace } from "../platform/bindings";
import type { EdgeEnv } from "../env";

/** What taskObject(edge) installs: the lane of one request, and the task ids a listener may follow. */
export interface TaskLaneParts {
  lane<Env extends EdgeEnv>(server: McpServer<Env>, env: Env, clientKey: string | undefined): TaskLane;
  visible(env: EdgeEnv, taskIds: readonly unknown[], subject: string | undefined, route: string): Promise<string[]>;
}

let installed: TaskLaneParts | undefined;

export function installTaskLane(parts: TaskLaneParts): void {
  installed = parts;
}

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
export function taskLaneFor<Env extends EdgeEnv>(server: McpServer<Env>, env: Env, clientKey: string | undefined): TaskLane | undefined {
  if (installed) return installed.lane(server, env, clientKey);
  if (!server.extensions.has(TASKS_EXTENSION)) return undefined;
  const missing = (): never => {
    requireNamespace(env, "MCP_TASK");
    throw misconfigured(
      "task-object",
      "Server misconfigured: tools with `task` need this Worker to build the task object class: export const McpTask = taskObject(edge);",
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
export function visibleTaskIds(env: EdgeEnv, taskIds: readonly unknown[], subject: string | undefined, route = ""): Promise<string[]> {
  return installed ? installed.visible(env, taskIds, subject, route) : Promise.resolve([]);
}
