/**
 * The Worker's route table (itty-router): POST/GET/DELETE on the MCP endpoint, OPTIONS for
 * CORS preflight, 405 with Allow for other methods, 404 elsewhere. Host/Origin checks run
 * first on every route; CORS headers are added to every answer for an allowed Origin. An
 * endpoint whose path names parameters (`/mcp/:tenant`) hands their values to every lane.
 */
import { Router } from "itty-router/Router";
import type { IRequest } from "itty-router";
import { observerOf } from "../mcp/operations/observe";
import { sessionObjectId } from "../platform/addresses";
import { objectKeyOf } from "./runtime";
import { checkHostAndOrigin, checkProtocolVersionHeader, type OriginPolicy } from "./guards";
import { checkAccept } from "../wire/request-checks";
import {
  HEADER_LAST_EVENT_ID,
  HEADER_MCP_METHOD,
  HEADER_MCP_NAME,
  HEADER_MCP_PARAM_PREFIX,
  HEADER_PROTOCOL_VERSION,
  HEADER_SESSION_ID,
} from "../wire/headers";
import { handlePost } from "./post";
import { refuse } from "../wire/refusals";
import type { EdgeEnv, EdgeRuntime } from "./runtime";
import { MisconfiguredError, disclosingEnv } from "../platform/bindings";
import { isLocalRequest } from "../wire/loopback";
import { edgeRequest, type Arrival, type EdgeRequest } from "./edge-request";
import { forwardRequest } from "../../durable-objects/sessions/contract";
import { NO_PARAMS } from "../wire/route-params";
import type { RoutePattern } from "../wire/route-pattern";
import { holdStream } from "../platform/held-stream";
import { sessionStreamHold } from "../kernel/session-streams";
import { reportUnexpected } from "../mcp/operations/unexpected";

const ALLOW_HEADERS = [
  "Content-Type",
  "Accept",
  "Authorization",
  // RFC 9449: the proof a DPoP-bound token travels with.
  "DPoP",
  HEADER_SESSION_ID,
  HEADER_PROTOCOL_VERSION,
  HEADER_LAST_EVENT_ID,
  HEADER_MCP_METHOD,
  HEADER_MCP_NAME,
].join(", ");
const EXPOSE_HEADERS = [
  HEADER_SESSION_ID,
  HEADER_PROTOCOL_VERSION,
  "WWW-Authenticate",
  "DPoP-Nonce",
  HEADER_MCP_METHOD,
  HEADER_MCP_NAME,
].join(", ");

/**
 * 2026-07-28 `Mcp-Param-<name>` headers (tool parameters marked x-mcp-header) cannot be listed
 * ahead of time, and a wildcard is ignored for credentialed requests: the preflight allows the
 * ones the browser asks for, and only those.
 */
function allowedHeaders(request: IRequest): string {
  const asked = request.headers.get("Access-Control-Request-Headers") ?? "";
  const prefix = HEADER_MCP_PARAM_PREFIX.toLowerCase();
  const params = asked
    .split(",")
    .map((h) => h.trim())
    .filter((h) => h.toLowerCase().startsWith(prefix) && /^[A-Za-z0-9-]{1,128}$/.test(h));
  return params.length === 0 ? ALLOW_HEADERS : `${ALLOW_HEADERS}, ${params.join(", ")}`;
}

function splitList(value: string | undefined): string[] {
  return value
    ? value
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s.length > 0)
    : [];
}

/**
 * The Host/Origin policy: the options plus the env's lists. Built once per distinct env value
 * (in practice once per isolate), not on every request.
 */
function policySource<Env extends EdgeEnv>(runtime: EdgeRuntime<Env>): (env: Env) => OriginPolicy {
  let cached: { hosts: string | undefined; origins: string | undefined; policy: OriginPolicy } | undefined;
  return (env) => {
    const hosts = env.MCP_ALLOWED_HOSTS;
    const origins = env.MCP_ALLOWED_ORIGINS;
    if (cached && cached.hosts === hosts && cached.origins === origins) return cached.policy;
    const policy: OriginPolicy = {
      allowedHosts: [...runtime.options.allowedHosts, ...splitList(hosts).map((h) => h.toLowerCase())],
      allowedOrigins: [...runtime.options.allowedOrigins, ...splitList(origins)],
    };
    cached = { hosts, origins, policy };
    return policy;
  };
}

function withCors(response: Response, origin: string | undefined): Response {
  if (!origin) return response;
  const headers = new Headers(response.headers);
  headers.set("Access-Control-Allow-Origin", origin);
  headers.set("Access-Control-Expose-Headers", EXPOSE_HEADERS);
  headers.append("Vary", "Origin");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers, webSocket: response.webSocket });
}

