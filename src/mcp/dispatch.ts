/**
 * Method -> handler. One request in, one response out; the same code runs in the Worker and
 * in the session Durable Object, which differ only in the `DispatchContext` they pass (the
 * channel for interactive work, the session operations). A broad catch only ever yields -32603.
 */
import { INTERNAL_ERROR, METHOD_NOT_FOUND, RpcError } from "../jsonrpc/errors";
import { errorMessage, resultMessage, type Params, type RequestMessage, type ResponseMessage } from "../jsonrpc/messages";
import type { Channel, HandlerContext, SessionInfo } from "./context";
import type { Principal } from "../auth/principal";
import type { McpServer } from "./server";
import type { ProtocolVersion } from "./versions";
import type { LoggingLevel } from "./types";
import { reportUnexpected } from "./unexpected";
import { callTool, listTools } from "./handlers/tools";
import { listResources, listResourceTemplates, readResource, subscribeResource, unsubscribeResource } from "./handlers/resources";
import { getPrompt, listPrompts } from "./handlers/prompts";
import { complete } from "./handlers/completion";
import { setLogLevel } from "./handlers/logging";

/** Session state changes only the session object can make. */
export interface SessionOps {
  setLogLevel(level: LoggingLevel): Promise<void>;
  subscribe(uri: string): Promise<void>;
  unsubscribe(uri: string): Promise<void>;
}

export interface DispatchContext<Env> {
  server: McpServer<Env>;
  env: Env;
  /** Whether the runtime runs with sessions (decides `resources.subscribe`). */
  sessions: boolean;
  session: SessionInfo | undefined;
  protocolVersion: ProtocolVersion;
  /** Present where interactive handlers can run; absent in the Worker's JSON lane. */
  channel: Channel | undefined;
  ops: SessionOps | undefined;
  /** The authenticated principal, when the server has auth. */
  principal?: Principal;
}

export type MethodHandler = <Env>(params: Params, dc: DispatchContext<Env>, hc: HandlerContext<Env>) => Promise<Params>;

const METHODS: Record<string, MethodHandler> = {
  ping: async () => ({}),
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

export function isKnownMethod(method: string): boolean {
  return method === "initialize" || Object.hasOwn(METHODS, method);
}

/** Answers one request (not `initialize`, which the lanes handle because it creates sessions). */
export async function dispatchRequest<Env>(request: RequestMessage, dc: DispatchContext<Env>, signal: AbortSignal): Promise<ResponseMessage> {
  const handler = Object.hasOwn(METHODS, request.method) ? METHODS[request.method] : undefined;
  if (!handler) {
    return errorMessage(request.id, { code: METHOD_NOT_FOUND, message: `Method not found: ${request.method}` });
  }
  const params = request.params ?? {};
  const meta = params._meta;
  const hc: HandlerContext<Env> = {
    env: dc.env,
    signal,
    requestId: request.id,
    protocolVersion: dc.protocolVersion,
    session: dc.session,
    meta: typeof meta === "object" && meta !== null && !Array.isArray(meta) ? (meta as Record<string, unknown>) : undefined,
    principal: dc.principal,
  };
  try {
    return resultMessage(request.id, await handler(params, dc, hc));
  } catch (error) {
    return errorMessage(request.id, toErrorObject(error, request));
  }
}

/** RpcErrors pass through; anything else is logged here and becomes -32603 with only a reference. */
export function toErrorObject(error: unknown, request: RequestMessage): { code: number; message: string; data?: unknown } {
  if (error instanceof RpcError) return error.toJSON();
  const reference = reportUnexpected(`${request.method} (id ${JSON.stringify(request.id)})`, error);
  return { code: INTERNAL_ERROR, message: "Internal error", data: { reference } };
}
