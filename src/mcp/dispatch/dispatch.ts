/**
 * Method -> handler. One request in, one response out; the same code runs in the Worker and
 * in the session Durable Object, which differ only in the `DispatchContext` they pass (the
 * channel for interactive work, the session operations). A broad catch only ever yields -32603.
 */
import { INTERNAL_ERROR, METHOD_NOT_FOUND, RpcError } from "../../jsonrpc/errors";
import {
  errorMessage,
  resultMessage,
  toWire,
  type NotificationMessage,
  type RequestMessage,
  type ResponseMessage,
} from "../../jsonrpc/messages";
import type { HandlerContext } from "../definition/context";
import type { DispatchContext, MethodHandler } from "../handlers/dispatch-context";
import { reportUnexpected, type ErrorListener } from "../operations/unexpected";
import { refusalOf, throughMiddleware, wrappedCall } from "../operations/middleware";
import { callTool, listTools } from "../handlers/tools";
import { listResources, listResourceTemplates, readResource, subscribeResource, unsubscribeResource } from "../handlers/resources";
import { getPrompt, listPrompts } from "../handlers/prompts";
import { complete } from "../handlers/completion";
import { setLogLevel } from "../handlers/logging";
import { discover } from "../handlers/discover";
import type { McpServer } from "../definition/server";
import { finish2026Result } from "../era-2026/result-2026";
import { bindObservation, meterEvent, observerOf, type Observation, type Observer } from "../operations/observe";
import type { SignalSource } from "../definition/context";
import { handlerContext, notificationContext } from "./handler-context";

export { dispatchContext, type DispatchContext, type LaneContext, type SessionOps } from "../handlers/dispatch-context";

const METHODS: Record<string, MethodHandler> = {
  async ping() {
    return {};
  },
  "tools/list": listTools,
  "tools/call": callTool,
  "resources/list": listResources,
  "resources/templates/list": listResourceTemplates,
  "resources/read": readResource,
  "resources/subscribe": subscribeResource,
  "resources/unsubscribe": unsubscribeResource,
  "prompts/list": listPrompts,
  "prompts/get": getPrompt,
  "completion/complete": complete,
  "logging/setLevel": setLogLevel,
};

/**
 * 2026-07-28: the same handlers minus what the revision removed (`ping`, `logging/setLevel`,
 * `resources/subscribe|unsubscribe`; changelog.mdx), plus `server/discover`.
 * `subscriptions/listen` is served by the hub lane, not here; extensions add their methods.
 */
const METHODS_2026: Record<string, MethodHandler> = {
  "server/discover": discover,
  "tools/list": listTools,
  "tools/call": callTool,
  "resources/list": listResources,
  "resources/templates/list": listResourceTemplates,
  "resources/read": readResource,
  "prompts/list": listPrompts,
  "prompts/get": getPrompt,
  "completion/complete": complete,
  // Tasks extension (ext-tasks): exist only when the server declares it; -32021 when the request did not.
  "tasks/get": taskMethod("tasks/get"),
  "tasks/update": taskMethod("tasks/update"),
  "tasks/cancel": taskMethod("tasks/cancel"),
};

/** A tasks/* method: answered by the task's own Durable Object, through the lane's task seam. */
function taskMethod(method: string): MethodHandler {
  return (params, dispatch, handlerContext) => {
    if (!dispatch.tasks) throw new RpcError(METHOD_NOT_FOUND, `Method not found: ${method}`);
    return dispatch.tasks.serve(method, params, handlerContext as HandlerContext<unknown>);
  };
}

export function isKnownMethod(method: string): boolean {
  return method === "initialize" || Object.hasOwn(METHODS, method);
}

/** Whether a 2026-07-28 request names a method `server` serves (else 404 -32601 before anything runs). */
export function is2026Method<Env>(method: string, server: McpServer<Env>): boolean {
  return Object.hasOwn(METHODS_2026, method) || server.methods.has(method);
}

/**
 * Answers one request (not `initialize`, which the lanes handle because it creates sessions).
 * `abort`: where the handler's `ctx.signal` comes from, read only when the handler reads it.
 */
export function dispatchRequest<Env>(
  request: RequestMessage,
  dispatch: DispatchContext<Env>,
  abort: SignalSource,
): Promise<ResponseMessage> {
  const observer = observerOf(dispatch.server);
  return observer ? observedRequest(observer, request, dispatch, abort) : answerRequest(request, dispatch, abort);
}