function preflight(request: IRequest, origin: string | undefined, methods: string): Response {
  const headers: Record<string, string> = {
    "Access-Control-Allow-Methods": methods,
    "Access-Control-Allow-Headers": allowedHeaders(request),
    "Access-Control-Max-Age": "86400",
  };
  // Vary: Origin is added by withCors, which wraps every answer; setting it here too repeated it.
  if (origin) headers["Access-Control-Allow-Origin"] = origin;
  return new Response(null, { status: 204, headers });
}

/** The itty-router handler answering a path's CORS preflight, allowing `methods`. */
function preflightFor<Env extends EdgeEnv>(methods: string) {
  return (request: IRequest, _env: Env, _ctx: ExecutionContext, origin: string | undefined) => preflight(request, origin, methods);
}

function methodNotAllowed(allow: string): Response {
  return refuse({ reason: "method-not-allowed", allow });
}

/** GET and DELETE need a live session: checked in the Worker, then handed to the session object. */
async function forwardToSession<Env extends EdgeEnv>(edge: EdgeRequest<Env>): Promise<Response> {
  const { request, env, runtime, principal, params } = edge;
  const refused =
    checkProtocolVersionHeader(request) ?? (request.method === "GET" ? checkAccept(request, ["text/event-stream"]) : undefined);
  if (refused) return refused;
  const sessionId = request.headers.get(HEADER_SESSION_ID);
  if (sessionId === null) return refuse({ reason: "session-id-required", afterInitialize: false });
  const namespace = runtime.sessionNamespace(env);
  const id = sessionObjectId(namespace, objectKeyOf(runtime, sessionId));
  if (!id) return refuse({ reason: "session-not-found" });
  // The cost counters: one Durable Object request, an event named after the HTTP method ("GET", "DELETE").
  const span = observerOf(runtime.server)?.start({ method: request.method, params: {}, sessionId: sessionId.slice(0, 64) }, "forward", env);
  span?.countDoRequests();
  try {
    const forwarded = forwardRequest(request, principal, params);
    if (request.method !== "GET") return await namespace.get(id).fetch(forwarded);
    // The standalone stream (or its resumption) is held here; the session object sleeps behind its socket (src/platform/held-stream.ts).
    const headers = new Headers(forwarded.headers);
    headers.set("Upgrade", "websocket");
    const answer = await namespace.get(id).fetch(new Request(forwarded.url, { method: "GET", headers }));
    return await holdStream(answer, sessionStreamHold(runtime.options, principal, "get"));
  } catch (error) {
    span?.threw(error);
    throw error;
  } finally {
    span?.end();
  }
}

/** A route's handler: what arrived (the request, the env, the parameters the endpoint's path took from it). */
type RouteHandler<Env> = (arrival: Arrival<Env>) => Promise<Response>;

/**
 * Auth: a route handler behind the resource server's gate (the `auth()` feature: 401/403/400 before
 * any MCP work), handed the request's one value (edge-request.ts) with the verified principal, checked
 * on the request's own route. Without a gate, the handler with no principal. `sessions`: whether the
 * endpoint serves sessions.
 */
function guarded<Env extends EdgeEnv>(
  runtime: EdgeRuntime<Env>,
  sessions: boolean,
  handler: (edge: EdgeRequest<Env>) => Promise<Response>,
): RouteHandler<Env> {
  const gate = runtime.kernel.gate;
  if (!gate) return (arrival) => handler(edgeRequest(arrival, runtime, undefined, sessions));
  return async (arrival) => {
    const outcome = await gate.authenticate(arrival.request, arrival.params, arrival.env);
    return outcome.ok ? handler(edgeRequest(arrival, runtime, outcome.principal, sessions)) : outcome.response;
  };
}

/**
 * The itty-router handler of a route handler: the parameters read from the path by the
 * endpoint's pattern (itty-router's own are not decoded), 404 when a value does not decode.
 */
function routed<Env extends EdgeEnv>(runtime: EdgeRuntime<Env>, route: RoutePattern, handler: RouteHandler<Env>) {
  if (route.names.length === 0)
    return (request: IRequest, env: Env, ctx: ExecutionContext) =>
      handler({ request: request as unknown as Request, env, ctx, params: NO_PARAMS });
  return (request: IRequest, env: Env, ctx: ExecutionContext) => {
    const params = route.match(new URL(request.url).pathname);
    if (!params) return refuse({ reason: "not-found", endpoint: runtime.options.path });
    return handler({ request: request as unknown as Request, env, ctx, params });
  };
}
/**
 * Answers one request. With `fallthrough`, a path mcp-edge does not serve resolves undefined
 * before any check, so the Worker's own routes can answer it; without, it gets 404.
 */
export type EdgeHandler<Env> = (request: Request, env: Env, ctx: ExecutionContext, fallthrough: boolean) => Promise<Response | undefined>;

