/**
 * Runtime configuration: what a developer passes to `createMcpEdge`, and the resolved form
 * with every default filled in. Limits live here so the Worker and the session object agree.
 */
import { DEFAULT_HUB_SHARDS } from "../platform/addresses";
import { compileRoute, type RoutePattern } from "../wire/route-pattern";
import { CORE_OPTIONS, type CoreOptions, type Feature } from "./feature";

export interface SessionOptions {
  /** Idle time after which a session and its storage are deleted (default 30 min). */
  idleTimeoutMs?: number;
  /** How long a server-to-client request (sampling, elicitation, roots) waits for its answer (default 60 s). */
  requestTimeoutMs?: number;
  /** Interval of SSE comment keep-alives on open streams (default 15 s). */
  keepAliveMs?: number;
  /** The `retry:` hint sent with the priming event to 2025-11-25 clients (default 1000 ms). */
  retryMs?: number;
  /**
   * 2025-11-25 SSE polling: close a POST stream this long after it opened and let the client
   * resume with Last-Event-ID, so a long-running call does not hold a connection (default: off).
   */
  pollAfterMs?: number;
  /** Events kept per stream; older ones are trimmed (default 10,000). */
  maxEventsPerStream?: number;
  /**
   * Unsent bytes a standalone GET stream or a 2024-11-05 `/sse` stream may hold for a client that is
   * not reading; past it the stream ends and the rest is dropped (default 1 MiB). A GET stream's
   * client resumes with Last-Event-ID and gets every event from the session's log.
   */
  maxBufferedBytes?: number;
  /** Streams kept per session, open or finished-and-replayable (default 100). */
  maxStreams?: number;
  /** Server-to-client requests awaiting an answer at once (default 32). */
  maxPendingRequests?: number;
  /** How long a finished POST stream stays replayable after its response (default 5 min). */
  completedStreamGraceMs?: number;
  /** Resources one session may be subscribed to at once (default 1,000); each URI is at most 8 KiB. */
  maxSubscriptions?: number;
  /**
   * Handlers the session object runs at once (default 256): requests of a POST beyond what is
   * left get a -32003 error each instead of starting.
   */
  maxConcurrentRuns?: number;
}

/** 2026-07-28 `subscriptions/listen` streams, held by the Worker while the hub object sleeps (the `hub()` feature; docs/hub.md "Subscriptions and the hub"). */
export interface ListenOptions {
  /**
   * Hub objects the listen streams (and 2025 subscriptions) spread over (default 16: 16 × 1,000
   * = 16,000 streams). Streams per server = shards × maxStreams; for 1,000,000 streams use 1,000
   * shards (or 500 × 2,000). Every publish reaches each shard once, in parallel. Changing it
   * moves clients between shards: do it with a deploy, listen clients re-listen.
   */
  shards?: number;
  /** Open listen streams one hub object (shard) serves at once; one more gets 429 (default 1,000). */
  maxStreams?: number;
  /**
   * Open listen streams one client holds at most: the principal's subject with auth, else the
   * client address (CF-Connecting-IP). One more gets 429 with Retry-After (default 8).
   */
  maxStreamsPerClient?: number;
  /**
   * Unsent bytes one listen stream may hold for a client that is not reading; past it the stream
   * ends with the listen request's `complete` result and the rest is dropped (default 1 MiB; all
   * streams of one hub shard together hold at most 32 MiB, the largest backlog ended first).
   */
  maxBufferedBytes?: number;
  /** Resource URIs (and task ids) one listen stream may name (default 1,000); each URI is at most 8 KiB. */
  maxSubscriptions?: number;
  /** Interval of SSE comment keep-alives on listen streams (default 15 s). */
  keepAliveMs?: number;
}

export interface ResolvedListenOptions {
  shards: number;
  maxStreams: number;
  maxStreamsPerClient: number;
  maxBufferedBytes: number;
  maxSubscriptions: number;
  keepAliveMs: number;
}

