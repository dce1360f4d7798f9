/**
 * taskObject(edge): the task object class (durable-objects/tasks/) made on the Worker's side of
 * tasks, which it installs with the class (the lane through seam.ts, status publishes through
 * publish.ts), so the object imports nothing of src/tasks and a Worker without task tools bundles neither.
 */
import type { EdgeEnv } from "../env";
import { McpTaskObject } from "../../durable-objects/tasks/mcp-task";
import { bindingOf, type BoundEdge, type ObjectClass } from "../../durable-objects/shared/edge-binding";
import type { TaskAudience, TaskStatusNotification } from "../../durable-objects/tasks/model";
import { installTaskLane } from "./seam";
import { taskLane, visibleTaskIds } from "./lane";
import { publishTaskStatus } from "./publish";

function publishStatus(env: unknown, notification: TaskStatusNotification, audience: TaskAudience): Promise<void> {
  return publishTaskStatus(env as EdgeEnv, notification, audience);
}

/**
 * The task object class of a served server: `export const McpTask = taskObject(edge)` (bound as
 * MCP_TASK), for servers with tools that declare `task`; with the server, its task options and its observer.
 */
export function taskObject<Env>(edge: BoundEdge<Env>): ObjectClass<McpTaskObject<Env>, Env> {
  const binding = bindingOf(edge, "taskObject");
  installTaskLane({ lane: taskLane, visible: visibleTaskIds });
  return class McpTask extends McpTaskObject<Env> {
    constructor(ctx: DurableObjectState, env: Env) {
      super(ctx, env, binding, publishStatus);
    }
  };
}
