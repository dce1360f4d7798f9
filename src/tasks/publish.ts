/**
 * Where a task's status changes go besides `tasks/get`: `notifications/tasks` to the
 * `subscriptions/listen` streams that asked for this task id (ext-tasks "Task Status
 * Notifications"). The task object calls `publishTaskStatus` (handed in by taskObject(edge)) after every stored change.
 */
import type { EdgeEnv } from "../kernel/env";
import { publish, type PublishEvent } from "../publish";
import type { TaskAudience, TaskStatusNotification } from "../../durable-objects/tasks/model";

/**
 * Hands the notification to the subscriptions hub (src/publish.ts), which delivers it to the
 * listen streams whose `notifications.taskIds` include `params.taskId` and, with auth, only to
 * streams opened by the task's owner, on the task's route. Without the hub's binding (MCP_HUB) nothing listens, and
 * `tasks/get` polling stays complete. Returns once the notification is handed off to the hub.
 * `audience.trace`: the task's run (W3C traceparent), which the hub's spans continue.
 */
export async function publishTaskStatus(env: EdgeEnv, notification: TaskStatusNotification, audience: TaskAudience): Promise<void> {
  const { owner, trace, route } = audience;
  if (!env.MCP_HUB) return;
  const event: PublishEvent =
    owner === null ? { type: "taskStatus", task: notification.params } : { type: "taskStatus", task: notification.params, owner };
  // A task belongs to the route it was created on: only that route's listen streams hear of it.
  const routed = route !== undefined && Object.keys(route).length > 0;
  await publish(env, event, { ...(trace === undefined ? {} : { trace }), ...(routed ? { route } : {}) });
}
