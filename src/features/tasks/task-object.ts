/**
 * The task object class made on the Worker's side of tasks (status published to the hub: publish.ts),
 * so the object imports nothing of src/features/tasks: `tasks()`'s `edge.objects.McpTask`, and the
 * deprecated `taskObject(edge)`, which also fills the edge's task seam as it used to install the lane.
 */
import type { EdgeEnv } from "../../kernel/env";
import { McpTaskObject, type TaskObjectParts } from "../../../durable-objects/tasks/mcp-task";
import { bindingOf, type BoundEdge, type EdgeBinding, type ObjectClass } from "../../../durable-objects/shared/edge-binding";
import { taskLane, visibleTaskIds } from "./lane";
import { statusPublisher } from "./publish";
import { resolveTaskOptions } from "./options";
import type { TaskSeam } from "../../kernel/feature";

/** The task seam: the lane of one request, and the task ids a listener may follow. */
export const TASK_SEAM: TaskSeam = {
  lane(server, env, clientKey) {
    return taskLane(server as never, env as EdgeEnv, clientKey);
  },
  visible(env, taskIds, subject, route) {
    return visibleTaskIds(env as EdgeEnv, taskIds, subject, route);
  },
};

/**
 * The task object class bound to `kernel`: its server, its task options (resolved and checked here, when
 * createMcpEdge makes the class: a bad one is a TypeError then) and observer.
 */
export function taskClass<Env>(kernel: EdgeBinding<Env>): ObjectClass<McpTaskObject<Env>, Env> {
  const parts: TaskObjectParts = {
    options: resolveTaskOptions(kernel.options.tasks),
    // Status changes go to the edge's hub, over as many shards as its listen streams use.
    publishStatus: statusPublisher(kernel.options.listen.shards),
  };
  return class McpTask extends McpTaskObject<Env> {
    constructor(ctx: DurableObjectState, env: Env) {
      super(ctx, env, kernel, parts);
    }
  };
}

/**
 * @deprecated Pass `tasks()` in createMcpEdge's `features` and export `edge.objects.McpTask`; this
 * factory goes in the next minor release. It still fills the edge's task seam when no feature did.
 */
export function taskObject<Env>(edge: BoundEdge<Env>): ObjectClass<McpTaskObject<Env>, Env> {
  const binding = bindingOf(edge, "taskObject");
  binding.seams.tasks ??= TASK_SEAM;
  return taskClass(binding);
}
