/** What every Worker-side module of one mounted MCP server shares. */
import type { SessionObjectRpc } from "../../durable-objects/session/contract";
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
