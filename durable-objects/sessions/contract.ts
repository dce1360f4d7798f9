/**
 * The Worker→session-object contract, in one place: the typed RPC surface the Worker may call,
 * the internal URLs and headers of requests it forwards with `fetch`, and how the verified
 * principal travels. `src/kernel/env.ts`, `src/http/*` and the object import this file, never each
 * other. Nothing here runs on its own; both sides agree on it.
 * POST/GET/DELETE go through `fetch`: docs/engine-notes.md "fetch, not RPC, for a forwarded request".
 */
import type { Principal } from "../../src/auth/principal";
import type { SessionState } from "../../src/mcp/definition/context";
import type { ListKind, UpdateDelivery } from "../hub/contract";
import { toRouteParams, type RouteParams } from "../../src/wire/route-params";
import { isObject } from "../../src/jsonrpc/parse";

/** What the Worker (and other objects) may call on a session object over Workers RPC. */
export interface SessionObjectRpc extends Rpc.DurableObjectBranded {
  /** Records the negotiated state of a new session (the Worker calls it once, after `initialize`). */
  init(state: SessionState): Promise<void>;
  /**
   * The session's state for a request served in the Worker, or null when it does not exist for
   * this subject on this route (`route`: the request's route key, src/wire/route-params.ts; "" or absent for a literal path).
   */
  confirm(subject?: string, route?: string, sessionId?: string): Promise<SessionState | null>;
  /**
   * A subscribed resource changed: send `notifications/resources/updated` on the standalone
   * stream. `traceparent`: the hub's span for the event, with tracing on (the delivery's parent).
   */
  resourceUpdated(uri: string, traceparent?: string, route?: string): Promise<UpdateDelivery>;
  /**
   * A list changed: send `notifications/<list>/list_changed` on the standalone stream. `route`
   * (both): the event is for that route's sessions only; another route's answers "other-route".
   */
  listChanged(list: ListKind, traceparent?: string, route?: string): Promise<UpdateDelivery>;
  /** Resolves once no handler runs in the object. */
  settled(): Promise<void>;
  /** POST, GET and DELETE of a session, and the legacy URLs below, forwarded with their bodies. */
  fetch(request: Request): Promise<Response>;
}

/** Internal URLs of the 2024-11-05 transport (the Worker forwards GET /sse and POST /messages to these). */
export const LEGACY_OPEN_URL = "https://mcp-session/legacy/sse";
export const LEGACY_POST_URL = "https://mcp-session/legacy/messages";
/** The endpoint the legacy stream announces (path and session id), set by the Worker. */
export const HEADER_LEGACY_ENDPOINT = "X-Mcp-Edge-Legacy-Endpoint";

/** Internal header carrying the verified principal; the Worker removes any value a client sent first. */
export const HEADER_PRINCIPAL = "X-Mcp-Edge-Principal";

/** URI-encoded JSON: header values must be ASCII, claims may not be. */
export function encodePrincipal(principal: Principal): string {
  return encodeURIComponent(JSON.stringify(principal));
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((s) => typeof s === "string");
}

/** The principal the Worker attached, or undefined when there is none (auth off) or it is unreadable. */
export function decodePrincipal(value: string | null): Principal | undefined {
  if (value === null) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(decodeURIComponent(value));
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const p = parsed as Record<string, unknown>;
  if (typeof p.subject !== "string" || !isStringArray(p.scopes) || typeof p.claims !== "object" || p.claims === null) return undefined;
  const principal: Principal = { subject: p.subject, scopes: p.scopes, claims: p.claims as Record<string, unknown> };
  if (typeof p.clientId === "string") principal.clientId = p.clientId;
  if (typeof p.expiresAt === "number") principal.expiresAt = p.expiresAt;
  return principal;
}

/**
 * Internal header carrying the client request's `cf` properties (URI-encoded JSON) to the session
 * object, where handlers read them as `ctx.request.cf`; the Worker removes any value a client sent.
 */
export const HEADER_CF = "X-Mcp-Edge-Cf";

/** Internal header carrying the Worker's span (W3C traceparent) to the session object, with tracing on; a client's is removed. */
export const HEADER_TRACEPARENT = "X-Mcp-Edge-Traceparent";

/**
 * Internal header carrying the request's route parameters (URI-encoded JSON) to the session
 * object: `ctx.request.params` there, and the route the session must belong to. The Worker
 * removes any value a client sent; absent means none (a literal path).
 */
export const HEADER_ROUTE = "X-Mcp-Edge-Route";

/** The route parameters the Worker attached (none when absent or unreadable). */
export function decodeRoute(value: string | null): RouteParams {
  if (value === null) return toRouteParams(undefined);
  try {
    return toRouteParams(JSON.parse(decodeURIComponent(value)));
  } catch {
    return toRouteParams(undefined);
  }
}

/** The `cf` properties the Worker attached, or undefined (none, or unreadable). */
export function decodeCf(value: string | null): Record<string, unknown> | undefined {
  if (value === null) return undefined;
  try {
    const parsed: unknown = JSON.parse(decodeURIComponent(value));
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** What the Worker tells the session object about a forwarded request, beside the client's own headers. */
export interface ForwardedFacts {
  /** With auth: who sent it (replaces the Authorization header). */
  principal: Principal | undefined;
  /** The request's `cf` (a POST, whose calls read `ctx.request.cf`). */
  cf?: unknown;
  /** The Worker's span for the hop, which the object's span continues. */
  traceparent?: string;
  /** The endpoint's route parameters. */
  params?: RouteParams;
}

/**
 * The headers to forward to the session object: any client-supplied internal header removed,
 * with a principal the Authorization header replaced by it (the object needs who, not the
 * token), and the request's `cf` when given (a POST, whose calls read `ctx.request.cf`).
 * Returns `headers` itself when there is nothing to change.
 */
export function forwardHeaders(headers: Headers, forwarded: ForwardedFacts): Headers {
  const { principal, cf, traceparent, params } = forwarded;
  const routed = params !== undefined && Object.keys(params).length > 0;
  if (
    !principal &&
    cf === undefined &&
    traceparent === undefined &&
    !routed &&
    !headers.has(HEADER_PRINCIPAL) &&
    !headers.has(HEADER_CF) &&
    !headers.has(HEADER_TRACEPARENT) &&
    !headers.has(HEADER_ROUTE)
  )
    return headers;
  const out = new Headers(headers);
  out.delete(HEADER_PRINCIPAL);
  out.delete(HEADER_CF);
  out.delete(HEADER_TRACEPARENT);
  out.delete(HEADER_ROUTE);
  if (routed) out.set(HEADER_ROUTE, encodeURIComponent(JSON.stringify(params)));
  if (traceparent !== undefined) out.set(HEADER_TRACEPARENT, traceparent);
  if (principal) {
    out.delete("Authorization");
    out.set(HEADER_PRINCIPAL, encodePrincipal(principal));
  }
  if (cf !== undefined) out.set(HEADER_CF, encodeURIComponent(JSON.stringify(cf)));
  return out;
}

/** The same request with `forwardHeaders` applied (the request itself when nothing changes). */
export function forwardRequest(request: Request, principal: Principal | undefined, params?: RouteParams): Request {
  const headers = forwardHeaders(request.headers, { principal, params });
  return headers === request.headers ? request : new Request(request, { headers });
}
