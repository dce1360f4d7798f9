/**
 * Server code telling every subscribed session that a resource changed (2025-06-18
 * "Resources" > Subscriptions). Works from anywhere that has the Worker's env: a tool, a
 * queue consumer, a cron trigger.
 */
import { registryObjectId } from "../durable-objects/resource-registry";
import type { EdgeEnv } from "./env";

/** Sends `notifications/resources/updated` to each session subscribed to `uri`; returns how many got it. */
export async function notifyResourceUpdated(env: EdgeEnv, uri: string): Promise<number> {
  const namespace = env.MCP_SESSION;
  if (!namespace) throw new Error("mcp-edge: notifyResourceUpdated needs the MCP_SESSION Durable Object binding");
  return namespace.get(registryObjectId(namespace, uri)).registryNotify(uri);
}
