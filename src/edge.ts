/**
 * createMcpEdge: turns a server definition into the Worker's fetch handler and the session
 * Durable Object class. Export both from your Worker entry; compose with your own routes
 * through `fallback` or `handle`.
 */
import { requireSessionNamespace } from "./platform/bindings";
import { createSessionClass, type McpSessionObject } from "../durable-objects/session/mcp-session";
import { createRouter } from "./http/router";
import type { EdgeEnv, EdgeRuntime } from "./http/runtime";
import type { ServerDefinition } from "./mcp/definition/server";
import { resolveOptions, type EdgeOptions } from "./options";
import { bindEdge, setObserver } from "./mcp/operations/observe";
import { bindTasks } from "./tasks/options";
import { installUserStores } from "./mcp/dispatch/user-seam";
import { userStore } from "./user";

/** A Worker's fetch function, as `export default { fetch }` takes it. */
export type WorkerFetch<Env> = (request: Request, env: Env, ctx: ExecutionContext) => Promise<Response>;

export interface McpEdge<Env> {
  /**
   * `export default edge.worker`. Paths mcp-edge does not serve go to the `fallback` option,
   * or get a 404 JSON-RPC error without one.
   */
  worker: { fetch: WorkerFetch<Env> };
  /**
   * Answers a request for one of mcp-edge's paths (the endpoint, the stateless path, the legacy
   * transport, the auth metadata) and resolves `undefined` for any other path, untouched and
   * unchecked, so your own router can answer it.
   */
  handle(request: Request, env: Env, ctx: ExecutionContext): Promise<Response | undefined>;
  /** `export const McpSession = edge.SessionObject` (the class named in wrangler.toml). */
  SessionObject: typeof McpSessionObject<Env>;
  // The hub's class is `hubObject(edge)` (durable-objects/hub/mcp-hub.ts) and the task object's
  // `taskObject(edge)` (durable-objects/task/mcp-task.ts), not members: a member would put them in
  // the bundle of every Worker, and a server without subscriptions or task tools has neither.
}

// `Env` is whatever the server was defined with (none: unknown); the runtime reads only the
// bindings EdgeEnv names, so a server typed for any Env is served without a variance error.
export function createMcpEdge<Env = unknown>(server: ServerDefinition<Env>, options: EdgeOptions<NoInfer<Env>> = {}): McpEdge<Env> {
  const resolved = resolveOptions(options);
  installUserStores(userStore);
  setObserver(server, options.tracing, { onEvent: options.onEvent, analytics: options.analytics });
  const runtime: EdgeRuntime<Env & EdgeEnv> = {
    server: server as ServerDefinition<Env & EdgeEnv>,
    options: resolved,
    sessionNamespace(env) {
      return requireSessionNamespace(env);
    },
  };
  const route = createRouter(runtime);
  const fallback = options.fallback;
  const handle = (request: Request, env: Env, ctx: ExecutionContext) => route(request, env as Env & EdgeEnv, ctx, true);
  const edge: McpEdge<Env> = {
    worker: {
      fetch: async (request, env, ctx) => {
        if (!fallback) return (await route(request, env as Env & EdgeEnv, ctx, false)) as Response;
        return (await handle(request, env, ctx)) ?? fallback(request, env, ctx);
      },
    },
    handle,
    SessionObject: createSessionClass(server, resolved.session),
  };
  bindEdge(edge, server);
  bindTasks(edge, server, resolved.tasks);
  return edge;
}
