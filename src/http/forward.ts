/**
 * A POST the session object must serve, forwarded with its body: the client's headers, the
 * verified principal, the request's `cf` and its route parameters in internal headers (durable-objects/sessions/contract.ts),
 * and with tracing on, the Worker's own span for the hop, which the object's span continues.
 */
import { forwardHeaders } from "../../durable-objects/sessions/contract";
import type { Params, RequestMessage } from "../jsonrpc/messages";
import { observerOf, type Place } from "../mcp/operations/observe";
import { HEADER_PROTOCOL_VERSION, HEADER_SESSION_ID } from "../wire/headers";
import type { Exchange } from "../mcp/dispatch/exchange";
import type { EdgeRequest } from "./edge-request";

/**
 * Runs `hop`, one Durable Object request for `exchange`, inside one observation named after the
 * POST's (first) request, else its first notification or client response ("response"), at `place`;
 * `hop` gets the observation's traceparent (tracing on), which the object's span continues.
 */
export async function observedHop<Env, T>(
  edge: EdgeRequest<Env>,
  exchange: Pick<Exchange, "requests" | "others">,
  place: Place,
  hop: (traceparent: string | undefined) => Promise<T>,
): Promise<T> {
  const { request, env } = edge;
  const { requests, others } = exchange;
  const other = others[0];
  const first: { method: string; params?: Params; id?: RequestMessage["id"] } | undefined =
    requests[0] ?? (other && (other.kind === "notification" ? other : { method: "response" }));
  const observer = first ? observerOf(edge.runtime.server) : undefined;
  const span =
    observer && first
      ? observer.start(
          {
            method: first.method,
            params: first.params ?? {},
            requestId: first.id,
            // The object id: the first 64 characters of either form of session id (runtime.ts objectKeyOf).
            sessionId: request.headers.get(HEADER_SESSION_ID)?.slice(0, 64),
            protocolVersion: request.headers.get(HEADER_PROTOCOL_VERSION) ?? undefined,
          },
          place,
          env,
        )
      : undefined;
  span?.countDoRequests();
  try {
    return await hop(span?.traceparent);
  } catch (error) {
    span?.threw(error);
    throw error;
  } finally {
    span?.end();
  }
}

/** `body`: the POST's text, forwarded as is; `exchange`: what it parsed to (names the hop's observation). */
export function forwardPost<Env>(
  edge: EdgeRequest<Env>,
  stub: { fetch(request: Request): Promise<Response> },
  exchange: Pick<Exchange, "requests" | "others">,
  body: string,
): Promise<Response> {
  const { request, principal, params } = edge;
  return observedHop(edge, exchange, "forward", (traceparent) => {
    const headers = forwardHeaders(request.headers, { principal, cf: request.cf, traceparent, params });
    return stub.fetch(new Request(request.url, { method: "POST", headers, body }));
  });
}
