/**
 * A handler's challenge (`reauthenticate()`, `needScopes()`) in a session's call: the session
 * object answers a JSON POST with the HTTP 401/403 itself (the Worker passes it back untouched),
 * and on a POST stream, whose 200 is sent, writes the JSON-RPC error with the challenge in `data`.
 * Which scopes: the same set the Worker names (src/mcp/dispatch/operation-scopes.ts).
 */
import { authForRoute, type ResolvedAuth } from "../../src/auth/options";
import type { Principal } from "../../src/auth/principal";
import { challengeResponse, handlerChallengeOf, withChallenge, type ChallengePlace } from "../../src/auth/step-up";
import type { RequestMessage, ResponseMessage } from "../../src/jsonrpc/messages";
import type { McpServer } from "../../src/mcp/definition/server";
import { scopesForOperation } from "../../src/mcp/dispatch/operation-scopes";
import { NO_PARAMS, type RouteParams } from "../../src/wire/route-params";

/** Where a session's call was made: the server's auth, who sent it, on which route. */
export interface CallAuth<Env> {
  auth: ResolvedAuth | undefined;
  server: McpServer<Env>;
  env: Env;
  principal: Principal | undefined;
  params: RouteParams | undefined;
}

async function placeOf<Env>(call: CallAuth<Env>, request: RequestMessage): Promise<ChallengePlace | undefined> {
  if (!call.auth) return undefined;
  const params = call.params ?? NO_PARAMS;
  const auth = authForRoute(call.auth, params);
  const { principal, server, env } = call;
  const operation = principal ? await scopesForOperation(request, server, auth, { principal, params, env }) : undefined;
  return { auth, principal, operationScopes: operation?.scopes ?? [] };
}

/** A JSON answer's challenge as its HTTP 401/403; undefined, at once, when no response carries one. */
export function challengedJson<Env>(
  call: CallAuth<Env>,
  requests: readonly RequestMessage[],
  responses: readonly ResponseMessage[],
): Promise<Response | undefined> | undefined {
  for (const [index, response] of responses.entries()) {
    const challenge = handlerChallengeOf(response);
    const request = requests[index];
    if (challenge && request) return placeOf(call, request).then((place) => place && challengeResponse(place, challenge));
  }
  return undefined;
}

/** A response for a stream whose status is sent: a challenge completed with what the 401/403 would say. */
export async function challengedInStream<Env>(
  call: CallAuth<Env>,
  request: RequestMessage,
  response: ResponseMessage,
): Promise<ResponseMessage> {
  if (!handlerChallengeOf(response)) return response;
  const place = await placeOf(call, request);
  return place ? withChallenge(place, response) : response;
}
