/**
 * What the hub tells a 2025 session (contract.ts: SessionUpdatesRpc) and what the session does with
 * it: a resource's update or a list change goes on its newest standalone stream, a revoked grant
 * ends its held streams. Each answers what became of the update (UpdateDelivery), so the hub
 * forgets registrations of sessions that are gone or no longer subscribed. The `hub()` feature's
 * part of a session object, run by its hub link (session-link.ts) on the narrow host the kernel
 * types (src/kernel/feature.ts `HubLinkHost`): it imports no session code.
 */
import { notification } from "../../src/jsonrpc/messages";
import type { HubLinkHost } from "../../src/kernel/feature";
import type { UpdateDelivery } from "./contract";

/** Whether the session can take an update sent for `route` (undefined: any route). */
function reachable(host: HubLinkHost, route: string | undefined): UpdateDelivery | undefined {
  const state = host.session.state;
  if (!state) return "gone";
  if (route !== undefined && route !== (state.route ?? "")) return "other-route";
  return undefined;
}

/** `notifications/resources/updated` for a resource the session subscribed to. */
export function resourceUpdate(host: HubLinkHost, uri: string, route: string | undefined): UpdateDelivery {
  const refused = reachable(host, route);
  if (refused) return refused;
  if (!host.record.isSubscribed(uri)) return "not-subscribed";
  return host.session.sendStandalone(notification("notifications/resources/updated", { uri })) ? "sent" : "no-stream";
}

/** `notifications/<list>/list_changed` (`method`). */
export function listChange(host: HubLinkHost, method: string, route: string | undefined): UpdateDelivery {
  return reachable(host, route) ?? (host.session.sendStandalone(notification(method)) ? "sent" : "no-stream");
}

/** The grant of `subject` was revoked: the Worker holding each GET or /sse stream ends it with its authorization's ending. */
export function authorizationEnd(host: HubLinkHost, subject: string): UpdateDelivery {
  if (host.session.terminated) return "gone";
  if (host.record.getMeta("hub_subject") !== subject) return "not-subscribed";
  return host.session.held.revokeAll() > 0 ? "sent" : "no-stream";
}
