/**
 * Runtime configuration: what a developer passes to `createMcpEdge`, and the resolved form
 * with every default filled in. Limits live here so the Worker and the session object agree.
 */
import { resolveAuth, type AuthOptions, type ResolvedAuth } from "./auth/options";
import { resolveTaskOptions, type ResolvedTaskOptions, type TaskOptions } from "./tasks/options";

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
  /** Streams kept per session, open or finished-and-replayable (default 100). */
  maxStreams?: number;
  /** Server-to-client requests awaiting an answer at once (default 32). */
  maxPendingRequests?: number;
  /** How long a finished POST stream stays replayable after its response (default 5 min). */
  completedStreamGraceMs?: number;
  /** Resources one session may be subscribed to at once (default 1,000); each URI is at most 8 KiB. */
  maxSubscriptions?: number;
}

export interface EdgeOptions {
  /** The MCP endpoint (default "/mcp"). */
  path?: string;
  /** Session mode (default true): a Durable Object per session. False: stateless, Worker only. */
  sessions?: boolean;
  /** Also serve the same server statelessly at this path (demo and benchmarks). */
  statelessPath?: string;
  /** 2024-11-05 HTTP+SSE transport: the GET stream path (default "/sse"; null turns it off). Session mode only. */
  legacySsePath?: string | null;
  /** 2024-11-05 HTTP+SSE transport: the POST endpoint announced to clients (default "/messages"). */
  legacyMessagesPath?: string;
  /**
   * Host names (no port) a request may be addressed to: the DNS-rebinding check. Default:
   * localhost, 127.0.0.1 and [::1] only — add your deployed host name, or set the
   * MCP_ALLOWED_HOSTS variable (comma-separated). "*" allows any host.
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
  session?: SessionOptions;
  /** OAuth 2.1 resource server (2025-06-18 Authorization): every MCP request needs a valid bearer token. Off by default. */
  auth?: AuthOptions;
  /** Tasks extension: default TTL, polling interval and watchdog of tasks. */
  tasks?: TaskOptions;
}

export interface ResolvedSessionOptions {
  idleTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveMs: number;
  retryMs: number;
  pollAfterMs: number | undefined;
  maxEventsPerStream: number;
  maxStreams: number;
  maxPendingRequests: number;
  completedStreamGraceMs: number;
  maxSubscriptions: number;
}

export interface ResolvedOptions {
  path: string;
  sessions: boolean;
  statelessPath: string | undefined;
  legacySsePath: string | undefined;
  legacyMessagesPath: string | undefined;
  allowedHosts: string[];
  allowedOrigins: string[];
  maxBodyBytes: number;
  session: ResolvedSessionOptions;
  auth: ResolvedAuth | undefined;
  tasks: ResolvedTaskOptions;
}

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
export const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new TypeError(`mcp-edge option ${name} must be a positive number`);
  return value;
}

export function resolveSessionOptions(s: SessionOptions = {}): ResolvedSessionOptions {
  return {
    idleTimeoutMs: positive("session.idleTimeoutMs", s.idleTimeoutMs, 30 * 60_000),
    requestTimeoutMs: positive("session.requestTimeoutMs", s.requestTimeoutMs, 60_000),
    keepAliveMs: positive("session.keepAliveMs", s.keepAliveMs, 15_000),
    retryMs: positive("session.retryMs", s.retryMs, 1000),
    pollAfterMs: s.pollAfterMs === undefined ? undefined : positive("session.pollAfterMs", s.pollAfterMs, 0),
    maxEventsPerStream: positive("session.maxEventsPerStream", s.maxEventsPerStream, 10_000),
    maxStreams: positive("session.maxStreams", s.maxStreams, 100),
    maxPendingRequests: positive("session.maxPendingRequests", s.maxPendingRequests, 32),
    completedStreamGraceMs: positive("session.completedStreamGraceMs", s.completedStreamGraceMs, 5 * 60_000),
    maxSubscriptions: positive("session.maxSubscriptions", s.maxSubscriptions, 1000),
  };
}

export function resolveOptions(o: EdgeOptions = {}): ResolvedOptions {
  const path = o.path ?? "/mcp";
  if (!path.startsWith("/")) throw new TypeError('mcp-edge option path must start with "/"');
  return {
    path,
    sessions: o.sessions ?? true,
    statelessPath: o.statelessPath,
    legacySsePath: o.legacySsePath === null ? undefined : (o.legacySsePath ?? "/sse"),
    legacyMessagesPath: o.legacySsePath === null ? undefined : (o.legacyMessagesPath ?? "/messages"),
    allowedHosts: (o.allowedHosts ?? LOOPBACK_HOSTS).map((h) => h.toLowerCase()),
    allowedOrigins: o.allowedOrigins ?? [],
    maxBodyBytes: positive("maxBodyBytes", o.maxBodyBytes, DEFAULT_MAX_BODY_BYTES),
    session: resolveSessionOptions(o.session),
    auth: o.auth === undefined ? undefined : resolveAuth(o.auth),
    tasks: resolveTaskOptions(o.tasks),
  };
}