/**
 * Every path this server answers besides its features' routes: the endpoint(s), the legacy transport.
 * Literal paths by lookup; those naming parameters by their patterns (`owns`, `isSessionPath`).
 */
function ownedPaths<Env extends EdgeEnv>(runtime: EdgeRuntime<Env>) {
  const { options } = runtime;
  const sessionPaths = new Set<string>();
  const patterns: RoutePattern[] = [];
  const add = (set: Set<string>, route: RoutePattern) => (route.names.length > 0 ? patterns.push(route) : set.add(route.path));
  if (options.sessions) {
    add(sessionPaths, options.route);
    if (options.legacySsePath && options.legacyMessagesPath) {
      sessionPaths.add(options.legacySsePath);
      sessionPaths.add(options.legacyMessagesPath);
    }
  }
  const sessionPatterns = [...patterns];
  const all = new Set<string>(sessionPaths);
  add(all, options.route);
  if (options.statelessRoute) add(all, options.statelessRoute);
  const matches = (list: RoutePattern[], pathname: string) => list.length > 0 && list.some((p) => p.match(pathname) !== undefined);
  return {
    owns(pathname: string) {
      return all.has(pathname) || matches(patterns, pathname);
    },
    isSessionPath(pathname: string) {
      return sessionPaths.has(pathname) || matches(sessionPatterns, pathname);
    },
  };
}

/**
 * What a route's exception becomes: a misconfiguration's own refusal, else a logged 500. A POST's
 * misconfiguration is answered with its request's id before it gets here (post.ts); what reaches
 * this has no id to read (a GET, a DELETE, the legacy transport's stream).
 */
function failed(error: unknown): Response {
  if (error instanceof MisconfiguredError) return refuse(error.refusal);
  return refuse({ reason: "internal", reference: reportUnexpected("request", error) });
}

/** The router of the mcp-edge paths; its fourth argument is the request's allowed Origin (or undefined), decided once per request. */
function newRouter<Env extends EdgeEnv>() {
  return Router<IRequest, [Env, ExecutionContext, string | undefined]>({ catch: failed });
}

type EdgeRouter<Env extends EdgeEnv> = ReturnType<typeof newRouter<Env>>;

/**
 * The endpoints' POST handlers: every MCP message is a POST to one of them, found before
 * itty-router, which routes everything else, trailing slashes included (each of its routings
 * parses the URL again and scans its routes). A literal path by one lookup (`exact`); a path
 * naming parameters by its pattern (`patterns`, tried only when the lookup misses).
 */
interface PostRoutes<Env> {
  exact: Map<string, RouteHandler<Env>>;
  patterns: { route: RoutePattern; post: RouteHandler<Env> }[];
}

/** The routes being mounted: itty-router's, and the endpoints' POSTs found before it. */
interface EdgeRoutes<Env extends EdgeEnv> {
  router: EdgeRouter<Env>;
  posts: PostRoutes<Env>;
}

/** The MCP endpoint at `route`: POST always; GET and DELETE with sessions; 405 for the rest. */
function mountEndpoint<Env extends EdgeEnv>(
  routes: EdgeRoutes<Env>,
  runtime: EdgeRuntime<Env>,
  route: RoutePattern,
  sessions: boolean,
): void {
  const { router, posts } = routes;
  const path = route.path;
  const allow = sessions ? "GET, POST, DELETE, OPTIONS" : "POST, OPTIONS";
  const post = guarded(runtime, sessions, handlePost);
  // The exact path by lookup (or its pattern); itty-router still matches the rest of what it matches (`/mcp/`).
  if (route.names.length === 0) posts.exact.set(path, post);
  else posts.patterns.push({ route, post });
  router.post(path, routed(runtime, route, post));
  router.options(path, preflightFor<Env>(allow));
  if (sessions) {
    const forward = routed(runtime, route, guarded(runtime, sessions, forwardToSession));
    router.get(path, forward);
    router.delete(path, forward);
  }
  // 2025-06-18 Streamable HTTP: a server without a GET stream answers 405.
  router.all(path, () => methodNotAllowed(allow));
}

/**
 * The 2024-11-05 HTTP+SSE transport's paths, when they are configured (`legacySse()`, or the idiom before
 * features): a GET on the stream path and a POST on the messages path are handed, after the Host/Origin
 * check and auth, to the kernel's `legacy` seam, whose Worker half checks and serves them. The seam is
 * read per request, because the deprecated `sessionObject(edge)` fills it after the edge is made;
 * unfilled, the paths are answered as unknown paths.
 */
