/**
 * Middleware: functions that wrap every JSON-RPC request a server handles (`server.use`), onion
 * style, in registration order, wherever the request runs (the Worker, the session object, a task's
 * run). A middleware sees the call (method, the tool or prompt name or resource URI, params and
 * the handler's context) and `next`; it may change nothing and time it, return its own result, or
 * throw a `ToolError` / `RpcError` to refuse. With none registered the dispatcher never builds a call.
 * Also the operator's error hook (`server.onError`): every unexpected exception with its reference.
 */
import { INVALID_REQUEST } from "../../jsonrpc/errors";
import type { ErrorObject, Params } from "../../jsonrpc/messages";
import type { ErrorHook, HandlerContext, McpCall, Middleware, NamedMethod, OtherMethod } from "../definition/context";
import { ToolError, toolError } from "../definition/content";

const NAMED: Readonly<Record<NamedMethod, string>> = { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" };

/** What a request names: the tool or prompt name, or the resource URI; undefined for other methods (or when missing). */
export function targetOf(method: string, params: Params): string | undefined {
  if (!Object.hasOwn(NAMED, method)) return undefined;
  const name = params[NAMED[method as NamedMethod]];
  return typeof name === "string" ? name : undefined;
}

/**
 * The call a request makes, for middleware and the error hook; undefined for a named method
 * without its name (the handler refuses that with -32602 before anything could be wrapped).
 */
export function callOf<Env>(method: string, params: Params, ctx: HandlerContext<Env>): McpCall<Env> | undefined {
  if (!Object.hasOwn(NAMED, method)) return { method: method as OtherMethod, name: undefined, params, ctx };
  const name = targetOf(method, params);
  return name === undefined ? undefined : { method: method as NamedMethod, name, params, ctx };
}

/** Runs `call` through `chain` (first registered outermost) and finally `handler`. */
function runThrough<Env>(chain: readonly Middleware<Env>[], call: McpCall<Env>, handler: () => Promise<Params>): Promise<Params> {
  const step = (i: number): Promise<Params> => {
    const middleware = chain[i];
    if (!middleware) return handler();
    let called = false;
    return middleware(call, () => {
      if (called) return Promise.reject(new Error("mcp-edge: a middleware called next() twice"));
      called = true;
      return step(i + 1);
    });
  };
  return step(0);
}

/** What the wrap reads of a server: its middleware and its error hook. */
export interface Wrapping<Env> {
  readonly middleware: readonly Middleware<Env>[];
  readonly errorHook: ErrorHook<Env> | undefined;
}

/**
 * The call a request makes, built only when the server has middleware or an error hook (zero cost
 * without): undefined otherwise, and for a named method without its name (callOf).
 */
export function wrappedCall<Env>(
  server: Wrapping<Env>,
  method: string,
  params: Params,
  ctx: HandlerContext<Env>,
): McpCall<Env> | undefined {
  return server.middleware.length > 0 || server.errorHook !== undefined ? callOf(method, params, ctx) : undefined;
}

/**
 * The one middleware wrap, wherever a request runs (the Worker, the session object, a task's run):
 * `handler` inside the server's middleware when there is a call to wrap, else `handler` alone.
 */
export function throughMiddleware<Env>(
  server: Wrapping<Env>,
  call: McpCall<Env> | undefined,
  handler: () => Promise<Params>,
): Promise<Params> {
  return call && server.middleware.length > 0 ? runThrough(server.middleware, call, handler) : handler();
}

/**
 * The wrap's error rule, the same in every place: a middleware's `ToolError` refuses the call, as a
 * failing tool result on `tools/call` and as -32600 elsewhere. Undefined for any other error.
 */
export function refusalOf(error: unknown, method: string): { result: Params } | { error: ErrorObject } | undefined {
  if (!(error instanceof ToolError)) return undefined;
  if (method !== "tools/call") return { error: { code: INVALID_REQUEST, message: error.message } };
  return { result: { ...toolError(error.message) } };
}
