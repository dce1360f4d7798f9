/**
 * Which object a request's Mcp-Session-Id names. An eager session's id is its object's id; a
 * deferred session's (durable-objects/session/deferred.ts) is that id, ".", and the seal of its
 * state, which the edge's sealer opens here, in the Worker, before anything is woken.
 */
import type { PendingSession } from "../../durable-objects/session/contract";
import { sessionObjectId } from "../platform/addresses";
import { routeKey } from "../wire/route-params";
import type { EdgeRequest } from "./edge-request";

/** The session's object, with a deferred session's opened state. */
export interface SessionAddress {
  id: DurableObjectId;
  pending?: PendingSession;
}

/**
 * Where a request's session lives, or undefined (404) when the id is malformed, forged, sealed
 * under another secret or for another object, or another principal's or another route's.
 */
export async function addressSession<Env>(edge: EdgeRequest<Env>, sessionId: string): Promise<SessionAddress | undefined> {
  const { runtime, env } = edge;
  let pending: PendingSession | undefined;
  if (sessionId.length > 64) {
    pending = await runtime.sealer()?.open(env, sessionId, { subject: edge.principal?.subject, route: routeKey(edge.params) });
    if (!pending) return undefined;
  }
  // Both forms begin with the object id.
  const id = sessionObjectId(runtime.sessionNamespace(env), sessionId.slice(0, 64));
  return id && { id, pending };
}
