/**
 * The hub's shards as stubs: one shard, the shard of a 2025-era registration, every shard. The
 * shard count is the caller's (the server's `listen.shards`, or publish's `shards` option): no
 * count is kept here. Typed by the caller's contract (`hubStub<HubRpc>(…)`), so this layer
 * imports no object.
 */
import { DEFAULT_HUB_SHARD, hubObjectId, registrationShard, type HubTopic } from "./addresses";
import { requireNamespace, HUB_BINDING } from "./bindings";

/** Which hub and how many shards it has; `needed`: what needs the binding, for the misconfiguration message. */
export interface HubShards {
  /** The hub's name (default: the server's one hub). */
  name?: string;
  shards: number;
  needed: string;
}

/** One shard of a hub; throws an error naming the wrangler.toml lines when the binding is missing. */
export function hubStub<H extends Rpc.DurableObjectBranded>(
  env: unknown,
  at: { name?: string; index: number },
  needed: string,
): DurableObjectStub<H> {
  // A missing binding, or one without its migration, is an error naming the wrangler.toml lines to add.
  const namespace = requireNamespace<DurableObjectNamespace<H>>(env, HUB_BINDING, needed);
  return namespace.get(hubObjectId(namespace, at.name ?? DEFAULT_HUB_SHARD, at.index));
}

/** The shard a 2025-era session's registration lives on (by resource URI, list changes by session), with its index. */
export function hubFor<H extends Rpc.DurableObjectBranded>(
  env: unknown,
  registration: { sessionId: string; topic: HubTopic },
  hub: HubShards,
): { stub: DurableObjectStub<H>; index: number } {
  const index = registrationShard(registration.sessionId, registration.topic, hub.shards);
  return { stub: hubStub<H>(env, { name: hub.name, index }, hub.needed), index };
}

/** Every shard of the hub, for a call that must reach all of them (shutdown, forget). */
export function allShards<H extends Rpc.DurableObjectBranded>(env: unknown, hub: HubShards): DurableObjectStub<H>[] {
  return Array.from({ length: hub.shards }, (_, index) => hubStub<H>(env, { name: hub.name, index }, hub.needed));
}
