/**
 * Authorization of one request's operations at the edge, through the edge's gate (the `auth()`
 * feature, src/features/auth/gate.ts): the scopes each operation needs (the baseline is the
 * router's), checked before anything runs or is forwarded; and a handler's challenge
 * (`reauthenticate()`, `needScopes()`) answered as HTTP 401/403 while the answer is still JSON, or
 * in the stream once its status is sent. Without a gate nothing here runs.
 */
import type { RequestMessage, ResponseMessage } from "../jsonrpc/messages";
import type { GateCall } from "../kernel/feature";
import type { EdgeRequest } from "./edge-request";

function callOf<Env>(edge: EdgeRequest<Env>): GateCall<Env> {
  return { server: edge.runtime.server, env: edge.env, principal: edge.principal, params: edge.params };
}

/**
 * 403 insufficient_scope for the first request whose operation needs a scope the token lacks;
 * undefined when all are granted. Without a gate or a principal it returns undefined at once: no
 * promise, no microtask turn on the lanes' path (docs/engine-notes.md "Microtask turns").
 */
export function refuseMissingScopes<Env>(
  edge: EdgeRequest<Env>,
  requests: readonly RequestMessage[],
): Promise<Response | undefined> | undefined {
  const gate = edge.runtime.kernel.gate;
  if (!gate || !edge.principal) return undefined;
  return gate.refuseMissingScopes(callOf(edge), requests);
}

/**
 * A JSON answer's challenge as the HTTP 401/403 it stands for; undefined, at once, when no response
 * carries one (or without a gate).
 */
export function challengeAnswer<Env>(
  edge: EdgeRequest<Env>,
  requests: readonly RequestMessage[],
  responses: readonly ResponseMessage[],
): Promise<Response> | undefined {
  return edge.runtime.kernel.gate?.challengeAnswer(callOf(edge), requests, responses);
}

/** A response written to a stream whose status is sent: a challenge completed with what the 401/403 would have said. */
export async function inStreamChallenge<Env>(
  edge: EdgeRequest<Env>,
  request: RequestMessage,
  response: ResponseMessage,
): Promise<ResponseMessage> {
  // Without a gate there is no challenge to give: the error goes as the handler made it.
  const gate = edge.runtime.kernel.gate;
  return gate ? gate.inStreamChallenge(callOf(edge), request, response) : response;
}
