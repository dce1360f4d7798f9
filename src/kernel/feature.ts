/**
 * The one shape every feature plugs in by, mcp-edge's own (sessions, the hub, tasks, the user store,
 * events) and a user's extension alike: what it adds to dispatch, what it declares, which requests it
 * answers with a held stream, which seams of the runtime it fills and which Durable Object classes it
 * brings. `createMcpEdge(server, { features: [...] })` takes them; nothing is installed anywhere else.
 */
import type { Message, RequestId, Params, RequestMessage, ResponseMessage } from "../jsonrpc/messages";
import type { ClientCapabilities } from "../mcp/definition/types";
import type { McpServer } from "../mcp/definition/server";
import type { MethodDefinition, NotificationDefinition } from "../mcp/definition/methods";
import type { Principal } from "../mcp/definition/principal";
import type { RequestInfo } from "../mcp/definition/request-info";
import type { TaskLane } from "../mcp/handlers/dispatch-context";
import type { SessionState, UserStores } from "../mcp/definition/context";
import type { Observer } from "../mcp/operations/observe";
import type { RouteParams } from "../wire/route-params";
import type { EdgeOptions, ResolvedOptions } from "./options";
import type { LegacySseSeam } from "./legacy-sse-seam";

/**
 * Where mcp-edge's own features carry the core options they set (`sessions({ idleTimeoutMs })`,
 * `tasks({ ttlMs })`, `hub({ shards })`): merged under the options given to createMcpEdge.
 */
export const CORE_OPTIONS: unique symbol = Symbol("mcp-edge.core-options");

/** The core options a built-in feature sets. */
export type CoreOptions = Pick<EdgeOptions, "session" | "tasks" | "listen" | "legacySsePath" | "legacyMessagesPath">;

/** A Durable Object class as workerd constructs it. */
export type ObjectClass<T, Env> = new (ctx: DurableObjectState, env: Env) => T;

/** Any feature's Durable Object class, whatever bindings its env names: what `edge.objects` holds. */
export type FeatureObject = new (ctx: DurableObjectState, env: never) => object;

/** What the Worker's lanes reach the Tasks extension through (the `tasks()` feature fills it). */
export interface TaskSeam {
  /** The task lane of one 2026-07-28 request. */
  lane<Env>(server: McpServer<Env>, env: Env, clientKey: string | undefined): TaskLane;
  /** The subset of `taskIds` a listener on `route` may follow. */
  visible(env: unknown, taskIds: readonly unknown[], subject: string | undefined, route: string): Promise<string[]>;
}

/** Mints deferred session ids, whose object is made when the session first needs state (`deferredSessions()`). */
export interface SessionSealer {
  /**
   * The id of a new session whose object is `objectId` and not made yet; undefined without a usable
   * secret, or for a state too large to seal (then it is made now).
   */
  mint(env: unknown, objectId: string, state: SessionState): Promise<string | undefined>;
}

/** What a 2025 session's hub link reads of its session (the session object gives it: durable-objects/sessions/). */
export interface HubLinkHost {
  readonly env: unknown;
  readonly sessionId: string;
  /** Whether the server declares `listChanged` (every session then registers for list changes). */
  readonly listChanged: boolean;
  /** The hub's shard count (`listen.shards`). */
  readonly shards: number;
  readonly record: HubLinkRecord;
  /** What the hub's deliveries read and do of the session. */
  readonly session: HubLinkSession;
}

/** What the hub's deliveries (durable-objects/hub/session-updates.ts) read and do of their session. */
interface HubLinkSession {
  /** Its negotiated state (its route); null when it is gone. */
  readonly state: Pick<SessionState, "route"> | null;
  readonly terminated: boolean;
  /** Sends `message` on its newest open standalone stream; false without one. */
  sendStandalone(message: Message): boolean;
  /** Its held streams (GET and /sse): `revokeAll` ends each with its authorization's ending and counts them. */
  readonly held: { revokeAll(): number };
}

/** A 2025-era session's answer when the hub hands it an event (the hub forgets it on "gone" and "not-subscribed"). */
export type UpdateDelivery = "sent" | "no-stream" | "not-subscribed" | "gone" | "other-route";

/** What the link reads and keeps in its session's record. */
interface HubLinkRecord {
  /** The subject the session registered with the hub under (`hub_subject`), if any. */
  getMeta(key: "hub_subject"): string | undefined;
  setMeta(key: "hub_subject", subject: string): void;
  /** How many resources the session subscribes to now. */
  countSubscriptions(): number;
  isSubscribed(uri: string): boolean;
}

/**
 * A 2025 session's registrations with the hub (the `hub()` feature's, durable-objects/hub/session-link.ts):
 * the hub keeps them, so a publish, a resource update or a revoked grant reaches the session.
 */
