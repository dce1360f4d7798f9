/**
 * The one builder of a handler's `ctx`, wherever its request runs: the Worker's lanes and the
 * session object (through dispatch.ts) and a task's run (durable-objects/tasks/run.ts). Its `signal`
 * is an own enumerable getter made only when first read (lazy-abort.ts;
 * docs/engine-notes.md "One getter for every handler context").
 */
import type { Params, RequestId } from "../../jsonrpc/messages";
import { userStoreOf } from "./user-seam";
import { isObject } from "../../jsonrpc/parse";
import type { DispatchContext } from "../handlers/dispatch-context";
import type { HandlerContext } from "../definition/context";
import type { SignalSource } from "../definition/context";
import type { NotificationContext } from "../definition/methods";

/** Where a context's getter finds its request's signal (a symbol: no handler reads it by name). */
const SOURCE = Symbol();

/** The one `signal` getter of every context. */
const SIGNAL: PropertyDescriptor = {
  get(this: { [SOURCE]: SignalSource }): AbortSignal {
    return this[SOURCE].signal;
  },
  enumerable: true,
  configurable: true,
};

/** What a context says about where its request runs: a dispatch context has it all, a task's run builds it from its record. */
export type ContextSource<Env> = Pick<
  DispatchContext<Env>,
  "server" | "env" | "era" | "protocolVersion" | "clientCapabilities" | "session" | "principal" | "request"
>;

/** The request a context answers: its id (a task's id in its run) and its params, whose `_meta` the context carries. */
export interface ContextRequest {
  id: RequestId;
  params?: Params;
}

/** The handler's `ctx` of one request; `signal` read from `abort` when the handler first reads it. */
export function handlerContext<Env>(from: ContextSource<Env>, request: ContextRequest, abort: SignalSource): HandlerContext<Env> {
  const meta = request.params?._meta;
  const ctx = {
    env: from.env,
    requestId: request.id,
    era: from.era,
    protocolVersion: from.protocolVersion,
    clientCapabilities: from.clientCapabilities,
    session: from.session,
    meta: isObject(meta) ? meta : undefined,
    principal: from.principal,
    request: from.request,
    user: userStoreOf(from.server.users, from.env, from.principal),
  } as Record<PropertyKey, unknown>;
  // docs/engine-notes.md "Keyed stores, not computed keys"
  ctx[SOURCE] = abort;
  return Object.defineProperty(ctx, "signal", SIGNAL) as unknown as HandlerContext<Env>;
}

/** A client notification's `ctx` (defineNotification): a request's, without an id or a signal. */
export function notificationContext<Env>(from: ContextSource<Env>, params: Params | undefined): NotificationContext<Env> {
  const meta = params?._meta;
  return {
    env: from.env,
    era: from.era,
    protocolVersion: from.protocolVersion,
    clientCapabilities: from.clientCapabilities,
    session: from.session,
    meta: isObject(meta) ? meta : undefined,
    principal: from.principal,
    request: from.request,
    user: userStoreOf(from.server.users, from.env, from.principal),
  };
}
