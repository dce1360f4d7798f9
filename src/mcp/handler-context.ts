/**
 * The handler context of a dispatched request (dispatch.ts). Its `signal` is an own enumerable
 * getter, so `{ ...ctx }` still carries a signal, and the signal is made only when first read
 * (lazy-abort.ts). The getter is one function for every context: a getter written in an object
 * literal is a new closure per request, and V8 gives an object with an accessor of its own a
 * hidden class of its own. Those classes live in the old generation and hold their request (its
 * body, its lane, its context) alive through every young collection until a full one: under
 * load that doubled the Worker's garbage collection time.
 */
import type { RequestId, RequestMessage } from "../jsonrpc/messages";
import type { Principal } from "../auth/principal";
import { userStore, type UserStore } from "../user";
import { isObject } from "../jsonrpc/parse";
import type { DispatchContext } from "./dispatch-context";
import type { AnyVersion } from "./versions";
import type { HandlerContext, SessionInfo } from "./context";
import type { RequestInfo } from "./request-info";
import type { ClientCapabilities } from "./types";
import type { SignalSource } from "./lazy-abort";

/** The handler's `ctx` of one dispatched request. */
export class DispatchedContext<Env> implements HandlerContext<Env> {
  static readonly #signal: PropertyDescriptor = {
    get(this: DispatchedContext<unknown>): AbortSignal {
      return this.#source.signal;
    },
    enumerable: true,
    configurable: true,
  };

  readonly #source: SignalSource;
  // Declared, not class fields: the constructor's assignments make them (a field list would add bytes to every bundle).
  declare env: Env;
  declare requestId: RequestId;
  declare era: "2025" | "2026";
  declare protocolVersion: AnyVersion;
  declare clientCapabilities: ClientCapabilities | undefined;
  declare session: SessionInfo | undefined;
  declare meta: Record<string, unknown> | undefined;
  declare principal: Principal | undefined;
  declare request: RequestInfo | undefined;
  declare user: UserStore;
  declare readonly signal: AbortSignal;

  constructor(request: RequestMessage, dc: DispatchContext<Env>, source: SignalSource) {
    const meta = request.params?._meta;
    this.#source = source;
    this.env = dc.env;
    this.requestId = request.id;
    this.era = dc.envelope ? "2026" : "2025";
    this.protocolVersion = dc.protocolVersion;
    this.clientCapabilities = dc.clientCapabilities;
    this.session = dc.session;
    this.meta = isObject(meta) ? meta : undefined;
    this.principal = dc.principal;
    this.request = dc.request;
    this.user = userStore(dc.env, dc.principal);
    Object.defineProperty(this, "signal", DispatchedContext.#signal);
  }
}
