/**
 * What a handler may do. A simple handler's context can read its request and the session but
 * has no way to send anything; an interactive handler's context adds progress, logging,
 * sampling, elicitation and roots. The difference is a type, so a simple tool that tries to
 * sample fails to compile instead of hanging. Contexts emit intents through a `Channel`; only
 * the lane that owns the channel turns them into wire frames. Types only (with what middleware and
 * the error hook receive): the interactive context is made in asks/interactive-context.ts.
 */
import type { Params, RequestId } from "../../jsonrpc/messages";
import type { Principal } from "./principal";
import type { RequestInfo } from "./request-info";
import type { InferSchema, SchemaInput } from "./schema";
import type { AnyVersion, ProtocolVersion } from "./versions";
import type {
  ClientCapabilities,
  CreateMessageParams,
  CreateMessageResult,
  CreateMessageWithToolsParams,
  CreateMessageWithToolsResult,
  ElicitResult,
  Implementation,
  LoggingLevel,
  Root,
  UrlElicitResult,
} from "./types";

export interface ElicitUrlOptions {
  /**
   * Identifies this interaction on 2025-11-25 sessions (`elicitationId`); a random UUID by default.
   * 2026-07-28 has no such field (the retried request's `requestState` ties the answer to the ask).
   */
  elicitationId?: string;
}

/** Where a dispatch reads its handler's signal: an AbortController, a LazyAbort, or `{ signal }`. */
export interface SignalSource {
  readonly signal: AbortSignal;
}

/** One step of a transaction: all of them apply, or (a `check` failed) none. */
export type UserOp =
  | { put: string; value: unknown }
  | { delete: string }
  /** The key's value must equal `equals` (compared as JSON; `undefined`: the key must be absent). */
  | { check: string; equals: unknown };

export interface UserListOptions {
  /** Only keys that start with this. */
  prefix?: string;
  /** Keys from this one on (inclusive), in key order. */
  start?: string;
  /** At most this many entries (default and most: 1,000). */
  limit?: number;
}

/** Where a handler's `ctx.user` comes from (the kernel's `users` seam); building a store contacts nothing. */
export type UserStores = (env: unknown, principal: Pick<Principal, "subject"> | undefined) => UserStore;

/** What a handler keeps for its user: get/put/delete/list by key, and all-or-nothing transactions. */
export interface UserStore {
  /** The principal's subject; throws for an anonymous request, as every method does. */
  readonly subject: string;
  get<T = unknown>(key: string): Promise<T | undefined>;
  /** Stores any structured-cloneable value (SQLite-backed: at most 2 MB a value, 2 KiB a key). */
  put(key: string, value: unknown): Promise<void>;
  /** Whether the key existed. */
  delete(key: string): Promise<boolean>;
  /** Entries in key order: `prefix`, `start` (inclusive), `limit` (default and most 1,000). */
  list<T = unknown>(options?: UserListOptions): Promise<Map<string, T>>;
  /**
   * Applies the puts and deletes all at once, or none when a `{ check, equals }` step finds
   * another value (returns false): read, compute, then write only if nothing changed meanwhile.
   */
  transaction(ops: UserOp[]): Promise<boolean>;
}

/** Methods whose call names a definition: the tool, the prompt, the resource URI. */
export type NamedMethod = "tools/call" | "prompts/get" | "resources/read";

/** Every other request method a server handles, in either era (extensions' included). */
export type OtherMethod =
  | "initialize"
  | "ping"
  | "server/discover"
  | "tools/list"
  | "resources/list"
  | "resources/templates/list"
  | "resources/subscribe"
  | "resources/unsubscribe"
  | "prompts/list"
  | "completion/complete"
  | "logging/setLevel"
  | "tasks/get"
  | "tasks/update"
  | "tasks/cancel";

/**
 * One JSON-RPC request as middleware sees it; `name` narrows with `method` (a string for the named
 * methods). A method added with `server.add(defineMethod(…))` reaches middleware too, with its own name as `method`
 * and `name` undefined; the type lists only mcp-edge's methods so that narrowing stays exact, so match
 * yours with `(call.method as string) === "com.example/search"` (docs/extensions.md "Middleware, limits and tracing").
 */
export type McpCall<Env = unknown> =
  | { method: NamedMethod; name: string; params: Params; ctx: HandlerContext<Env> }
  | { method: OtherMethod; name: undefined; params: Params; ctx: HandlerContext<Env> };

export type Middleware<Env = unknown> = (call: McpCall<Env>, next: () => Promise<Params>) => Promise<Params>;

/** What `server.onError` hears: the error, the reference the client was given, and the call when there is one. */
export interface UnexpectedError<Env = unknown> {
  error: unknown;
  reference: string;
  /** What failed, in words (`tool "x"`, `tools/call (id 3)`, a stream, a hub delivery). */
  what: string;
  call: McpCall<Env> | undefined;
}

export type ErrorHook<Env = unknown> = (report: UnexpectedError<Env>) => void | Promise<void>;

/** The negotiated state of a session, as stored in its Durable Object. */
export interface SessionState {
  protocolVersion: ProtocolVersion;
  clientInfo: Implementation | undefined;
  clientCapabilities: ClientCapabilities;
  logLevel: LoggingLevel | undefined;
  /** With auth: the subject of the principal that created the session; only that principal may use it. */
  subject?: string;
  /** The route key of the endpoint it was created on (absent: a literal path); only that route's requests reach it. */
  route?: string;
  /** A deferred session (its object made at its first need, docs/sessions.md): when `initialize` answered (epoch ms). */
  issuedAt?: number;
}

export interface SessionInfo extends SessionState {
  id: string;
}

