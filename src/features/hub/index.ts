/**
 * `hub()`: the subscription hub as a feature: `subscriptions/listen` streams, `publish`, 2025-era
 * resource subscriptions and the SDK bus fan out through it. It brings the hub object class,
 * `export const { McpHub } = edge.objects` (bound as MCP_HUB); its options are the listen options.
 */
import { CORE_OPTIONS, type Feature } from "../../kernel/feature";
import type { ListenOptions } from "../../kernel/options";
import { hubObject } from "../../../durable-objects/hub/mcp-hub";
import { EDGE_BINDING } from "../../../durable-objects/shared/edge-binding";

/** The hub, sharded over `options.shards` objects (default 16); `maxStreams` and the other listen limits per shard. */
export function hub<Env = unknown>(options: ListenOptions = {}): Feature<Env> {
  return {
    name: "hub",
    bindings: { MCP_HUB: "McpHub" },
    objects: (kernel) => ({ McpHub: hubObject({ [EDGE_BINDING]: kernel }) }),
    [CORE_OPTIONS]: Object.keys(options).length > 0 ? { listen: options } : {},
  };
}
