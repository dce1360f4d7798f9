/**
 * What every Durable Object class is bound to: the edge's kernel (the server as it serves it, the
 * resolved options, the observer, the features and their seams), held by the value createMcpEdge
 * returns under a symbol. A feature's `objects(kernel)` makes its classes from it (the deprecated
 * `sessionObject(edge)`, … read it from the edge they are given): no object looks its server or
 * tracer up in module state, so two edges in one isolate never share either.
 */
import type { Kernel } from "../../src/kernel/feature";

export type { ObjectClass, SessionSealer } from "../../src/kernel/feature";

export const EDGE_BINDING: unique symbol = Symbol("mcp-edge.binding");

/** The kernel of an edge: what its objects are bound to (src/kernel/feature.ts). */
export type EdgeBinding<Env> = Kernel<Env>;

/** A value createMcpEdge returned (McpEdge carries this member). */
export interface BoundEdge<Env> {
  readonly [EDGE_BINDING]: EdgeBinding<Env>;
}

/** The binding of an edge createMcpEdge returned; a TypeError naming `factory` for anything else. */
export function bindingOf<Env>(edge: BoundEdge<Env>, factory: string): EdgeBinding<Env> {
  const binding = (edge as Partial<BoundEdge<Env>> | null | undefined)?.[EDGE_BINDING];
  if (!binding) throw new TypeError(`mcp-edge ${factory}(edge): pass the object createMcpEdge returned`);
  return binding;
}
