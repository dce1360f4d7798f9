/**
 * What a handler may do. A simple handler's context can read its request and the session but
 * has no way to send anything; an interactive handler's context adds progress, logging,
 * sampling, elicitation and roots. The difference is a type, so a simple tool that tries to
 * sample fails to compile instead of hanging. Contexts emit intents through a `Channel`; only
 * the lane that owns the channel turns them into wire frames.
 */
import { CAPABILITY_UNAVAILABLE, CLIENT_ERROR, INVALID_PARAMS, RpcError } from "../jsonrpc/errors";
import type { Params, RequestId } from "../jsonrpc/messages";
import type { Principal } from "../auth/principal";
import { checkElicitationSchema } from "./elicitation-schema";
import type { ProtocolVersion } from "./versions";
import {
  LOGGING_LEVELS, type ClientCapabilities, type CreateMessageParams, type CreateMessageResult,
  type ElicitResult, type Implementation, type LoggingLevel, type Root,
} from "./types";

/** The negotiated state of a session, as stored in its Durable Object. */
export interface SessionState {
  protocolVersion: ProtocolVersion;
  clientInfo: Implementation | undefined;
  clientCapabilities: ClientCapabilities;
  logLevel: LoggingLevel | undefined;
  /** With auth: the subject of the principal that created the session; only that principal may use it. */
  subject?: string;
}

export interface SessionInfo extends SessionState {
  id: string;
}

export interface HandlerContext<Env = unknown> {
  /** The Worker's bindings. */
  env: Env;
  /** Aborted when the client cancels the request (`notifications/cancelled`) or the session ends. */
  signal: AbortSignal;
  requestId: RequestId;
  /** The revision in force for this request: the session's, or the header's when stateless. */
  protocolVersion: ProtocolVersion;
  /** The session, or undefined in stateless mode. */
  session: SessionInfo | undefined;
  /** The request's `_meta`, if any. */
  meta: Record<string, unknown> | undefined;
  /** With auth: who sent the request (subject, scopes, claims), as the access token proved. Never the token. */
  principal: Principal | undefined;
}

export interface SamplingRequest extends CreateMessageParams {}

export interface InteractiveContext<Env = unknown> extends HandlerContext<Env> {
  /** Reports progress; a no-op when the request carried no progressToken. Progress must increase. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** Sends `notifications/message`, dropped when below the session's level (logging/setLevel). */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /** Asks the client's model for a completion (`sampling/createMessage`). */
  sample(params: SamplingRequest): Promise<CreateMessageResult>;
  /** Asks the user for input (`elicitation/create`); the schema must be the spec's flat primitive subset. */
  elicit(message: string, requestedSchema: Record<string, unknown>): Promise<ElicitResult>;
  /** The client's roots (`roots/list`). */
  listRoots(): Promise<Root[]>;
  /**
   * Ends the request's SSE stream now; later messages are stored and the client gets them by
   * resuming with Last-Event-ID (2025-11-25 SSE polling). A no-op where streams are not resumable.
   */
  closeStream(): void;
}

/** How a lane carries a handler's messages. */
export interface Channel {
  /** Sends a notification related to the current request. */
  notify(method: string, params: Params): Promise<void>;
  /** Sends a server-to-client request related to the current request and waits for its result. */
  request(method: string, params: Params, signal: AbortSignal): Promise<Params>;
  closeStream(): void;
  /** The session's current minimum log level, if one was set. */
  logLevel(): LoggingLevel | undefined;
  /** Why this lane cannot send server-to-client requests, or undefined when it can. */
  readonly requestUnavailable: string | undefined;
  /** The capabilities the request's client declared, where they are not the session's (a task keeps its creator's). */
  readonly clientCapabilities?: ClientCapabilities;
}

function requireCapability(ctx: HandlerContext<unknown>, channel: Channel, capability: "sampling" | "elicitation" | "roots", method: string): void {
  if (channel.requestUnavailable) {
    throw new RpcError(CAPABILITY_UNAVAILABLE, `${method} is unavailable: ${channel.requestUnavailable}`);
  }
  const declared = (channel.clientCapabilities ?? ctx.session?.clientCapabilities)?.[capability];
  if (declared === undefined || declared === null) {
    throw new RpcError(CAPABILITY_UNAVAILABLE, `${method} is unavailable: the client did not declare the "${capability}" capability`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A client's answer that does not have the shape the spec gives is the client's error, named as such. */
function checkSamplingResult(result: Params): CreateMessageResult {
  const content = result.content;
  if ((result.role !== "user" && result.role !== "assistant") || typeof result.model !== "string" || !isObject(content) || typeof content.type !== "string") {
    throw new RpcError(CLIENT_ERROR, "sampling/createMessage: the client's answer lacks role, model or content");
  }
  return result as unknown as CreateMessageResult;
}

function checkElicitResult(result: Params): ElicitResult {
  const action = result.action;
  if (action !== "accept" && action !== "decline" && action !== "cancel") {
    throw new RpcError(CLIENT_ERROR, 'elicitation/create: the client\'s answer needs action "accept", "decline" or "cancel"');
  }
  if (action === "accept" && result.content !== undefined && !isObject(result.content)) {
    throw new RpcError(CLIENT_ERROR, "elicitation/create: accepted content must be an object");
  }
  return (action === "accept" ? { action, content: result.content ?? {} } : { action }) as ElicitResult;
}

/** Builds an interactive context over a lane's channel. */
export function createInteractiveContext<Env>(base: HandlerContext<Env>, channel: Channel): InteractiveContext<Env> {
  const progressToken = base.meta?.progressToken;
  let lastProgress = -Infinity;
  return {
    ...base,
    async progress(progress, total, message) {
      if (typeof progressToken !== "string" && typeof progressToken !== "number") return;
      // 2025-06-18 "Progress": the progress value MUST increase with each notification.
      if (!(progress > lastProgress)) {
        throw new RpcError(INVALID_PARAMS, `progress must increase: ${progress} after ${lastProgress}`);
      }
      lastProgress = progress;
      const params: Params = { progressToken, progress };
      if (total !== undefined) params.total = total;
      if (message !== undefined) params.message = message;
      await channel.notify("notifications/progress", params);
    },
    async log(level, data, logger) {
      const min = channel.logLevel();
      if (min !== undefined && LOGGING_LEVELS.indexOf(level) < LOGGING_LEVELS.indexOf(min)) return;
      const params: Params = { level, data };
      if (logger !== undefined) params.logger = logger;
      await channel.notify("notifications/message", params);
    },
    async sample(params) {
      requireCapability(base, channel, "sampling", "sampling/createMessage");
      return checkSamplingResult(await channel.request("sampling/createMessage", { ...params }, base.signal));
    },
    async elicit(message, requestedSchema) {
      const problem = checkElicitationSchema(requestedSchema);
      if (problem) throw new RpcError(INVALID_PARAMS, `elicitation schema: ${problem}`);
      requireCapability(base, channel, "elicitation", "elicitation/create");
      return checkElicitResult(await channel.request("elicitation/create", { message, requestedSchema }, base.signal));
    },
    async listRoots() {
      requireCapability(base, channel, "roots", "roots/list");
      const result = await channel.request("roots/list", {}, base.signal);
      return Array.isArray(result.roots) ? (result.roots as Root[]) : [];
    },
    closeStream() {
      channel.closeStream();
    },
  };
}
