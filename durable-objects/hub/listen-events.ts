/**
 * What a listen stream gets of a published event: whether its listener's filter names the event (a
 * task's status only for the principal that created it, a routed event only on its route) and the
 * notification it is sent, with the listen request's id as the subscription id in `_meta`.
 */
import type { RequestId } from "../../src/jsonrpc/messages";
import type { ListenFilter, PublishEvent } from "./contract";
import { SUBSCRIPTION_ID_KEY } from "./contract";

/** An event a listen stream may take (a revoked grant ends the stream instead). */
export type ListenEvent = Exclude<PublishEvent, { type: "authorizationEnded" }>;

/** One open listen stream, as the shard knows it (rebuilt from its socket after a wake). */
export interface Listener {
  stream: number;
  id: RequestId;
  filter: ListenFilter;
  subject: string | undefined;
  /** The route key it was opened on ("" for a literal path). */
  route: string;
}

/** Whether a listener's filter names the event (a task's status only for the principal that created it; a routed event only on its route). */
export function wants(event: ListenEvent, listener: Listener): boolean {
  if (event.route !== undefined && event.route !== listener.route) return false;
  switch (event.type) {
    case "resourceUpdated":
      return true; // targets() found the stream by the URI it subscribed to
    case "taskStatus":
      // Only the principal that created a task may see it.
      return event.owner === undefined || event.owner === listener.subject;
    case "listChanged":
      return (
        {
          tools: listener.filter.toolsListChanged,
          prompts: listener.filter.promptsListChanged,
          resources: listener.filter.resourcesListChanged,
        }[event.list] === true
      );
  }
}

/** The notification for an event on the stream of listen request `id`. */
export function toNotification(event: ListenEvent, id: RequestId): Record<string, unknown> {
  const meta = { [SUBSCRIPTION_ID_KEY]: id };
  switch (event.type) {
    case "resourceUpdated":
      return { jsonrpc: "2.0", method: "notifications/resources/updated", params: { _meta: meta, uri: event.uri } };
    case "listChanged":
      return { jsonrpc: "2.0", method: `notifications/${event.list}/list_changed`, params: { _meta: meta } };
    case "taskStatus":
      return { jsonrpc: "2.0", method: "notifications/tasks", params: { ...event.task, _meta: { ...metaOf(event.task), ...meta } } };
  }
}

function metaOf(task: Record<string, unknown>): Record<string, unknown> {
  const meta = task._meta;
  return typeof meta === "object" && meta !== null && !Array.isArray(meta) ? (meta as Record<string, unknown>) : {};
}
