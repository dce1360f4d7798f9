/**
 * Server code telling every subscribed session that a resource changed (2025-06-18
 * "Resources" > Subscriptions). Works from anywhere that has the Worker's env: a tool, a
 * queue consumer, a cron trigger.
 */
import { listChangedRegistryId, registryObjectId, type ListKind } from "../durable-objects/resource-registry";
import type { EdgeEnv } from "./env";

/** Sends `notifications/resources/updated` to each session subscribed to `uri`; returns how many got it. */
export async function notifyResourceUpdated(env: EdgeEnv, uri: string): Promise<number> {
  const namespace = env.MCP_SESSION;
  if (!namespace) throw new Error("mcp-edge: notifyResourceUpdated needs the MCP_SESSION Durable Object binding");
  return namespace.get(registryObjectId(namespace, uri)).registryNotify(uri);
}

/**
 * Sends `notifications/<list>/list_changed` to every live session, for servers defined with
 * `listChanged: true` (e.g. after a feature flag read by an `enabled` predicate changed).
 * Returns how many sessions had a GET stream to carry it.
 */
export async function notifyListChanged(env: EdgeEnv, list: ListKind): Promise<number> {
  const namespace = env.MCP_SESSION;
  if (!namespace) throw new Error("mcp-edge: notifyListChanged needs the MCP_SESSION Durable Object binding");
  return namespace.get(listChangedRegistryId(namespace)).registryNotify({ list });
}
