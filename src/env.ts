/** The bindings and variables mcp-edge reads: the only place they are typed. Your own Env extends this. */
import type { McpSessionObject } from "../durable-objects/mcp-session";
import type { McpTaskObject } from "../durable-objects/task/mcp-task";

export interface EdgeEnv {
  /** The session Durable Object namespace (session mode). */
  MCP_SESSION?: DurableObjectNamespace<McpSessionObject>;
  /** The task Durable Object namespace (Tasks extension): needed when a tool declares `task`. */
  MCP_TASK?: DurableObjectNamespace<McpTaskObject>;
  /** Comma-separated host names added to `allowedHosts`. */
  MCP_ALLOWED_HOSTS?: string;
  /** Comma-separated origins added to `allowedOrigins`. */
  MCP_ALLOWED_ORIGINS?: string;
}
