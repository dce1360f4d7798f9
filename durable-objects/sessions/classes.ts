/**
 * The session object class, made for the `sessions()` feature (`edge.objects.McpSession`) and for the
 * deprecated `sessionObject(edge)` (src/features/sessions/session-object.ts). Deferred sessions' class is
 * made beside their seal (deferred.ts).
 */
import type { EdgeBinding, ObjectClass } from "../shared/edge-binding";
import { McpSessionObject } from "./mcp-session";

/** The session object class bound to `kernel`: its server, session options and observer. */
export function sessionClass<Env>(kernel: EdgeBinding<Env>): ObjectClass<McpSessionObject<Env>, Env> {
  return class McpSession extends McpSessionObject<Env> {
    constructor(ctx: DurableObjectState, env: Env) {
      super(ctx, env, kernel);
    }
  };
}
