/**
 * createMcpEdge: turns a server definition and the features it is served with into the Worker's
 * fetch handler and the Durable Object classes of those features (`edge.objects`). Export them from
 * your Worker entry; compose with your own routes through `fallback` or `handle`.
 */
import { requireNamespace, SESSION_BINDING } from "./platform/bindings";
import { EDGE_BINDING, type EdgeBinding } from "../durable-objects/shared/edge-binding";
import { createRouter } from "./http/router";
import type { EdgeEnv, EdgeRuntime } from "./http/runtime";
import type { ServerDefinition } from "./mcp/definition/server";
import { resolveOptions, type EdgeOptions } from "./kernel/options";
import { buildKernel } from "./kernel/kernel";
import type { Feature, FeatureObject, StreamLane } from "./kernel/feature";
import { listenWithoutHubLane } from "./features/hub/listen-without-hub";

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
   * transport, the features' routes such as the auth metadata and the Server Card) and resolves `undefined` for any other path, untouched and
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

/**
 * The features, with a lane for `subscriptions/listen`, which every edge answers: the hub's when the
 * features name `hub()`; else the lane the deprecated `hubObject(edge)` put in the kernel's `listen` seam
 * (the idiom before features), else the acknowledged empty set. Only that last lane's checks are
 * imported here: a Worker without the hub bundles nothing of the hub's stream.
 */
function withListen<Env>(features: readonly Feature<Env>[]): readonly Feature<Env>[] {
  if (features.some((f) => f?.streams?.["subscriptions/listen"] !== undefined)) return features;
  const lane: StreamLane<Env> = (call) => (call.kernel.seams.listen ?? listenWithoutHubLane)(call);
  return [...features, { name: "listen-without-hub", streams: { "subscriptions/listen": lane } }];
}

// `Env` is whatever the server was defined with (none: unknown); the runtime reads only the
// bindings EdgeEnv names, so a server typed for any Env is served without a variance error.
export function createMcpEdge<Env = unknown>(server: ServerDefinition<Env>, options: EdgeOptions<NoInfer<Env>> = {}): McpEdge<Env> {
  const resolved = resolveOptions(options);
  const { kernel, objects } = buildKernel({
    server,
    options: resolved,
    // A feature made for any Env (`tasks()`) serves this one: it reads only the bindings it names.
    // Without `features` (the idiom before them) the deprecated factories (`hubObject(edge)`,
    // `taskObject(edge)`, `userObject(edge)`) fill the kernel's seams when they are called.
    features: withListen((options.features ?? []) as readonly Feature<Env>[]),
  });
  const runtime: EdgeRuntime<Env & EdgeEnv> = {
    server: kernel.server as ServerDefinition<Env & EdgeEnv>,
    options: resolved,
    kernel: kernel as EdgeBinding<Env & EdgeEnv>,
    sessionNamespace(env) {
      // A MisconfiguredError naming the wrangler.toml lines to add when it is missing.
      return requireNamespace(env, SESSION_BINDING);
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
