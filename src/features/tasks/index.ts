/**
 * `tasks()`: the Tasks extension as a feature. It serves the task lane of the Worker (tasks/* and
 * tools that run as tasks) and brings the task object class, `export const { McpTask } = edge.objects`
 * (bound as MCP_TASK). A Worker without it bundles none of the lane or the object.
 */
import { CORE_OPTIONS, type Feature } from "../../kernel/feature";
import type { TaskOptions } from "../../kernel/options";
import { TASK_SEAM, taskClass } from "../../tasks/task-object";

/** Tasks (the `io.modelcontextprotocol/tasks` extension): default TTL, polling interval, watchdog and per-client cap in `options`. */
export function tasks<Env = unknown>(options: TaskOptions = {}): Feature<Env> {
  return {
    name: "tasks",
    bindings: { MCP_TASK: "McpTask" },
    seams: { tasks: TASK_SEAM },
    objects: (kernel) => ({ McpTask: taskClass(kernel) }),
    [CORE_OPTIONS]: Object.keys(options).length > 0 ? { tasks: options } : {},
  };
}