export interface EdgeOptions<Env = unknown> {
  /**
   * What this edge serves besides the protocol core, each a value made by its factory:
   * `[sessions(), tasks(), hub(), user()]`, an `events()` feature, your own extensions (docs/extensions.md).
   * `edge.objects` holds exactly their Durable Object classes. Without this option the edge serves
   * sessions as `sessions` says and the old factories (`sessionObject(edge)`, …) make its classes.
   */
  features?: readonly (Feature<Env> | Feature)[];
  /**
   * The MCP endpoint (default "/mcp"). May name route parameters, e.g. "/mcp/:tenant": handlers
   * read them as `ctx.request.params`, and sessions, tasks and listen streams belong to the
   * route they were opened on (docs/configuration.md "Routes").
   */
  path?: string;
  /**
   * Session mode (default true): a Durable Object per session. False: stateless, Worker only. With
   * `features`, the `sessions()` feature decides it and this option is not given.
   */
  sessions?: boolean;
  /** Also serve the same server statelessly at this path (demo and benchmarks); may name route parameters like `path`. */
  statelessPath?: string;
  /**
   * 2024-11-05 HTTP+SSE transport, without `features` (the idiom before them): the GET stream path
   * (default "/sse"; null turns it off). Session mode only. With `features`, pass `legacySse({ ssePath })`
   * (mcp-edge/sessions) instead; given here then, createMcpEdge throws a TypeError saying so (null is accepted: off).
   */
  legacySsePath?: string | null;
  /**
   * 2024-11-05 HTTP+SSE transport, without `features`: the POST endpoint announced to clients (default
   * "/messages"). With `features`, `legacySse({ messagesPath })`.
   */
  legacyMessagesPath?: string;
  /**
   * Host names (no port) a request may be addressed to, besides the loopback hosts
   * (localhost, 127.0.0.1, [::1]), which are always allowed: the DNS-rebinding check. Add your
   * deployed host name here, or in the MCP_ALLOWED_HOSTS variable (comma-separated). "*"
   * allows any host.
   */
  allowedHosts?: string[];
  /**
   * Browser origins allowed to call the server (CORS and the Origin check), e.g.
   * "https://app.example.com". An Origin whose host is an allowed host is always accepted.
   * Also read from MCP_ALLOWED_ORIGINS. "*" allows any origin (never with credentials).
   */
  allowedOrigins?: string[];
  /** Largest accepted POST body in bytes (default 4 MiB). */
  maxBodyBytes?: number;
  /** Requests of one POST (a batch) that run; each one beyond gets a -32003 error (default 100). */
  maxRunsPerRequest?: number;
  session?: SessionOptions;
  /**
   * Protocol eras served on the endpoint (default both): "2025" is the initialize/session era
   * (2024-11-05 .. 2025-11-25), "2026" the stateless 2026-07-28 revision. The era of each
   * request is decided from its body (docs/eras.md "Protocol eras: 2026-07-28 beside 2025").
   */
  eras?: readonly ("2025" | "2026")[];
  /** 2026-07-28 multi round-trip requests (MRTR): how long a `requestState` stays valid (default 10 min). */
  mrtr?: { stateTtlMs?: number };
  listen?: ListenOptions;
  /**
   * The estimated CPU a held stream (2025 GET, `/sse`, 2026 listen) may spend in its Worker invocation
   * before it ends, resumably: Workers limit CPU per request (`limits.cpu_ms`, default 30 s). Default
   * 20,000 ms (docs/reliability.md "Held streams and the CPU limit").
   */
  streamCpuBudgetMs?: number;
  /** @deprecated A feature now: `features: [discovery(options)]` (mcp-edge/discovery); given here, createMcpEdge throws a TypeError saying so. */
  discovery?: never;
  /** @deprecated A feature now: `features: [rateLimits(rules)]` (mcp-edge/rate-limits); given here, createMcpEdge throws a TypeError saying so. */
  rateLimits?: never;
  /** @deprecated A feature now: `features: [auth({ … })]` (mcp-edge/auth); given here, createMcpEdge throws a TypeError saying so. */
  auth?: never;
  /**
   * Answers every request whose path mcp-edge does not serve (your own routes, assets, a
   * framework's fetch). Those requests reach it untouched, before any Host/Origin or auth check.
   * Without it they get 404.
   */
  fallback?: (request: Request, env: Env, ctx: ExecutionContext) => Response | Promise<Response>;
  /** Tasks extension: default TTL, polling interval and watchdog of tasks. */
  tasks?: TaskOptions;
  /** @deprecated A feature now: `features: [observe({ tracing })]` (mcp-edge/observe); given here, createMcpEdge throws a TypeError saying so. */
  tracing?: never;
  /** @deprecated A feature now: `features: [observe({ onEvent })]` (mcp-edge/observe); given here, createMcpEdge throws a TypeError saying so. */
  onEvent?: never;
  /** @deprecated A feature now: `features: [observe({ analytics })]` (mcp-edge/observe); given here, createMcpEdge throws a TypeError saying so. */
  analytics?: never;
}