/** The request inside its observation (observe.ts: span and event), which the response's outcome marks. */
async function observedRequest<Env>(
  observer: Observer,
  request: RequestMessage,
  dispatch: DispatchContext<Env>,
  abort: SignalSource,
): Promise<ResponseMessage> {
  const operation = {
    method: request.method,
    params: request.params ?? {},
    requestId: request.id,
    sessionId: dispatch.session?.id,
    protocolVersion: dispatch.protocolVersion,
    parent: dispatch.traceparent,
  };
  // The session object's dispatches have channel and ops; a Worker lane's do not (2025) or have no ops (2026).
  const span = observer.start(operation, dispatch.ops ? "session" : "worker", dispatch.env);
  const unbilled = dispatch.unbilledDoRequests;
  if (unbilled && unbilled.count > 0) {
    span.countDoRequests(unbilled.count);
    unbilled.count = 0;
  }
  try {
    const response = await answerRequest(request, dispatch, abort, span);
    if (dispatch.meter) {
      // In the session object a streamed request's response is one more stored event.
      if (dispatch.ops && dispatch.channel) meterEvent(dispatch.meter, JSON.stringify(toWire(response)));
      span.measure(dispatch.meter);
    }
    if (response.kind === "error") span.failed(response.error.code, response.error.message);
    else if (response.result.isError === true) span.toolFailed();
    return response;
  } finally {
    span.end();
  }
}

async function answerRequest<Env>(
  request: RequestMessage,
  dispatch: DispatchContext<Env>,
  abort: SignalSource,
  span?: Observation,
): Promise<ResponseMessage> {
  const server = dispatch.server;
  const table = dispatch.envelope ? METHODS_2026 : METHODS;
  const handler = Object.hasOwn(table, request.method) ? table[request.method] : undefined;
  // A method of the server's own (server.add(defineMethod(…))): a core method's name is refused at definition.
  const own = handler ? undefined : server.methods.get(request.method);
  if (!handler && !own) {
    return errorMessage(request.id, { code: METHOD_NOT_FOUND, message: `Method not found: ${request.method}` });
  }
  const params = request.params ?? {};
  const ctx = handlerContext(dispatch, request, abort);
  if (span) bindObservation(ctx, span);
  // The server's own method runs with the lane's channel (an interactive context where there is one).
  const run = own ? () => own.run(params, ctx, dispatch.channel) : () => (handler as MethodHandler)(params, dispatch, ctx);
  // Zero cost without middleware or an error hook: no call is built, and `run` is called as is.
  const call = wrappedCall(server, request.method, params, ctx);
  try {
    const result = call ? await throughMiddleware(server, call, run) : await run();
    return resultMessage(request.id, dispatch.envelope ? finish2026Result(request, result, server) : result);
  } catch (error) {
    const refused = refusalOf(error, request.method);
    if (refused && "error" in refused) return errorMessage(request.id, refused.error);
    if (refused) return resultMessage(request.id, dispatch.envelope ? finish2026Result(request, refused.result, server) : refused.result);
    return errorMessage(request.id, toErrorObject(error, request, { hook: server.errorHook, call }));
  }
}

/** RpcErrors pass through; anything else is logged here (and told to `listener`) and becomes -32603 with only a reference. */
export function toErrorObject<Env>(
  error: unknown,
  request: RequestMessage,
  listener?: ErrorListener<Env>,
): { code: number; message: string; data?: unknown } {
  if (error instanceof RpcError) return error.toJSON();
  const reference = reportUnexpected(`${request.method} (id ${JSON.stringify(request.id)})`, error, listener);
  return { code: INTERNAL_ERROR, message: "Internal error", data: { reference } };
}

/**
 * Runs the server's handler of a client notification (`server.add(defineNotification(…))`), if it has
 * one; resolves when it finished. It never throws: a refusal or a failure is logged (handlers/methods.ts).
 */
export async function dispatchNotification<Env>(message: NotificationMessage, dispatch: DispatchContext<Env>): Promise<void> {
  const definition = dispatch.server.notifications.get(message.method);
  if (definition) await definition.hear(message.params ?? {}, notificationContext(dispatch, message.params), dispatch.server.errorHook);
}
