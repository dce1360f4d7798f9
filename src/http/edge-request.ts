/**
 * One request in the Worker, as one value: built once by the router when a route takes the
 * request (after auth), and taken whole by the POST front door (post.ts), the lanes, listen,
 * forwarding, the legacy transport and rate limits, instead of the pieces one by one.
 */
import type { Principal } from "../auth/principal";
import { requestInfo, type RequestInfo } from "../mcp/definition/request-info";
import type { RouteParams } from "../wire/route-params";
import { clientKey } from "./client-key";
import type { EdgeRuntime } from "./runtime";

export interface EdgeRequest<Env> {
  /** The HTTP request as the Worker received it. */
  readonly request: Request;
  readonly env: Env;
  /** The Worker's execution context (absent where a test calls a route without one). */
  readonly ctx: ExecutionContext | undefined;
  /** The mounted server and its resolved options. */
  readonly runtime: EdgeRuntime<Env>;
  /** With auth: who sent it (verified by the router). */
  readonly principal: Principal | undefined;
  /** Whom per-client caps and rate limits count it against (client-key.ts). */
  readonly clientKey: string;
  /** `ctx.request` as handlers, middleware and rate-limit rules see it (route parameters included). */
  readonly info: RequestInfo;
  /** The route parameters of the endpoint's path (none for a literal path). */
  readonly params: RouteParams;
  /** Whether the endpoint it came to serves sessions (the stateless endpoint does not). */
  readonly sessions: boolean;
}

/** What the router knows when a route takes a request. */
export interface Arrival<Env> {
  request: Request;
  env: Env;
  ctx?: ExecutionContext;
  params: RouteParams;
}

/** The request's one value: what arrived, the server it arrived at, and who sent it. */
export function edgeRequest<Env>(
  arrival: Arrival<Env>,
  runtime: EdgeRuntime<Env>,
  principal: Principal | undefined,
  sessions: boolean,
): EdgeRequest<Env> {
  const { request, env, ctx, params } = arrival;
  return {
    request,
    env,
    ctx,
    runtime,
    principal,
    clientKey: clientKey(request, principal),
    info: requestInfo(request, params),
    params,
    sessions,
  };
}
