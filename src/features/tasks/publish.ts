/**
 * Where a task's status changes go besides `tasks/get`: `notifications/tasks` to the
 * `subscriptions/listen` streams that asked for this task id (ext-tasks "Task Status
 * Notifications"), handed to the hub's shard 0 over its contract (durable-objects/hub/contract.ts),
 * not through the public publish. The task object calls the publisher after every stored change.
 */
import { eventWeight, type Fanout, type HubRpc, type PublishEvent } from "../../../durable-objects/hub/contract";
import type { TaskAudience, TaskStatusNotification } from "../../../durable-objects/tasks/model";
import type { PublishTaskStatus } from "../../../durable-objects/tasks/task-status";
import { DEFAULT_HUB_SHARD, hubObjectId } from "../../platform/addresses";
import { requireNamespace, HUB_BINDING } from "../../platform/bindings";
import { Outbox } from "../../platform/outbox";
import { routeKey } from "../../wire/route-params";

/** One status change on its way to shard 0, with the task run's trace (the hub's spans continue it). */
interface Queued {
  event: PublishEvent;
  trace: string | undefined;
}

/**
 * The status publisher of one edge's task objects, for a hub of `shards` shards (the edge's
 * `listen.shards`). Through an ordered outbox per hub binding, so one task's changes reach its
 * listeners in the order they were stored, and a burst goes to shard 0 in one call. Without the
 * MCP_HUB binding nothing listens, and `tasks/get` polling stays complete. With auth only the
 * task's owner's streams hear of it, and only those opened on the task's route. The publish settles
 * once shard 0 has the change.
 */
export function statusPublisher(shards: number): PublishTaskStatus {
  const outboxes = new WeakMap<object, Outbox<Queued, void>>();
  const fanout: Fanout = { name: DEFAULT_HUB_SHARD, shards };
  return (env, notification, audience) => {
    if (!(env as { MCP_HUB?: unknown }).MCP_HUB) return Promise.resolve();
    const namespace = requireNamespace<DurableObjectNamespace<HubRpc>>(env, HUB_BINDING, "task status notifications");
    let outbox = outboxes.get(namespace);
    if (!outbox) {
      outbox = new Outbox((batch) => sendToHub(namespace, fanout, batch), { weigh: (q) => eventWeight(q.event) });
      outboxes.set(namespace, outbox);
    }
    return outbox.push({ event: statusEvent(notification, audience), trace: audience.trace }).sent;
  };
}

/** The hub's `taskStatus` event: the task's owner (null: anyone may follow it) and its route's key. */
function statusEvent(notification: TaskStatusNotification, audience: TaskAudience): PublishEvent {
  const { owner, route } = audience;
  const event: PublishEvent =
    owner === null ? { type: "taskStatus", task: notification.params } : { type: "taskStatus", task: notification.params, owner };
  // A task belongs to the route it was created on: only that route's listen streams hear of it.
  return route !== undefined && Object.keys(route).length > 0 ? { ...event, route: routeKey(route) } : event;
}

/** One batch to shard 0; each event's trace goes with it when any has one. */
async function sendToHub(namespace: DurableObjectNamespace<HubRpc>, fanout: Fanout, batch: Queued[]): Promise<void> {
  const traces = batch.some((q) => q.trace !== undefined) ? batch.map((q) => q.trace) : undefined;
  await namespace.get(hubObjectId(namespace, fanout.name)).publish(
    batch.map((q) => q.event),
    fanout,
    false,
    traces,
  );
}
