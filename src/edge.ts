/**
 * createMcpEdge: turns a server definition into the Worker's fetch handler and the session
 * Durable Object class. Export both from your Worker entry.
 */
import { createSessionClass, type McpSessionObject } from "../durable-objects/mcp-session";
import { createTaskClass, type McpTaskObject } from "../durable-objects/task/mcp-task";
import { createRouter } from "./http/router";
import type { EdgeEnv, EdgeRuntime } from "./http/runtime";
import type { McpServer } from "./mcp/server";
import { resolveOptions, type EdgeOptions } from "./options";

export interface McpEdge<Env extends EdgeEnv> {
  /** `export default edge.worker` */
  worker: ExportedHandler<Env>;
  /** `export const McpSession = edge.SessionObject` (the class named in wrangler.toml). */
  SessionObject: typeof McpSessionObject<Env>;
  /** `export const McpTask = edge.TaskObject` (Tasks extension; bound as MCP_TASK). */
  TaskObject: typeof McpTaskObject<Env>;
}

export function createMcpEdge<Env extends EdgeEnv>(server: McpServer<Env>, options: EdgeOptions = {}): McpEdge<Env> {
  const resolved = resolveOptions(options);
  const rt: EdgeRuntime<Env> = {
    server,
    options: resolved,
    sessionNamespace(env) {
      const namespace = env.MCP_SESSION;
      if (!namespace) {
        throw new Error("mcp-edge: session mode needs the MCP_SESSION Durable Object binding (see wrangler.toml), or set sessions: false");
      }
      return namespace;
    },
  };
  const fetch = createRouter(rt);
  return {
    worker: { fetch: (request, env, ctx) => fetch(request, env, ctx) },
    SessionObject: createSessionClass(server, resolved.session),
    TaskObject: createTaskClass(server, resolved.tasks),
  };
}
