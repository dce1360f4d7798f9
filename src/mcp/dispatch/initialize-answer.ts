/**
 * `initialize` answered as one message, for every place a 2025-era session begins (the Worker's
 * lane, the legacy `/sse` transport in the session object, the stateless path): the negotiated
 * result and state (handlers/initialize.ts), or the error response and no state; and the state a
 * new session stores, bound to the principal that created it and to its route.
 */
import { errorMessage, resultMessage, type RequestMessage, type ResponseMessage } from "../../jsonrpc/messages";
import type { SessionState } from "../definition/context";
import type { McpServer } from "../definition/server";
import { initialize } from "../handlers/initialize";
import { toErrorObject } from "./dispatch";

/**
 * The response to `initialize`, with the negotiated state when it succeeded. `updates`: whether the
 * session will hear resource updates and list changes (the hub served and bound: src/kernel/kernel.ts `clientsHearHub`).
 */
export function answerInitialize<Env>(
  server: McpServer<Env>,
  request: RequestMessage,
  updates: boolean,
): { response: ResponseMessage; state?: SessionState } {
  try {
    const { result, state } = initialize(server, request.params, updates);
    return { response: resultMessage(request.id, result), state };
  } catch (error) {
    return { response: errorMessage(request.id, toErrorObject(error, request)) };
  }
}

/**
 * Auth: a session belongs to the principal that created it (no subject without auth) and to the
 * route it was created on (`route`: the request's route key; "" for a literal path, stored as absent).
 */
export function ownedState(state: SessionState, subject: string | undefined, route = ""): SessionState {
  const owned = subject === undefined ? state : { ...state, subject };
  return route === "" ? owned : { ...owned, route };
}
