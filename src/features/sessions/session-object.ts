/**
 * The deprecated session object factories of an edge made before features (`createMcpEdge(server)`
 * with no `features`): each makes the session class `sessions()` would and fills what that edge's
 * sessions served before features, as `hubObject(edge)` does for the hub: the 2024-11-05 HTTP+SSE
 * transport (the kernel's `legacy` seam, at the top-level `legacySsePath`/`legacyMessagesPath`, unless
 * `legacySsePath: null`) and, for deferred sessions, the sealer.
 */
import { bindingOf, type BoundEdge, type EdgeBinding, type ObjectClass } from "../../../durable-objects/shared/edge-binding";
import { sessionClass } from "../../../durable-objects/sessions/classes";
import { deferredSessionClass, SESSION_SEALER } from "../../../durable-objects/sessions/deferred";
import type { McpSessionObject } from "../../../durable-objects/sessions/mcp-session";
import { LEGACY_SSE } from "./legacy-sse";

/** The edge's binding, serving the 2024-11-05 transport where its options name its paths (the default). */
function withLegacyTransport<Env>(edge: BoundEdge<Env>, factory: string): EdgeBinding<Env> {
  const binding = bindingOf(edge, factory);
  if (binding.options.legacySsePath !== undefined) binding.seams.legacy ??= LEGACY_SSE;
  return binding;
}

/**
 * @deprecated Pass `sessions()` in createMcpEdge's `features` and export `edge.objects.McpSession`
 * (and `legacySse()` for clients that speak only the 2024-11-05 HTTP+SSE transport); this factory goes
 * in the next minor release. The session object class of a served server.
 */
export function sessionObject<Env>(edge: BoundEdge<Env>): ObjectClass<McpSessionObject<Env>, Env> {
  return sessionClass(withLegacyTransport(edge, "sessionObject"));
}

/**
 * @deprecated Pass `deferredSessions()` in createMcpEdge's `features` and export
 * `edge.objects.McpSession`; this factory goes in the next minor release. The session object class
 * of an edge with deferred sessions; it also makes the edge's Worker mint deferred ids (when
 * `MCP_STATE_SECRET` is set; without it every session gets its object at `initialize`).
 */
export function deferredSessionObject<Env>(edge: BoundEdge<Env>): ObjectClass<McpSessionObject<Env>, Env> {
  const binding = withLegacyTransport(edge, "deferredSessionObject");
  binding.seams.sealer ??= SESSION_SEALER;
  return deferredSessionClass(binding);
}
