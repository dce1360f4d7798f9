/** What every Worker-side module of one mounted MCP server shares. */
import type { SessionObjectRpc } from "../../durable-objects/sessions/contract";
import type { SessionSealer } from "../../durable-objects/shared/edge-binding";
import type { EdgeEnv } from "../env";
import type { McpServer } from "../mcp/definition/server";
import type { ResolvedOptions } from "../options";

export type { EdgeEnv };

export interface EdgeRuntime<Env> {
  server: McpServer<Env>;
  options: ResolvedOptions;
  sessionNamespace(env: Env): DurableObjectNamespace<SessionObjectRpc>;
  /** The edge's deferred-session sealer, once deferredSessionObject(edge) installed it. */
  sealer(): SessionSealer | undefined;
}

/**
 * The object id part of a request's Mcp-Session-Id: the whole id, or with deferred sessions the
 * 64 characters before its "." (the object opens the rest, durable-objects/sessions/deferred.ts).
 */
export function objectKeyOf<Env>(runtime: EdgeRuntime<Env>, sessionId: string): string {
  return sessionId[64] === "." && runtime.sealer() ? sessionId.slice(0, 64) : sessionId;
}