export interface ResolvedSessionOptions {
  idleTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveMs: number;
  retryMs: number;
  pollAfterMs: number | undefined;
  maxEventsPerStream: number;
  maxBufferedBytes: number;
  maxStreams: number;
  maxPendingRequests: number;
  completedStreamGraceMs: number;
  maxSubscriptions: number;
  maxConcurrentRuns: number;
  /** The top-level `maxRunsPerRequest`, which the session object enforces too. */
  maxRunsPerRequest: number;
  /** `listen.shards`: the hub's shards a 2025-era session registers with. */
  hubShards: number;
}

export interface ResolvedOptions {
  path: string;
  /** `path` compiled: its parameter names and matcher. */
  route: RoutePattern;
  sessions: boolean;
  statelessPath: string | undefined;
  statelessRoute: RoutePattern | undefined;
  /** The 2024-11-05 transport's paths, set where it is served (`legacySse()`, or the idiom before features); else undefined. */
  legacySsePath: string | undefined;
  legacyMessagesPath: string | undefined;
  allowedHosts: string[];
  allowedOrigins: string[];
  maxBodyBytes: number;
  maxRunsPerRequest: number;
  session: ResolvedSessionOptions;
  listen: ResolvedListenOptions;
  streamCpuBudgetMs: number;
  /** Which eras are served; at least one is. */
  eras: { era2025: boolean; era2026: boolean };
  mrtrStateTtlMs: number;
  /**
   * The task options as given (in `tasks()` or at the top level), resolved and checked by the tasks
   * feature when it makes its object class (src/features/tasks/options.ts): an edge without tasks never reads them.
   */
  tasks: TaskOptions;
}

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Two thirds of the Workers default CPU limit per request (30 s): a margin for the estimate and the rest of the isolate's work. */
const DEFAULT_STREAM_CPU_BUDGET_MS = 20_000;
const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new TypeError(`mcp-edge option ${name} must be a positive number`);
  return value;
}

function whole(name: string, value: number | undefined, fallback: number): number {
  const n = positive(name, value, fallback);
  if (!Number.isInteger(n)) throw new TypeError(`mcp-edge option ${name} must be a whole number`);
  return n;
}

const DEFAULT_MAX_RUNS_PER_REQUEST = 100;

function resolveSessionOptions(s: SessionOptions, maxRunsPerRequest: number, hubShards: number): ResolvedSessionOptions {
  return {
    idleTimeoutMs: positive("session.idleTimeoutMs", s.idleTimeoutMs, 30 * 60_000),
    requestTimeoutMs: positive("session.requestTimeoutMs", s.requestTimeoutMs, 60_000),
    keepAliveMs: positive("session.keepAliveMs", s.keepAliveMs, 15_000),
    retryMs: positive("session.retryMs", s.retryMs, 1000),
    pollAfterMs: s.pollAfterMs === undefined ? undefined : positive("session.pollAfterMs", s.pollAfterMs, 0),
    maxEventsPerStream: positive("session.maxEventsPerStream", s.maxEventsPerStream, 10_000),
    maxBufferedBytes: positive("session.maxBufferedBytes", s.maxBufferedBytes, 1024 * 1024),
    maxStreams: positive("session.maxStreams", s.maxStreams, 100),
    maxPendingRequests: positive("session.maxPendingRequests", s.maxPendingRequests, 32),
    completedStreamGraceMs: positive("session.completedStreamGraceMs", s.completedStreamGraceMs, 5 * 60_000),
    maxSubscriptions: positive("session.maxSubscriptions", s.maxSubscriptions, 1000),
    maxConcurrentRuns: positive("session.maxConcurrentRuns", s.maxConcurrentRuns, 256),
    maxRunsPerRequest,
    hubShards,
  };
}

let warnedEnvIdle = false;

