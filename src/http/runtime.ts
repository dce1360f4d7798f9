/** What every Worker-side module of one mounted MCP server shares. */
import type { McpSessionObject } from "../../durable-objects/mcp-session";
import type { McpServer } from "../mcp/server";
import type { ResolvedOptions } from "../options";

/** The bindings mcp-edge reads. Your own Env extends this. */
export interface EdgeEnv {
  MCP_SESSION?: DurableObjectNamespace<McpSessionObject>;
  /** Comma-separated host names added to `allowedHosts`. */
  MCP_ALLOWED_HOSTS?: string;
  /** Comma-separated origins added to `allowedOrigins`. */
  MCP_ALLOWED_ORIGINS?: string;
}

export interface EdgeRuntime<Env> {
  server: McpServer<Env>;
  options: ResolvedOptions;
  sessionNamespace(env: Env): DurableObjectNamespace<McpSessionObject>;
}
