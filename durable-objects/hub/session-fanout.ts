/**
 * A hub shard's delivery to the 2025-era sessions registered with it: each registered session's
 * object is called with the event (SessionUpdatesRpc), and those found gone or no longer
 * subscribed are forgotten. The calls are the hub's requests (the sessions do not report them).
 */
import type { HubTopic } from "../../src/platform/addresses";
import type { ObjectBill } from "../../src/mcp/operations/observe";
import type { HubEnv, PublishEvent, SessionUpdatesRpc, UpdateDelivery } from "./contract";
import { topicKey, type Registrations } from "./registrations";

/** An event a session takes (task statuses go to listen streams only). */
export type SessionEvent = Exclude<PublishEvent, { type: "taskStatus" }>;

/** What the delivery needs from its shard. */
export interface SessionFanoutHost {
  readonly env: HubEnv;
  readonly registrations: Registrations;
  /** With an observed server's `onEvent`: the shard's bill, which counts the calls it makes. */
  readonly bill: ObjectBill | undefined;
}

/** Calls each registered session; forgets those that are gone or no longer subscribed. How many got it. */
export async function notifySessions(host: SessionFanoutHost, event: SessionEvent, traceparent?: string): Promise<number> {
  const topic = topicKey(sessionTopic(event));
  const ids = host.registrations.sessions(topic);
  if (ids.length === 0) return 0;
  const namespace = host.env.MCP_SESSION;
  if (!namespace) throw new Error("mcp-edge: the hub has 2025-era sessions registered but no MCP_SESSION binding");
  const stale: string[] = [];
  // Requests the sessions do not report (they are the hub's).
  host.bill?.made(ids.length);
  const delivered = await Promise.all(
    ids.map(async (sessionId) => {
      const stub: DurableObjectStub<SessionUpdatesRpc> = namespace.get(namespace.idFromString(sessionId));
      const delivery: UpdateDelivery = await callSession(stub, event, traceparent).catch(() => "no-stream" as const);
      if (delivery === "gone" || delivery === "not-subscribed") stale.push(sessionId);
      return delivery === "sent" ? 1 : 0;
    }),
  );
  await host.registrations.removeMany(topic, stale);
  return delivered.reduce<number>((a, b) => a + b, 0);
}

/** The registrations an event reaches: those of its URI, of list changes, or of the revoked principal. */
function sessionTopic(event: SessionEvent): HubTopic {
  if (event.type === "resourceUpdated") return { uri: event.uri };
  if (event.type === "authorizationEnded") return { subject: event.subject };
  return { lists: true };
}

function callSession(
  stub: DurableObjectStub<SessionUpdatesRpc>,
  event: SessionEvent,
  traceparent: string | undefined,
): Promise<UpdateDelivery> {
  switch (event.type) {
    case "resourceUpdated":
      return stub.resourceUpdated(event.uri, traceparent, event.route);
    case "listChanged":
      return stub.listChanged(event.list, traceparent, event.route);
    case "authorizationEnded":
      return stub.authorizationEnded(event.subject);
  }
}
