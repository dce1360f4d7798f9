/**
 * Authorization of one request's operations at the edge: the scopes each operation needs (the
 * baseline is the router's), checked before anything runs or is forwarded; and a handler's
 * challenge (`reauthenticate()`, `needScopes()`) answered as HTTP 401/403 while the answer is
 * still JSON, or in the stream once its status is sent. Without `auth` nothing here runs.
 */
import { scopeRefusal } from "../auth/authenticate";
import { authForRoute, type ResolvedAuth } from "../auth/options";
import type { Principal } from "../auth/principal";
import { challengeResponse, handlerChallengeOf, withChallenge, type ChallengePlace } from "../auth/step-up";
import type { RequestMessage, ResponseMessage } from "../jsonrpc/messages";
import { scopesForOperation } from "../mcp/dispatch/operation-scopes";
import type { EdgeRequest } from "./edge-request";

/**
 * 403 insufficient_scope for the first request whose operation needs a scope the token lacks;
 * undefined when all are granted. Without `auth` it returns undefined at once: no promise, no
 * microtask turn on the lanes' path (docs/engine-notes.md "Microtask turns").
 */
export function refuseMissingScopes<Env>(
  edge: EdgeRequest<Env>,
  requests: readonly RequestMessage[],
): Promise<Response | undefined> | undefined {
  const { runtime, principal } = edge;
  const base = runtime.options.auth;
  if (!base || !principal) return undefined;
  return firstScopeRefusal(edge, requests, { auth: authForRoute(base, edge.params), principal });
}

async function firstScopeRefusal<Env>(
  edge: EdgeRequest<Env>,
  requests: readonly RequestMessage[],
  who: { auth: ResolvedAuth; principal: Principal },
): Promise<Response | undefined> {
  const { auth, principal } = who;
  for (const request of requests) {
    const needed = await scopesForOperation(request, edge.runtime.server, auth, { principal, params: edge.params, env: edge.env });
    const refused = needed ? scopeRefusal(auth, principal, needed) : undefined;
    if (refused) return refused;
  }
  return undefined;
}

/** The challenge's place: the route's auth, who asked, the operation's own scopes (`edge` has `auth`). */
async function placeOf<Env>(edge: EdgeRequest<Env>, request: RequestMessage): Promise<ChallengePlace> {
  const { runtime, principal } = edge;
  const auth = authForRoute(runtime.options.auth as ResolvedAuth, edge.params);
  const operation = principal
    ? await scopesForOperation(request, runtime.server, auth, { principal, params: edge.params, env: edge.env })
    : undefined;
  return { auth, principal, operationScopes: operation?.scopes ?? [] };
}

/**
 * A JSON answer's challenge as the HTTP 401/403 it stands for; undefined, at once, when no response
 * carries one (or without auth).
 */
export function challengeAnswer<Env>(
  edge: EdgeRequest<Env>,
  requests: readonly RequestMessage[],
  responses: readonly ResponseMessage[],
): Promise<Response> | undefined {
  if (!edge.runtime.options.auth) return undefined;
  for (const [index, response] of responses.entries()) {
    const challenge = handlerChallengeOf(response);
    const request = requests[index];
    if (challenge && request) return placeOf(edge, request).then((place) => challengeResponse(place, challenge));
  }
  return undefined;
}

/** A response written to a stream whose status is sent: a challenge completed with what the 401/403 would have said. */
export async function inStreamChallenge<Env>(
  edge: EdgeRequest<Env>,
  request: RequestMessage,
  response: ResponseMessage,
): Promise<ResponseMessage> {
  // Without auth there is no challenge to give: the error goes as the handler made it.
  if (!edge.runtime.options.auth || !handlerChallengeOf(response)) return response;
  return withChallenge(await placeOf(edge, request), response);
}
