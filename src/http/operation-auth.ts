/**
 * Authorization of one request's operations at the edge: the scopes each operation needs (the
 * baseline is the router's), checked before anything runs or is forwarded; and a handler's
 * challenge (`reauthenticate()`, `needScopes()`) answered as HTTP 401/403 while the answer is
 * still JSON, or in the stream once its status is sent. Without `auth` nothing here runs.
 */
import { scopeRefusal } from "../auth/authenticate";
import { authForRoute } from "../auth/options";
import { challengeResponse, handlerChallengeOf, withChallenge, type ChallengePlace } from "../auth/step-up";
import type { RequestMessage, ResponseMessage } from "../jsonrpc/messages";
import { scopesForOperation } from "../mcp/dispatch/operation-scopes";
import type { EdgeRequest } from "./edge-request";

/** 403 insufficient_scope for the first request whose operation needs a scope the token lacks; undefined when all are granted. */
export async function refuseMissingScopes<Env>(edge: EdgeRequest<Env>, requests: readonly RequestMessage[]): Promise<Response | undefined> {
  const { runtime, principal } = edge;
  const base = runtime.options.auth;
  if (!base || !principal) return undefined;
  const auth = authForRoute(base, edge.params);
  for (const request of requests) {
    const needed = await scopesForOperation(request, runtime.server, auth, { principal, params: edge.params, env: edge.env });
    const refused = needed ? scopeRefusal(auth, principal, needed) : undefined;
    if (refused) return refused;
  }
  return undefined;
}

async function placeOf<Env>(edge: EdgeRequest<Env>, request: RequestMessage): Promise<ChallengePlace | undefined> {
  const { runtime, principal } = edge;
  const base = runtime.options.auth;
  if (!base) return undefined;
  const auth = authForRoute(base, edge.params);
  const operation = principal
    ? await scopesForOperation(request, runtime.server, auth, { principal, params: edge.params, env: edge.env })
    : undefined;
  return { auth, principal, operationScopes: operation?.scopes ?? [] };
}

/** A JSON answer's challenge as the HTTP 401/403 it stands for; undefined when no response carries one (or without auth). */
export async function challengeAnswer<Env>(
  edge: EdgeRequest<Env>,
  requests: readonly RequestMessage[],
  responses: readonly ResponseMessage[],
): Promise<Response | undefined> {
  for (const [index, response] of responses.entries()) {
    const challenge = handlerChallengeOf(response);
    const request = requests[index];
    if (!challenge || !request) continue;
    const place = await placeOf(edge, request);
    if (place) return challengeResponse(place, challenge);
  }
  return undefined;
}

/** A response written to a stream whose status is sent: a challenge completed with what the 401/403 would have said. */
export async function inStreamChallenge<Env>(
  edge: EdgeRequest<Env>,
  request: RequestMessage,
  response: ResponseMessage,
): Promise<ResponseMessage> {
  if (!handlerChallengeOf(response)) return response;
  const place = await placeOf(edge, request);
  return place ? withChallenge(place, response) : response;
}
