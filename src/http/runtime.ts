/** What every Worker-side module of one mounted MCP server shares. */
import type { SessionObjectRpc } from "../../durable-objects/sessions/contract";
import type { EdgeEnv } from "../kernel/env";
import type { Kernel } from "../kernel/feature";
import type { McpServer } from "../mcp/definition/server";
import type { ResolvedOptions } from "../kernel/options";

export type { EdgeEnv };

export interface EdgeRuntime<Env> {
  /** The server as this edge serves it (the kernel's view: its features' methods included). */
  server: McpServer<Env>;
  options: ResolvedOptions;
  /** The edge's kernel: its features and the seams they fill. */
  kernel: Kernel<Env>;
  sessionNamespace(env: Env): DurableObjectNamespace<SessionObjectRpc>;
}

/**
 * The object id part of a request's Mcp-Session-Id: the whole id, or with deferred sessions the
 * 64 characters before its "." (the object opens the rest, durable-objects/sessions/deferred.ts).
 */
export function objectKeyOf<Env>(runtime: EdgeRuntime<Env>, sessionId: string): string {
  return sessionId[64] === "." && runtime.kernel.seams.sealer ? sessionId.slice(0, 64) : sessionId;
}