/** `MCP_SESSION_IDLE_TIMEOUT_MS` (a var) replaces `session.idleTimeoutMs`; anything but a positive whole number is ignored. */
export function withEnvIdleTimeout(options: ResolvedSessionOptions, env: unknown): ResolvedSessionOptions {
  const raw = (env as { MCP_SESSION_IDLE_TIMEOUT_MS?: unknown } | undefined)?.MCP_SESSION_IDLE_TIMEOUT_MS;
  if (raw === undefined || raw === "") return options;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms <= 0) {
    if (!warnedEnvIdle)
      console.warn(
        `mcp-edge: MCP_SESSION_IDLE_TIMEOUT_MS=${JSON.stringify(raw)} is not a positive whole number; session.idleTimeoutMs applies`,
      );
    warnedEnvIdle = true;
    return options;
  }
  return { ...options, idleTimeoutMs: ms };
}

function resolveEras(eras: EdgeOptions["eras"]): ResolvedOptions["eras"] {
  if (eras === undefined) return { era2025: true, era2026: true };
  if (!Array.isArray(eras) || eras.length === 0 || eras.some((e) => e !== "2025" && e !== "2026")) {
    throw new TypeError('mcp-edge option eras must list "2025", "2026" or both');
  }
  return { era2025: eras.includes("2025"), era2026: eras.includes("2026") };
}

export function resolveListenOptions(l: ListenOptions = {}): ResolvedListenOptions {
  return {
    shards: whole("listen.shards", l.shards, DEFAULT_HUB_SHARDS),
    maxStreams: positive("listen.maxStreams", l.maxStreams, 1000),
    maxStreamsPerClient: positive("listen.maxStreamsPerClient", l.maxStreamsPerClient, 8),
    maxBufferedBytes: positive("listen.maxBufferedBytes", l.maxBufferedBytes, 1024 * 1024),
    maxSubscriptions: positive("listen.maxSubscriptions", l.maxSubscriptions, 1000),
    keepAliveMs: positive("listen.keepAliveMs", l.keepAliveMs, 15_000),
  };
}

/**
 * The options with what the features set: session mode exactly when `sessions()` is among them, and
 * the core options mcp-edge's own features carry (given once: in the feature or at the top level).
 */
function withFeatureOptions<Env>(o: EdgeOptions<Env>): EdgeOptions<Env> {
  const features = o.features;
  if (features === undefined) return o;
  if (!Array.isArray(features)) throw new TypeError("mcp-edge option features must be a list of features, e.g. [sessions(), tasks()]");
  if (o.sessions !== undefined)
    throw new TypeError("mcp-edge option sessions: with features, session mode is sessions() among them; leave sessions out");
  refuseLegacyPaths(o);
  // The 2024-11-05 transport is off unless a feature serves it (`legacySse()` sets its paths).
  const merged: EdgeOptions<Env> = { ...o, sessions: features.some((f) => f?.name === "sessions"), legacySsePath: null };
  for (const feature of features) {
    const core = feature?.[CORE_OPTIONS];
    if (!core) continue;
    for (const key of ["session", "tasks", "listen"] as const satisfies readonly (keyof CoreOptions)[]) {
      if (core[key] === undefined) continue;
      if (o[key] !== undefined) throw new TypeError(`mcp-edge option ${key}: give it once, in ${feature.name}() or at the top level`);
      (merged as Record<string, unknown>)[key] = core[key];
    }
    if (core.legacySsePath === undefined) continue;
    if (!merged.sessions)
      throw new TypeError(
        "mcp-edge legacySse(): the 2024-11-05 transport serves 2025-era sessions; pass sessions() (or deferredSessions()) beside it",
      );
    merged.legacySsePath = core.legacySsePath;
    merged.legacyMessagesPath = core.legacyMessagesPath;
  }
  return merged;
}

/**
 * With features, the 2024-11-05 transport is the `legacySse()` feature: its paths given at the top level
 * are a TypeError naming it. `legacySsePath: null` (off) is what an edge with features has anyway: accepted.
 */
function refuseLegacyPaths(o: Pick<EdgeOptions, "legacySsePath" | "legacyMessagesPath">): void {
  const given = (["legacySsePath", "legacyMessagesPath"] as const).find((name) => o[name] !== undefined && o[name] !== null);
  if (given === undefined) return;
  throw new TypeError(
    `mcp-edge option ${given}: with features, the 2024-11-05 transport is the feature legacySse({ ssePath, messagesPath }) from "mcp-edge/sessions"`,
  );
}

