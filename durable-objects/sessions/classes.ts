/**
 * The session object classes, made in one place: `sessionClass(kernel)` for the `sessions()` feature
 * (`edge.objects.McpSession`), and the deprecated `sessionObject(edge)` that makes the same class.
 * Deferred sessions' class is made beside their seal (deferred.ts).
 */
import { bindingOf, type BoundEdge, type EdgeBinding, type ObjectClass } from "../shared/edge-binding";
import { McpSessionObject } from "./mcp-session";

/** The session object class bound to `kernel`: its server, session options and observer. */
export function sessionClass<Env>(kernel: EdgeBinding<Env>): ObjectClass<McpSessionObject<Env>, Env> {
  return class McpSession extends McpSessionObject<Env> {
    constructor(ctx: DurableObjectState, env: Env) {
      super(ctx, env, kernel);
    }
  };
}

/**
 * @deprecated Pass `sessions()` in createMcpEdge's `features` and export `edge.objects.McpSession`;
 * this factory goes in the next minor release. The session object class of a served server.
 */
export function sessionObject<Env>(edge: BoundEdge<Env>): ObjectClass<McpSessionObject<Env>, Env> {
  return sessionClass(bindingOf(edge, "sessionObject"));
}
