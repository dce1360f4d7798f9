/**
 * A POST the session object must serve, forwarded with its body: the client's headers, the
 * verified principal, the request's `cf` and its route parameters in internal headers (durable-objects/session/contract.ts),
 * and with tracing on, the Worker's own span for the hop, which the object's span continues.
 */
import { forwardHeaders } from "../../durable-objects/session/contract";
import type { Principal } from "../auth/principal";
import type { Message, Params, RequestMessage } from "../jsonrpc/messages";
import { observerOf } from "../mcp/operations/observe";
import { HEADER_PROTOCOL_VERSION, HEADER_SESSION_ID } from "../wire/headers";
import type { RouteParams } from "../mcp/dispatch/route-params";

export async function forwardPost(
  server: object,
  env: unknown,
  stub: { fetch(request: Request): Promise<Response> },
  request: Request,
  body: string,
  principal: Principal | undefined,
  requests: readonly RequestMessage[],
  others: readonly Message[] = [],
  params?: RouteParams,
): Promise<Response> {
  // One observation for the hop (one Durable Object request), named after the POST's (first)
  // request, else its first notification or client response ("response"); the object's span is its child.
  const other = others[0];
  const first: { method: string; params?: Params; id?: RequestMessage["id"] } | undefined =
    requests[0] ?? (other && (other.kind === "notification" ? other : { method: "response" }));
  const observer = first ? observerOf(server) : undefined;
  const span =
    observer && first
      ? observer.start(
          {
            method: first.method,
            params: first.params ?? {},
            requestId: first.id,
            sessionId: request.headers.get(HEADER_SESSION_ID) ?? undefined,
            protocolVersion: request.headers.get(HEADER_PROTOCOL_VERSION) ?? undefined,
          },
          "forward",
          env,
        )
      : undefined;
  span?.countDoRequests();
  const headers = forwardHeaders(request.headers, principal, request.cf, span?.traceparent, params);
  try {
    return await stub.fetch(new Request(request.url, { method: "POST", headers, body }));
  } catch (error) {
    span?.threw(error);
    throw error;
  } finally {
    span?.end();
  }
}
