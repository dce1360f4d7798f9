/**
 * A POST the session object must serve, forwarded with its body: the client's headers, the
 * verified principal, the request's `cf` and its route parameters in internal headers (durable-objects/session/contract.ts),
 * and with tracing on, the Worker's own span for the hop, which the object's span continues.
 */
import { forwardHeaders } from "../../durable-objects/session/contract";
import type { Principal } from "../auth/principal";
import type { RequestMessage } from "../jsonrpc/messages";
import { observerOf } from "../mcp/observe";
import { HEADER_PROTOCOL_VERSION, HEADER_SESSION_ID } from "../wire/headers";
import type { RouteParams } from "../mcp/route-params";

export async function forwardPost(
  server: object,
  env: unknown,
  stub: { fetch(request: Request): Promise<Response> },
  request: Request,
  body: string,
  principal: Principal | undefined,
  requests: readonly RequestMessage[],
  params?: RouteParams,
): Promise<Response> {
  const first = requests[0];
  const observer = first ? observerOf(server) : undefined;
  // One observation for the hop (one Durable Object request), named after the POST's (first)
  // request; the object's span is its child.
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
