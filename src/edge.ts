/**
 * createMcpEdge: turns a server definition and the features it is served with into the Worker's
 * fetch handler and the Durable Object classes of those features (`edge.objects`). Export them from
 * your Worker entry; compose with your own routes through `fallback` or `handle`.
 */
import { requireNamespace } from "./platform/bindings";
import { EDGE_BINDING, type EdgeBinding } from "../durable-objects/shared/edge-binding";
import { createRouter } from "./http/router";
import type { EdgeEnv, EdgeRuntime } from "./http/runtime";
import type { ServerDefinition } from "./mcp/definition/server";
import { resolveOptions, type EdgeOptions } from "./kernel/options";
import { buildKernel } from "./kernel/kernel";
import type { Feature, FeatureObject } from "./kernel/feature";
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
   * The Durable Object classes of the features this edge serves, by the name to export them as:
   * `export const { McpSession, McpTask } = edge.objects` (bound in wrangler.toml as MCP_SESSION, MCP_TASK).
   */
  readonly objects: Readonly<Record<string, FeatureObject>>;
  /** The edge's kernel, which the deprecated object factories (`sessionObject(edge)`, …) bind their class to. */
  readonly [EDGE_BINDING]: EdgeBinding<Env>;
}

// `Env` is whatever the server was defined with (none: unknown); the runtime reads only the
// bindings EdgeEnv names, so a server typed for any Env is served without a variance error.
export function createMcpEdge<Env = unknown>(server: ServerDefinition<Env>, options: EdgeOptions<NoInfer<Env>> = {}): McpEdge<Env> {
  const resolved = resolveOptions(options);
  const { kernel, objects } = buildKernel({
    server,
    options: resolved,
    observe: { tracing: options.tracing, events: { onEvent: options.onEvent, analytics: options.analytics } },
    // A feature made for any Env (`tasks()`) serves this one: it reads only the bindings it names.
    features: (options.features ?? []) as readonly Feature<Env>[],
    // Without `features` (the idiom before them) `ctx.user` is served as it always was; the old
    // factories (`taskObject(edge)`, …) fill the other seams when they are called.
    defaultUsers: options.features === undefined ? userStore : undefined,
  });
  const runtime: EdgeRuntime<Env & EdgeEnv> = {
    server: kernel.server as ServerDefinition<Env & EdgeEnv>,
    options: resolved,
    kernel: kernel as EdgeBinding<Env & EdgeEnv>,
    sessionNamespace(env) {
      // A MisconfiguredError naming the wrangler.toml lines to add when it is missing.
      return requireNamespace(env, "MCP_SESSION");
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
    objects,
    [EDGE_BINDING]: kernel,
  };
}
