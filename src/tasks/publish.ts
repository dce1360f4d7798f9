/**
 * Where a task's status changes go besides `tasks/get`: `notifications/tasks` to the
 * `subscriptions/listen` streams that asked for this task id (ext-tasks "Task Status
 * Notifications"). The task object calls `publishTaskStatus` after every stored change.
 */
import type { EdgeEnv } from "../env";

/** A `notifications/tasks` message: `params` is the full DetailedTask, as tasks/get would return it. */
export interface TaskStatusNotification {
  method: "notifications/tasks";
  params: Record<string, unknown> & { taskId: string; status: string };
}

/**
 * SEAM (hub): hand the notification to the subscriptions hub, which delivers it to listen
 * streams whose `notifications.taskIds` include `params.taskId` (and to nobody else). Until the
 * hub exists this delivers nothing and reports 0 streams; polling with tasks/get is complete.
 */
export async function publishTaskStatus(_env: EdgeEnv, _notification: TaskStatusNotification): Promise<number> {
  return 0;
}
