/**
 * The handler context of a dispatched request (dispatch.ts). Its `signal` is an own enumerable
 * getter, one for every context, made only when first read (lazy-abort.ts;
 * docs/engine-notes.md "One getter for every handler context").
 */
import type { RequestMessage } from "../../jsonrpc/messages";
import { userStoreOf } from "./user-seam";
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
export function dispatchedContext<Env>(request: RequestMessage, dc: DispatchContext<Env>, source: SignalSource): HandlerContext<Env> {
  const meta = request.params?._meta;
  const ctx = {
    env: dc.env,
    requestId: request.id,
    era: dc.envelope ? "2026" : "2025",
    protocolVersion: dc.protocolVersion,
    clientCapabilities: dc.clientCapabilities,
    session: dc.session,
    meta: isObject(meta) ? meta : undefined,
    principal: dc.principal,
    request: dc.request,
    user: userStoreOf(dc.env, dc.principal),
  } as Record<PropertyKey, unknown>;
  // docs/engine-notes.md "Keyed stores, not computed keys"
  ctx[SOURCE] = source;
  return Object.defineProperty(ctx, "signal", SIGNAL) as unknown as HandlerContext<Env>;
}
