/**
 * What the hub tells a session (contract.ts of the hub: SessionUpdatesRpc) and what the session
 * does with it: a resource's update or a list change goes on its newest standalone stream, a
 * revoked grant ends its held streams. Each answers what became of the update (UpdateDelivery),
 * so the hub forgets registrations of sessions that are gone or no longer subscribed.
 */
import { notification } from "../../src/jsonrpc/messages";
import type { UpdateDelivery } from "../hub/contract";
import type { SessionCore } from "./core";

/** Whether the session can take an update sent for `route` (undefined: any route). */
function reachable(core: SessionCore, route: string | undefined): UpdateDelivery | undefined {
  if (!core.state) return "gone";
  if (route !== undefined && route !== (core.state.route ?? "")) return "other-route";
  return undefined;
}

/** `notifications/resources/updated` for a resource the session subscribed to. */
export function resourceUpdate(core: SessionCore, uri: string, route: string | undefined): UpdateDelivery {
  const refused = reachable(core, route);
  if (refused) return refused;
  if (!core.record.isSubscribed(uri)) return "not-subscribed";
  return core.sendStandalone(notification("notifications/resources/updated", { uri })) ? "sent" : "no-stream";
}

/** `notifications/<list>/list_changed` (`method`). */
export function listChange(core: SessionCore, method: string, route: string | undefined): UpdateDelivery {
  return reachable(core, route) ?? (core.sendStandalone(notification(method)) ? "sent" : "no-stream");
}

/** The grant of `subject` was revoked: the Worker holding each GET or /sse stream ends it with its authorization's ending. */
export function authorizationEnd(core: SessionCore, subject: string): UpdateDelivery {
  if (core.terminated) return "gone";
  if (core.record.getMeta("hub_subject") !== subject) return "not-subscribed";
  return core.held.revokeAll() > 0 ? "sent" : "no-stream";
}
