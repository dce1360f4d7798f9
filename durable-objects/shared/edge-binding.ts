/**
 * What every Durable Object class is bound to: the server definition, its resolved options and
 * its observer (tracer, `onEvent`, analytics), held by the value createMcpEdge returns under a
 * symbol. `sessionObject(edge)`, `hubObject(edge)`, `taskObject(edge)` and `userObject(edge)` read
 * it from the edge they are given and pass it to the class they make: no object looks its server
 * or tracer up in module state, so two edges in one isolate never share either.
 */
import type { McpServer } from "../../src/mcp/definition/server";
import type { Observer } from "../../src/mcp/operations/observe";
import type { ResolvedOptions } from "../../src/options";
import type { SessionState } from "../../src/mcp/definition/context";

/** What `deferredSessionObject(edge)` installs for the Worker: it mints deferred session ids (their objects open them). */
export interface SessionSealer {
  /**
   * The id of a new session whose object is `objectId` and not made yet; undefined without a usable
   * secret, or for a state too large to seal (then it is made now).
   */
  mint(env: unknown, objectId: string, state: SessionState): Promise<string | undefined>;
}

export const EDGE_BINDING: unique symbol = Symbol("mcp-edge.binding");

export interface EdgeBinding<Env> {
  readonly server: McpServer<Env>;
  readonly options: ResolvedOptions;
  /** Set when the server is observed (the `tracing`, `onEvent` or `analytics` option). */
  readonly observer: Observer | undefined;
  /** Installed by deferredSessionObject(edge): sessions get their object when they first need state. */
  sealer?: SessionSealer;
}

/** A value createMcpEdge returned (McpEdge carries this member). */
export interface BoundEdge<Env> {
  readonly [EDGE_BINDING]: EdgeBinding<Env>;
}

/** A Durable Object class as workerd constructs it: what each factory returns. */
export type ObjectClass<T, Env> = new (ctx: DurableObjectState, env: Env) => T;

/** The binding of an edge createMcpEdge returned; a TypeError naming `factory` for anything else. */
export function bindingOf<Env>(edge: BoundEdge<Env>, factory: string): EdgeBinding<Env> {
  const binding = (edge as Partial<BoundEdge<Env>> | null | undefined)?.[EDGE_BINDING];
  if (!binding) throw new TypeError(`mcp-edge ${factory}(edge): pass the object createMcpEdge returned`);
  return binding;
}