/** Options that became features: the feature's factory, its subpath, and the call that takes the option. */
const MOVED: Record<string, [factory: string, subpath: string, call: string]> = {
  auth: ["auth", "auth", "auth({ … })"],
  discovery: ["discovery", "discovery", "discovery({ … })"],
  rateLimits: ["rateLimits", "rate-limits", "rateLimits([ … ])"],
  tracing: ["observe", "observe", "observe({ tracing })"],
  onEvent: ["observe", "observe", "observe({ onEvent })"],
  analytics: ["observe", "observe", "observe({ analytics })"],
};

/**
 * An option that became a feature is a TypeError naming the feature to pass: handled here, its code
 * would be in every Worker's bundle whether it uses it or not.
 */
function refuseMovedOptions(o: object): void {
  for (const [option, [factory, subpath, call]] of Object.entries(MOVED)) {
    if (!Object.hasOwn(o, option)) continue;
    throw new TypeError(
      `mcp-edge option ${option} is now a feature: import { ${factory} } from "mcp-edge/${subpath}" and pass features: [sessions(), ${call}] (its settings unchanged; CHANGELOG "Unreleased")`,
    );
  }
}

export function resolveOptions<Env>(given: EdgeOptions<Env> = {}): ResolvedOptions {
  refuseMovedOptions(given);
  const o = withFeatureOptions(given);
  const path = o.path ?? "/mcp";
  const route = compileRoute("path", path);
  const statelessRoute = o.statelessPath === undefined ? undefined : compileRoute("statelessPath", o.statelessPath);
  for (const name of ["legacySsePath", "legacyMessagesPath"] as const) {
    const value = o[name];
    if (typeof value === "string" && compileRoute(name, value).names.length > 0)
      throw new TypeError(
        `mcp-edge option ${name} "${value}" cannot take route parameters: the 2024-11-05 transport is served at fixed paths`,
      );
  }
  const maxRunsPerRequest = positive("maxRunsPerRequest", o.maxRunsPerRequest, DEFAULT_MAX_RUNS_PER_REQUEST);
  const listen = resolveListenOptions(o.listen);
  return {
    path,
    route,
    sessions: o.sessions ?? true,
    statelessPath: o.statelessPath,
    statelessRoute,
    legacySsePath: o.legacySsePath === null ? undefined : (o.legacySsePath ?? "/sse"),
    legacyMessagesPath: o.legacySsePath === null ? undefined : (o.legacyMessagesPath ?? "/messages"),
    // Additive: loopback stays allowed so `wrangler dev` works with the deployed host listed.
    allowedHosts: [...LOOPBACK_HOSTS, ...(o.allowedHosts ?? []).map((h) => h.toLowerCase())],
    allowedOrigins: o.allowedOrigins ?? [],
    maxBodyBytes: positive("maxBodyBytes", o.maxBodyBytes, DEFAULT_MAX_BODY_BYTES),
    maxRunsPerRequest,
    session: resolveSessionOptions(o.session ?? {}, maxRunsPerRequest, listen.shards),
    listen,
    streamCpuBudgetMs: positive("streamCpuBudgetMs", o.streamCpuBudgetMs, DEFAULT_STREAM_CPU_BUDGET_MS),
    eras: resolveEras(o.eras),
    mrtrStateTtlMs: positive("mrtr.stateTtlMs", o.mrtr?.stateTtlMs, 10 * 60_000),
    tasks: o.tasks ?? {},
  };
}

// Task settings a deployment chooses (`tasks({ ... })`, or `createMcpEdge(server, { tasks })` before features).

export interface TaskOptions {
  /** How long a task and its result are kept after creation, unless its tool says otherwise (default 1 h). */
  ttlMs?: number;
  /** The polling interval suggested to clients (default 2 s). */
  pollIntervalMs?: number;
  /**
   * How often a task that is not finished wakes its object to check its runner (default 60 s):
   * a runner lost in a restart is noticed within this time even if nobody polls.
   */
  watchdogMs?: number;
  /**
   * Tasks one client may have in flight (not yet completed, failed or cancelled) at once (default
   * 32); one more is refused with HTTP 429, Retry-After and -31003. The client is the principal's
   * subject with auth, else the CF-Connecting-IP address (src/http/client-key.ts).
   */
  maxInFlightPerClient?: number;
}

/** The task options with every default filled in: resolved by the tasks feature (src/features/tasks/options.ts). */
export type ResolvedTaskOptions = Required<TaskOptions>;