export interface HandlerContext<Env = unknown> {
  /** The Worker's bindings. */
  env: Env;
  /** Aborted when the client cancels the request (`notifications/cancelled`) or the session ends. */
  signal: AbortSignal;
  requestId: RequestId;
  /** "2025": a session (or stateless) request of the initialize era; "2026": a 2026-07-28 request, stateless by the protocol. */
  era: "2025" | "2026";
  /** The revision in force for this request: the session's, the header's when stateless, or the 2026 request's own. */
  protocolVersion: AnyVersion;
  /** What the client declared: the session's capabilities (2025), or this request's own (2026). */
  clientCapabilities: ClientCapabilities | undefined;
  /** The session, or undefined in stateless mode. */
  session: SessionInfo | undefined;
  /** The request's `_meta`, if any. */
  meta: Record<string, unknown> | undefined;
  /** With auth: who sent the request (subject, scopes, claims), as the access token proved. Never the token. */
  principal: Principal | undefined;
  /**
   * The HTTP request that started the call (url, method, headers, `cf`), read-only; the same snapshot
   * in the Worker, the session object and a task's run. Never carries Authorization or Cookie.
   */
  request?: RequestInfo;
  /**
   * The principal's own store (needs auth and the MCP_USER binding): what should outlive a
   * session, since 2026-07-28 has none and many clients start one per call. Anonymous: refused.
   */
  user: UserStore;
}

export interface SamplingRequest extends CreateMessageParams {}

export interface InteractiveContext<Env = unknown> extends HandlerContext<Env> {
  /** Reports progress; a no-op when the request carried no progressToken. Progress must increase. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** Sends `notifications/message`, dropped when below the session's level (logging/setLevel). */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /**
   * Asks the client's model for a completion (`sampling/createMessage`). On 2026-07-28 every ask
   * is a multi round-trip request (MRTR): `key` names it in `inputRequests` (default: its call order).
   * With `tools` (SEP-1577) the answer is a list of blocks that may hold `tool_use`; refused unless
   * the client declared `sampling.tools` (2026: on this request), so check `clientCapabilities` to fall back.
   */
  sample(params: CreateMessageWithToolsParams, options?: AskOptions): Promise<CreateMessageWithToolsResult>;
  sample(params: SamplingRequest, options?: AskOptions): Promise<CreateMessageResult>;
  /**
   * Asks the user to fill a form (`elicitation/create`). The schema is a zod object (or shape,
   * or any Standard Schema: the accepted content is then checked and typed) or JSON Schema;
   * either way it must be the spec's flat primitive subset.
   */
  elicit<const S extends SchemaInput>(message: string, requestedSchema: S, options?: AskOptions): Promise<ElicitResult<ElicitContent<S>>>;
  /**
   * Sends the user to a URL for an interaction that must not pass through the client (URL
   * mode elicitation, 2025-11-25 and 2026-07-28): "accept" means the user agreed to open it, not
   * that they finished. Refused unless the client declared `elicitation.url` (2026: on this request).
   */
  elicitUrl(message: string, url: string, options?: ElicitUrlOptions & AskOptions): Promise<UrlElicitResult>;
  /** The client's roots (`roots/list`). */
  listRoots(options?: AskOptions): Promise<Root[]>;
  /**
   * Ends the request's SSE stream now; later messages are stored and the client gets them by
   * resuming with Last-Event-ID (2025-11-25 SSE polling). A no-op where streams are not resumable.
   */
  closeStream(): void;
  /**
   * Sends a notification of your own (an extension's) about this request: on the request's SSE
   * stream (2025 sessions: stored, resumable; 2026-07-28: the response's stream).
   */
  notify(method: string, params?: Params): Promise<void>;
  /**
   * Sends a request of your own (an extension's) to the client and resolves its result, unchecked:
   * on 2026-07-28 an MRTR input request (`key` names it), on 2025 sessions a server-to-client request.
   */
  ask(method: string, params?: Params, options?: AskOptions): Promise<Params>;
  /** Tasks extension: what the tool's `task.gather` returned before the task was created (MRTR rounds). */
  gathered?: Record<string, unknown>;
}

/** The accepted content of a form: typed by a Standard Schema, a plain record for JSON Schema. */
export type ElicitContent<S> = S extends { readonly "~standard": unknown } | { readonly [key: string]: { readonly "~standard": unknown } }
  ? InferSchema<S>
  : Record<string, string | number | boolean | string[]>;

/** How an ask is named in a 2026-07-28 `inputRequests` map; ignored on 2025-era sessions. */
export interface AskOptions {
  key?: string;
}

/** How a lane carries a handler's messages. */
export interface Channel {
  /** Sends a notification related to the current request. */
  notify(method: string, params: Params): Promise<void>;
  /**
   * Sends a server-to-client request related to the current request and waits for its result (MRTR:
   * `key` names it). `from` is the asking context: a lane that cancels asks reads its `signal`.
   */
  request(method: string, params: Params, from: SignalSource, key?: string): Promise<Params>;
  closeStream(): void;
  /** The minimum log level: the session's (2025; undefined = all), or the request's; "none" sends no log at all. */
  logLevel(): LoggingLevel | "none" | undefined;
  /** Why this lane cannot send server-to-client requests, or undefined when it can. */
  readonly requestUnavailable: string | undefined;
  /** The capabilities the request's client declared, where they are not the session's (a task keeps its creator's). */
  readonly clientCapabilities?: ClientCapabilities;
  /**
   * Where progress goes in a lane that sends no `notifications/progress` (a task shows it as its
   * status message, ext-tasks); absent: progress is a notification, sent when the request has a progressToken.
   */
  progressed?(progress: number, total: number | undefined, message: string | undefined): Promise<void>;
}
