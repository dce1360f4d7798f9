/**
 * `hub()`: the subscription hub as a feature: `subscriptions/listen` streams (its stream lane,
 * listen.ts), `publish`, 2025-era resource subscriptions and list changes (a session's link to the
 * hub fills the kernel's `hubLink` seam: durable-objects/hub/session-link.ts) and the SDK bus fan out
 * through it. It brings the hub object class, `export const { McpHub } = edge.objects` (bound as
 * MCP_HUB); its options are the listen options.
 */
import { CORE_OPTIONS, type Feature } from "../../kernel/feature";
import type { ListenOptions } from "../../kernel/options";
import { hubClass } from "../../../durable-objects/hub/mcp-hub";
import { sessionHubLink } from "../../../durable-objects/hub/session-link";
import { listenLane } from "./listen";

/** The hub, sharded over `options.shards` objects (default 16); `maxStreams` and the other listen limits per shard. */
export function hub<Env = unknown>(options: ListenOptions = {}): Feature<Env> {
  return {
    name: "hub",
    bindings: { MCP_HUB: "McpHub" },
    streams: { "subscriptions/listen": listenLane },
    seams: { hubLink: sessionHubLink },
    objects: (kernel) => ({ McpHub: hubClass(kernel) }),
    [CORE_OPTIONS]: Object.keys(options).length > 0 ? { listen: options } : {},
  };
}

// What a Worker sends through the hub, from a route, a queue, a cron or a handler.
export {
  publish,
  publishAndCount,
  closeListenStreams,
  type PublishEvent,
  type PublishReport,
  type PublishOptions,
  type ListKind,
} from "./publish";
export { notifyListChanged, notifyResourceUpdated } from "./notify";
export { endStreamsOf, type EndStreamsOptions, type EndStreamsReport } from "../../platform/end-streams";