export interface SessionHubLink {
  /** With `listChanged` declared, the session registers for list changes (at its start). */
  registerForListChanges(): Promise<void>;
  /** Keeps the hub in step with one of the session's resource subscriptions. */
  updateRegistry(uri: string, subscribed: boolean): Promise<void>;
  /** At its first held stream, the session's principal's subject, so `endStreamsOf` reaches it. */
  registerSubject(subject: string | undefined): Promise<void>;
  /** A terminated or expired session leaves the hub: its registrations do not outlive it. */
  leaveHub(): Promise<void>;
  /** A resource the session may subscribe to was updated (for `route`; undefined: any): what became of it. */
  resourceUpdated(uri: string, route: string | undefined): UpdateDelivery;
  /** `notifications/<list>/list_changed` (`method`) for the session (for `route`; undefined: any). */
  listChanged(method: string, route: string | undefined): UpdateDelivery;
  /** The grant of `subject` was revoked: the session's held streams end when it is that principal's. */
  authorizationEnded(subject: string): UpdateDelivery;
}

/** A request's authentication: who sent it, or the refusal to answer with (401, 403, 400, 503). */
type GateOutcome = { ok: true; principal: Principal } | { ok: false; response: Response };

/** Where a request's operations are authorized: the server as the edge serves it, the env, who sent it, on which route. */
export interface GateCall<Env> {
  readonly server: McpServer<Env>;
  readonly env: Env;
  readonly principal: Principal | undefined;
  readonly params: RouteParams;
}

/**
 * The resource server's gate (the `auth()` feature, mcp-edge/auth): run by the Worker before any MCP
 * work, and by a session object for a handler's challenge. Without it every request is anonymous.
 */
export interface AuthGate {
  /** The principal of a request to an endpoint on the route `params` names, or its refusal. */
  authenticate(request: Request, params: RouteParams, env: unknown): Promise<GateOutcome>;
  /**
   * 403 insufficient_scope for the first request whose operation needs a scope the principal lacks;
   * undefined, at once (no promise), without a principal.
   */
  refuseMissingScopes<Env>(call: GateCall<Env>, requests: readonly RequestMessage[]): Promise<Response | undefined> | undefined;
  /** A JSON answer's handler challenge (`reauthenticate()`, `needScopes()`) as its HTTP 401/403; undefined, at once, when none carries one. */
  challengeAnswer<Env>(
    call: GateCall<Env>,
    requests: readonly RequestMessage[],
    responses: readonly ResponseMessage[],
  ): Promise<Response> | undefined;
  /** A response written to a stream whose status is sent: its challenge completed with what the 401/403 would say. */
  inStreamChallenge<Env>(call: GateCall<Env>, request: RequestMessage, response: ResponseMessage): Promise<ResponseMessage>;
}

/** The runtime's seams: each is filled by at most one of an edge's features. */
export interface FeatureSeams {
  tasks?: TaskSeam;
  users?: UserStores;
  sealer?: SessionSealer;
  /**
   * Makes the edge's observer (`observe()`): called once per edge, for its server view; the Worker's lanes,
   * the dispatcher and the edge's objects start their observations with it.
   */
  observer?: () => Observer;
  /** Makes the edge's auth gate from its resolved options (`auth()`): called once per edge; a bad option throws then. */
  gate?: (options: ResolvedOptions) => AuthGate;
  /**
   * `subscriptions/listen` where no feature's `streams` serve it: the deprecated `hubObject(edge)` fills it
   * with the hub's lane (an edge made before features gets its hub so); without it such an edge answers
   * the acknowledged empty set. A feature of its own serves the method through `streams`.
   */
  listen?: <Env>(call: StreamCall<Env>) => Promise<Response>;
  /**
   * Makes a 2025 session's link to the hub (`hub()`; the deprecated `hubObject(edge)` fills it too): the
   * session object asks for it where MCP_HUB is bound. Without it a session declares no resource
   * subscriptions and no list changes, and registers nothing with any hub, even where MCP_HUB is bound.
   */
  hubLink?: (host: HubLinkHost) => SessionHubLink;
  /**
   * The 2024-11-05 HTTP+SSE transport (`legacySse()`; the deprecated `sessionObject(edge)` and
   * `deferredSessionObject(edge)` fill it for an edge made before features): its Worker half, at the paths
   * the resolved options name, and its half in the session object. Without it the edge serves neither.
   */
  legacy?: LegacySseSeam;
}

/** One request a feature answers with its own HTTP response (a held stream such as `events/stream`). */
export interface StreamCall<Env> {
  readonly id: RequestId;
  /** The request's params, `_meta` included. */
  readonly params: Params;
  readonly env: Env;
  /** The Worker's execution context (`waitUntil`); absent where a test calls a route without one. */
  readonly ctx: ExecutionContext | undefined;
  readonly era: "2025" | "2026";
  readonly protocolVersion: string;
  /** This request's (2026) or its session's (2025) capabilities. */
  readonly clientCapabilities: ClientCapabilities | undefined;
  readonly principal: Principal | undefined;
  /** The HTTP request, as handlers see it (`ctx.request`): route parameters included. */
  readonly request: RequestInfo;
  /** Whom per-client caps count the request against: the principal's subject, else the client's address. */
  readonly clientKey: string;
  /** The route key of the endpoint's parameters ("" for a literal path). */
  readonly route: string;
  readonly kernel: Kernel<Env>;
}

