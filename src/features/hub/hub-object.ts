/**
 * `hubObject()`: the hub class made outside `edge.objects`. With no edge, the class of a Worker that
 * only hosts the hub (the SDK's bus, bus.ts). With an edge (deprecated: pass `hub()` in `features`), the
 * hub of a project written before features: it also gives that edge the hub's listen lane (listen.ts) and
 * its sessions' link to the hub (durable-objects/hub/session-link.ts), as `hub()` would, so an edge whose
 * hub is not made here bundles none of them.
 */
import type { McpHub } from "../../../durable-objects/hub/mcp-hub";
import { hubClass } from "../../../durable-objects/hub/mcp-hub";
import { sessionHubLink } from "../../../durable-objects/hub/session-link";
import { bindingOf, type BoundEdge } from "../../../durable-objects/shared/edge-binding";
import { listenLane } from "./listen";

/**
 * The hub class (bound as MCP_HUB). Without an edge (a Worker that only hosts the hub, for the SDK's
 * bus: src/features/hub/bus.ts) the hub traces nothing; this use is not deprecated.
 * @deprecated Called with an edge: pass `hub()` in createMcpEdge's `features` and export
 * `edge.objects.McpHub`; this form goes in the next minor release. It fills the edge's listen lane when
 * no feature serves `subscriptions/listen`, and its sessions' hub link when no feature fills it.
 */
export function hubObject<Env>(edge?: BoundEdge<Env>): typeof McpHub {
  if (edge === undefined) return hubClass(undefined);
  const binding = bindingOf(edge, "hubObject");
  binding.seams.listen ??= listenLane;
  binding.seams.hubLink ??= sessionHubLink;
  return hubClass(binding);
}
