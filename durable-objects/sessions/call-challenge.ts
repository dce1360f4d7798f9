/**
 * A handler's challenge (`reauthenticate()`, `needScopes()`) in a session's call: the session
 * object answers a JSON POST with the HTTP 401/403 itself (the Worker passes it back untouched),
 * and on a POST stream, whose 200 is sent, writes the JSON-RPC error with the challenge in `data`.
 * The edge's gate (the `auth()` feature) writes both, naming the same scopes the Worker names.
 */
import type { Principal } from "../../src/auth/principal";
import type { RequestMessage, ResponseMessage } from "../../src/jsonrpc/messages";
import type { AuthGate, GateCall } from "../../src/kernel/feature";
import type { McpServer } from "../../src/mcp/definition/server";
import { NO_PARAMS, type RouteParams } from "../../src/wire/route-params";

/** Where a session's call was made: the edge's gate (none without auth), who sent it, on which route. */
export interface CallAuth<Env> {
  gate: AuthGate | undefined;
  server: McpServer<Env>;
  env: Env;
  principal: Principal | undefined;
  params: RouteParams | undefined;
}

function gateCall<Env>(call: CallAuth<Env>): GateCall<Env> {
  return { server: call.server, env: call.env, principal: call.principal, params: call.params ?? NO_PARAMS };
}

/** A JSON answer's challenge as its HTTP 401/403; undefined, at once, when no response carries one (or without a gate). */
export function challengedJson<Env>(
  call: CallAuth<Env>,
  requests: readonly RequestMessage[],
  responses: readonly ResponseMessage[],
): Promise<Response> | undefined {
  return call.gate?.challengeAnswer(gateCall(call), requests, responses);
}

/** A response for a stream whose status is sent: a challenge completed with what the 401/403 would say. */
export async function challengedInStream<Env>(
  call: CallAuth<Env>,
  request: RequestMessage,
  response: ResponseMessage,
): Promise<ResponseMessage> {
  return call.gate ? call.gate.inStreamChallenge(gateCall(call), request, response) : response;
}
