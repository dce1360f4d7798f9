/**
 * createMcpEdge: turns a server definition into the Worker's fetch handler and the value every
 * Durable Object class is made from (`sessionObject(edge)`, `hubObject(edge)`, `taskObject(edge)`,
 * `userObject(edge)`). Export them from your Worker entry; compose with your own routes through
 * `fallback` or `handle`.
 */
import { requireNamespace } from "./platform/bindings";
import { sessionObject, type McpSessionObject } from "../durable-objects/sessions/mcp-session";
import { EDGE_BINDING, type EdgeBinding, type ObjectClass } from "../durable-objects/shared/edge-binding";
import { createRouter } from "./http/router";
import type { EdgeEnv, EdgeRuntime } from "./http/runtime";
import type { ServerDefinition } from "./mcp/definition/server";
import { resolveOptions, type EdgeOptions } from "./options";
import { setObserver } from "./mcp/operations/observe";
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
  /**
   * @deprecated Use `export const McpSession = sessionObject(edge)`, the idiom of every object class;
   * this member is the same class and goes in the next minor release.
   */
  SessionObject: ObjectClass<McpSessionObject<Env>, Env>;
  /**
   * The server, its options and its observer, which the object factories bind their class to
   * (durable-objects/shared/edge-binding.ts). The factories are functions, not members: a member
   * would put the hub and the task object in the bundle of every Worker.
   */
  readonly [EDGE_BINDING]: EdgeBinding<Env>;
}

// `Env` is whatever the server was defined with (none: unknown); the runtime reads only the
// bindings EdgeEnv names, so a server typed for any Env is served without a variance error.
export function createMcpEdge<Env = unknown>(server: ServerDefinition<Env>, options: EdgeOptions<NoInfer<Env>> = {}): McpEdge<Env> {
  const resolved = resolveOptions(options);
  installUserStores(userStore);
  const observer = setObserver(server, options.tracing, { onEvent: options.onEvent, analytics: options.analytics });
  const binding: EdgeBinding<Env> = { server, options: resolved, observer };
  const runtime: EdgeRuntime<Env & EdgeEnv> = {
    server: server as ServerDefinition<Env & EdgeEnv>,
    options: resolved,
    sessionNamespace(env) {
      // A MisconfiguredError naming the wrangler.toml lines to add when it is missing.
      return requireNamespace(env, "MCP_SESSION");
    },
    sealer() {
      return binding.sealer;
    },
  };
  const route = createRouter(runtime);
  const fallback = options.fallback;
  const handle = (request: Request, env: Env, ctx: ExecutionContext) => route(request, env as Env & EdgeEnv, ctx, true);
  return {
    worker: {
      async fetch(request, env, ctx) {
        if (!fallback) return (await route(request, env as Env & EdgeEnv, ctx, false)) as Response;
        return (await handle(request, env, ctx)) ?? fallback(request, env, ctx);
      },
    },
    handle,
    SessionObject: sessionObject({ [EDGE_BINDING]: binding }),
    [EDGE_BINDING]: binding,
  };
}