/** Answers one request with a Response of its own (an SSE stream, or a JSON-RPC error). */
export type StreamLane<Env> = (call: StreamCall<Env>) => Promise<Response>;

/**
 * Paths a feature answers in the Worker itself, beside the endpoint (well-known documents, metadata):
 * made once per edge, when createMcpEdge runs (a bad option throws then).
 */
export interface FeatureRoutes {
  /** Whether it answers this path; checked before anything else, so a path it owns never falls through. */
  owns(pathname: string): boolean;
  /**
   * Answers a request for one of its paths (any HTTP method: 405 is its own to give). Public documents:
   * the Host check has passed, the Origin check does not apply, and the answer is sent as it is (its own
   * CORS headers included).
   */
  serve(request: Request, pathname: string): Promise<Response>;
}

/** One POST's requests as an admission check sees them: after the Host, Origin and auth checks, before anything runs. */
export interface Admission<Env> {
  /** The requests it carries, in order (a 2024-11-05 or 2025 batch may carry several; 2026-07-28 one). */
  readonly requests: readonly RequestMessage[];
  /** The refusal's shape: a 2026-07-28 request's error names no session and answers its id or none. */
  readonly era: "2025" | "2026";
  readonly principal: Principal | undefined;
  /** The HTTP request, as handlers see it (`ctx.request`): route parameters included. */
  readonly request: RequestInfo;
  readonly env: Env;
  /** Whom per-client caps count the request against: the principal's subject, else the client's address. */
  readonly clientKey: string;
}

/**
 * Admits a POST (undefined) or refuses it with the Response to send (e.g. 429 with Retry-After): nothing
 * of it has run or reached a Durable Object. A 2026-07-28 multi round-trip call is checked at its first
 * round only.
 */
type AdmitCheck<Env> = (admission: Admission<Env>) => Promise<Response | undefined>;

export interface Feature<Env = unknown> {
  /** Unique among an edge's features: "sessions", "tasks", "com.example/audit". */
  readonly name: string;
  /**
   * The bindings it needs, each with what to write in wrangler.toml when it is missing: binding name →
   * the Durable Object class the Worker exports for it (e.g. `{ MCP_TASK: "McpTask" }`).
   */
  readonly bindings?: Readonly<Record<string, string>>;
  /** Request methods and client notifications it adds (`defineMethod`, `defineNotification`): served in both eras. */
  readonly methods?: readonly (MethodDefinition<Env> | NotificationDefinition<Env>)[];
  /** Extensions it declares, identifier → settings: in `server/discover` and a 2025-11-25 `initialize`. */
  readonly extensions?: Readonly<Record<string, Record<string, unknown>>>;
  /**
   * Requests it answers with a Response of its own, method → lane, in both eras: the Worker holds the
   * stream (`events/stream`, `subscriptions/listen`). Checked like any request first (auth, Host/Origin).
   */
  readonly streams?: Readonly<Record<string, StreamLane<Env>>>;
  /** The seams of the runtime it fills. */
  readonly seams?: FeatureSeams;
  /** Paths it answers beside the endpoint (the Server Card, a well-known document), made from the edge's kernel. */
  routes?(kernel: Kernel<Env>): FeatureRoutes;
  /** Checks every POST's requests before any of them runs (rate limits); features' checks run in their order. */
  readonly admit?: AdmitCheck<Env>;
  /**
   * The Durable Object classes it brings, export name → class, made once per edge from its kernel:
   * `export const { McpSession } = edge.objects`.
   */
  objects?(kernel: Kernel<Env>): Readonly<Record<string, FeatureObject>>;
  /** mcp-edge's own features only: the core options they set. */
  readonly [CORE_OPTIONS]?: CoreOptions;
}

/**
 * What one edge is made of, and all its objects are bound to: the server as this edge serves it (its
 * features' methods and extensions added), the resolved options, the observer, the features and the
 * seams they filled. Two edges in one isolate share none of it.
 */
export interface Kernel<Env> {
  readonly server: McpServer<Env>;
  readonly options: ResolvedOptions;
  /** Set when the server is observed (a feature fills the `observer` seam: `observe()`). */
  readonly observer: Observer | undefined;
  readonly features: readonly Feature<Env>[];
  readonly seams: FeatureSeams;
  /** Set when requests are authenticated (a feature fills the `gate` seam: `auth()`). */
  readonly gate: AuthGate | undefined;
}
