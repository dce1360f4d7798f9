/**
 * The handler context of a dispatched request (dispatch.ts). Its `signal` is an own enumerable
 * getter, so `{ ...ctx }` still carries a signal, and the signal is made only when first read
 * (lazy-abort.ts). The getter is one function for every context: a getter written in an object
 * literal is a new closure per request, and V8 gives an object with an accessor of its own a
 * hidden class of its own. Those classes live in the old generation and hold their request (its
 * body, its lane, its context) alive through every young collection until a full one: under
 * load that doubled the Worker's garbage collection time.
 */
import type { RequestMessage } from "../../jsonrpc/messages";
import { userStore } from "../../user";
import { isObject } from "../../jsonrpc/parse";
import type { DispatchContext } from "./dispatch-context";
import type { HandlerContext } from "./context";
import type { SignalSource } from "./lazy-abort";

/** Where a context's getter finds its request's signal (a symbol: no handler reads it by name). */
const SOURCE = Symbol();

/** The one `signal` getter of every dispatched context. */
const SIGNAL: PropertyDescriptor = {
  get(this: { [SOURCE]: SignalSource }): AbortSignal {
    return this[SOURCE].signal;
  },
  enumerable: true,
  configurable: true,
};

/** The handler's `ctx` of one dispatched request. */
export function dispatchedContext<Env>(request: RequestMessage, dispatch: DispatchContext<Env>, source: SignalSource): HandlerContext<Env> {
  const meta = request.params?._meta;
  const ctx = {
    env: dispatch.env,
    requestId: request.id,
    era: dispatch.envelope ? "2026" : "2025",
    protocolVersion: dispatch.protocolVersion,
    clientCapabilities: dispatch.clientCapabilities,
    session: dispatch.session,
    meta: isObject(meta) ? meta : undefined,
    principal: dispatch.principal,
    request: dispatch.request,
    user: userStore(dispatch.env, dispatch.principal),
  } as Record<PropertyKey, unknown>;
  // A store after the literal, not a computed key in it: V8 builds a computed key in a runtime call.
  ctx[SOURCE] = source;
  return Object.defineProperty(ctx, "signal", SIGNAL) as unknown as HandlerContext<Env>;
}