function mountLegacyTransport<Env extends EdgeEnv>(router: EdgeRouter<Env>, runtime: EdgeRuntime<Env>): void {
  const { legacySsePath, legacyMessagesPath } = runtime.options;
  if (!legacySsePath || !legacyMessagesPath) return;
  const handOff = guarded(runtime, true, async (edge) => {
    const seam = runtime.kernel.seams.legacy;
    if (!seam) return refuse({ reason: "not-found", endpoint: runtime.options.path });
    return seam.serve(edge, legacyMessagesPath);
  });
  const route = (request: IRequest, env: Env, ctx: ExecutionContext) =>
    handOff({ request: request as unknown as Request, env, ctx, params: NO_PARAMS });
  router.get(legacySsePath, route);
  router.post(legacyMessagesPath, route);
  router.options(legacySsePath, preflightFor<Env>("GET, OPTIONS"));
  router.options(legacyMessagesPath, preflightFor<Env>("POST, OPTIONS"));
}

/** Builds the fetch handler for one server. */
export function createRouter<Env extends EdgeEnv>(runtime: EdgeRuntime<Env>): EdgeHandler<Env> {
  const policyFor = policySource(runtime);
  const paths = ownedPaths(runtime);
  // The paths features answer beside the endpoint (the Server Card, …), made once: a bad option throws now.
  const kernel = runtime.kernel;
  const featureRoutes = kernel.features.flatMap((feature) => (feature.routes ? [feature.routes(kernel)] : []));
  // The session endpoints need the session binding, checked at the first request whatever its
  // era: a 2026-07-28 request needs no session itself, but a deployment missing the binding hears
  // it from its first client, not from its first 2025 one (a server of 2026-07-28 only has none).
  const needsSession = (pathname: string) => runtime.options.eras.era2025 && paths.isSessionPath(pathname);
  const router = newRouter<Env>();
  const posts: PostRoutes<Env> = { exact: new Map(), patterns: [] };
  // 2026-07-28 only: no sessions, so GET and DELETE answer 405 (streamable-http.mdx "Earlier Streamable HTTP Revisions").
  const serves2025 = runtime.options.eras.era2025;
  const routes = { router, posts };
  mountEndpoint(routes, runtime, runtime.options.route, runtime.options.sessions && serves2025);
  if (runtime.options.sessions && serves2025) mountLegacyTransport(router, runtime);
  if (runtime.options.statelessRoute) mountEndpoint(routes, runtime, runtime.options.statelessRoute, false);
  router.all("*", () => refuse({ reason: "not-found", endpoint: runtime.options.path }));

  return async (request, deployedEnv, ctx, fallthrough) => {
    const url = new URL(request.url);
    // Local development reads a misconfiguration's fix in the answer; a deployed Worker's clients only its log reference.
    const env = isLocalRequest(request, url) ? disclosingEnv(deployedEnv) : deployedEnv;
    const pathname = url.pathname;
    const featureRoute = featureRoutes.find((routes) => routes.owns(pathname));
    if (fallthrough && !paths.owns(pathname) && !featureRoute) return undefined;
    // A feature's documents are public metadata for any page (the Server Card extension's CORS requirements):
    // the Host check still applies, the Origin check does not.
    if (featureRoute) {
      const host = checkHostAndOrigin(request, url, { ...policyFor(env), allowedOrigins: ["*"] });
      return host instanceof Response ? host : featureRoute.serve(request, pathname);
    }
    // Host and Origin first, on every route (DNS-rebinding protection); a refusal gets no CORS headers.
    const checked = checkHostAndOrigin(request, url, policyFor(env));
    if (checked instanceof Response) return checked;
    // An endpoint's POST checks it itself, once its body gives the id to answer with (post.ts).
    const endpointPost = request.method === "POST" && isEndpoint(posts, pathname);
    if (request.method !== "OPTIONS" && !endpointPost && needsSession(pathname)) {
      try {
        runtime.sessionNamespace(env);
      } catch (error) {
        if (error instanceof MisconfiguredError) return withCors(refuse(error.refusal), checked);
        throw error;
      }
    }
    const response: Response =
      request.method === "POST"
        ? await postTo(posts, { request, env, ctx, params: NO_PARAMS }, pathname, () => router.fetch(request, env, ctx, checked))
        : await router.fetch(request, env, ctx, checked);
    return withCors(response, checked);
  };
}

/** Whether a path is an MCP endpoint's (a literal path, or one a pattern matches). */
function isEndpoint<Env>(posts: PostRoutes<Env>, pathname: string): boolean {
  return posts.exact.has(pathname) || posts.patterns.some(({ route }) => route.match(pathname) !== undefined);
}

/** A POST: its endpoint's handler by exact path, else by pattern, else whatever itty-router routes it to. */
function postTo<Env>(posts: PostRoutes<Env>, arrival: Arrival<Env>, pathname: string, other: () => Promise<Response>): Promise<Response> {
  const exact = posts.exact.get(pathname);
  if (exact) return exact(arrival).catch(failed);
  for (const { route, post } of posts.patterns) {
    const params = route.match(pathname);
    if (params) return post({ ...arrival, params }).catch(failed);
  }
  return other();
}
