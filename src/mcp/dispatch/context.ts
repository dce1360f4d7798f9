/**
 * What a handler may do. A simple handler's context can read its request and the session but
 * has no way to send anything; an interactive handler's context adds progress, logging,
 * sampling, elicitation and roots. The difference is a type, so a simple tool that tries to
 * sample fails to compile instead of hanging. Contexts emit intents through a `Channel`; only
 * the lane that owns the channel turns them into wire frames.
 */
import { CAPABILITY_UNAVAILABLE, CLIENT_ERROR, INVALID_PARAMS, MISSING_CLIENT_CAPABILITY, RpcError } from "../../jsonrpc/errors";
import type { Params, RequestId } from "../../jsonrpc/messages";
import type { Principal } from "../../auth/principal";
import type { RequestInfo } from "./request-info";
import type { UserStore } from "./user-seam";
import type { SignalSource } from "./lazy-abort";
import {
  checkFormAnswer,
  requireElicitationMode,
  toFormRequest,
  urlElicitationParams,
  type ElicitUrlOptions,
} from "../asks/elicitation-request";
import { checkCreateMessageResult, checkElicitResult, checkListRootsResult, type SampledMessage } from "../asks/client-answers";
import type { InferSchema, SchemaInput } from "../tools/schema";
import type { AnyVersion, ProtocolVersion } from "../definition/versions";
import {
  LOGGING_LEVELS,
  type ClientCapabilities,
  type CreateMessageParams,
  type CreateMessageResult,
  type CreateMessageWithToolsParams,
  type CreateMessageWithToolsResult,
  type ElicitResult,
  type Implementation,
  type LoggingLevel,
  type Root,
  type UrlElicitResult,
} from "../definition/types";

export type { ElicitUrlOptions };

/** The negotiated state of a session, as stored in its Durable Object. */
export interface SessionState {
  protocolVersion: ProtocolVersion;
  clientInfo: Implementation | undefined;
  clientCapabilities: ClientCapabilities;
  logLevel: LoggingLevel | undefined;
  /** With auth: the subject of the principal that created the session; only that principal may use it. */
  subject?: string;
  /** The route key of the endpoint it was created on (absent: a literal path); only that route's requests reach it. */
  route?: string;
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
  /** "2025": a session (or stateless) request of the initialize era; "2026": a 2026-07-28 request, stateless by the protocol. */
  era: "2025" | "2026";
  /** The revision in force for this request: the session's, the header's when stateless, or the 2026 request's own. */
  protocolVersion: AnyVersion;
  /** What the client declared: the session's capabilities (2025), or this request's own (2026). */
  clientCapabilities: ClientCapabilities | undefined;
  /** The session, or undefined in stateless mode. */
  session: SessionInfo | undefined;
  /** The request's `_meta`, if any. */
  meta: Record<string, unknown> | undefined;
  /** With auth: who sent the request (subject, scopes, claims), as the access token proved. Never the token. */
  principal: Principal | undefined;
  /**
   * The HTTP request that started the call (url, method, headers, `cf`), read-only; the same snapshot
   * in the Worker, the session object and a task's run. Never carries Authorization or Cookie.
   */
  request?: RequestInfo;
  /**
   * The principal's own store (needs auth and the MCP_USER binding): what should outlive a
   * session, since 2026-07-28 has none and many clients start one per call. Anonymous: refused.
   */
  user: UserStore;
}

export interface SamplingRequest extends CreateMessageParams {}

export interface InteractiveContext<Env = unknown> extends HandlerContext<Env> {
  /** Reports progress; a no-op when the request carried no progressToken. Progress must increase. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** Sends `notifications/message`, dropped when below the session's level (logging/setLevel). */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /**
   * Asks the client's model for a completion (`sampling/createMessage`). On 2026-07-28 every ask
   * is a multi round-trip request (MRTR): `key` names it in `inputRequests` (default: its call order).
   * With `tools` (SEP-1577) the answer is a list of blocks that may hold `tool_use`; refused unless
   * the client declared `sampling.tools` (2026: on this request), so check `clientCapabilities` to fall back.
   */
  sample(params: CreateMessageWithToolsParams, options?: AskOptions): Promise<CreateMessageWithToolsResult>;
  sample(params: SamplingRequest, options?: AskOptions): Promise<CreateMessageResult>;
  /**
   * Asks the user to fill a form (`elicitation/create`). The schema is a zod object (or shape,
   * or any Standard Schema: the accepted content is then checked and typed) or JSON Schema;
   * either way it must be the spec's flat primitive subset.
   */
  elicit<const S extends SchemaInput>(message: string, requestedSchema: S, options?: AskOptions): Promise<ElicitResult<ElicitContent<S>>>;
  /**
   * Sends the user to a URL for an interaction that must not pass through the client (URL
   * mode elicitation, 2025-11-25 and 2026-07-28): "accept" means the user agreed to open it, not
   * that they finished. Refused unless the client declared `elicitation.url` (2026: on this request).
   */
  elicitUrl(message: string, url: string, options?: ElicitUrlOptions & AskOptions): Promise<UrlElicitResult>;
  /** The client's roots (`roots/list`). */
  listRoots(options?: AskOptions): Promise<Root[]>;
  /**
   * Ends the request's SSE stream now; later messages are stored and the client gets them by
   * resuming with Last-Event-ID (2025-11-25 SSE polling). A no-op where streams are not resumable.
   */
  closeStream(): void;
  /** Tasks extension: what the tool's `task.gather` returned before the task was created (MRTR rounds). */
  gathered?: Record<string, unknown>;
}

/** The accepted content of a form: typed by a Standard Schema, a plain record for JSON Schema. */
export type ElicitContent<S> = S extends { readonly "~standard": unknown } | { readonly [key: string]: { readonly "~standard": unknown } }
  ? InferSchema<S>
  : Record<string, string | number | boolean | string[]>;

/** How an ask is named in a 2026-07-28 `inputRequests` map; ignored on 2025-era sessions. */
export interface AskOptions {
  key?: string;
}

/** How a lane carries a handler's messages. */
export interface Channel {
  /** Sends a notification related to the current request. */
  notify(method: string, params: Params): Promise<void>;
  /**
   * Sends a server-to-client request related to the current request and waits for its result (MRTR:
   * `key` names it). `from` is the asking context: a lane that cancels asks reads its `signal`.
   */
  request(method: string, params: Params, from: SignalSource, key?: string): Promise<Params>;
  closeStream(): void;
  /** The minimum log level: the session's (2025; undefined = all), or the request's; "none" sends no log at all. */
  logLevel(): LoggingLevel | "none" | undefined;
  /** Why this lane cannot send server-to-client requests, or undefined when it can. */
  readonly requestUnavailable: string | undefined;
  /** The capabilities the request's client declared, where they are not the session's (a task keeps its creator's). */
  readonly clientCapabilities?: ClientCapabilities;
  /**
   * Where progress goes in a lane that sends no `notifications/progress` (a task shows it as its
   * status message, ext-tasks); absent: progress is a notification, sent when the request has a progressToken.
   */
  progressed?(progress: number, total: number | undefined, message: string | undefined): Promise<void>;
}

/**
 * The one place an ask reads what the client declared: a task's own creator's capabilities when
 * its channel carries them, else the handler context's (the request's on 2026-07-28, the
 * session's on 2025; dispatch-context.ts decides which).
 */
function declaredBy(ctx: HandlerContext<unknown>, channel: Channel): ClientCapabilities | undefined {
  return channel.clientCapabilities ?? ctx.clientCapabilities;
}

function requireCapability(
  ctx: HandlerContext<unknown>,
  channel: Channel,
  capability: "sampling" | "elicitation" | "roots",
  method: string,
): void {
  if (channel.requestUnavailable) {
    throw new RpcError(CAPABILITY_UNAVAILABLE, `${method} is unavailable: ${channel.requestUnavailable}`);
  }
  const declared = declaredBy(ctx, channel)?.[capability];
  if (declared === undefined || declared === null) {
    // 2026-07-28 basic/index.mdx: a capability the request did not declare is -32021 (HTTP 400), naming it.
    if (ctx.era === "2026") {
      throw new RpcError(
        MISSING_CLIENT_CAPABILITY,
        `${method} needs the client capability "${capability}", which this request did not declare`,
        {
          requiredCapabilities: { [capability]: {} },
        },
      );
    }
    throw new RpcError(CAPABILITY_UNAVAILABLE, `${method} is unavailable: the client did not declare the "${capability}" capability`);
  }
}

/**
 * The 2025 handler API takes one sampled block (`CreateMessageResult`); a list (sampling with
 * tools) is unwrapped when it holds exactly one block.
 */
function toSingleBlock(answer: SampledMessage): CreateMessageResult {
  if (!Array.isArray(answer.content)) return answer as CreateMessageResult;
  const [only, ...rest] = answer.content;
  if (only === undefined || rest.length > 0 || (only.type !== "text" && only.type !== "image" && only.type !== "audio")) {
    throw new RpcError(
      CLIENT_ERROR,
      "sampling/createMessage: the client answered with a list of content blocks; this server asked for one text, image or audio block",
    );
  }
  return { ...answer, content: only } as CreateMessageResult;
}

/**
 * SEP-1577 (client/sampling.mdx): servers MUST NOT send a tool-enabled sampling request to a client
 * that did not declare `sampling.tools` — on 2026-07-28 in this request's capabilities (-32021 naming it).
 */
function requireSamplingTools(ctx: HandlerContext<unknown>, channel: Channel): void {
  const sampling = declaredBy(ctx, channel)?.sampling;
  const tools = typeof sampling === "object" && sampling !== null ? (sampling as Record<string, unknown>).tools : undefined;
  if (typeof tools === "object" && tools !== null) return;
  if (ctx.era === "2026") {
    throw new RpcError(
      MISSING_CLIENT_CAPABILITY,
      'sampling/createMessage with tools needs the client capability "sampling.tools", which this request did not declare',
      { requiredCapabilities: { sampling: { tools: {} } } },
    );
  }
  throw new RpcError(
    CAPABILITY_UNAVAILABLE,
    'sampling/createMessage with tools is unavailable: the client did not declare "sampling.tools"',
  );
}

function checkSamplingTools(params: Record<string, unknown>): void {
  const tools = params.tools;
  if (!Array.isArray(tools) || tools.length === 0) throw new TypeError("ctx.sample: tools must be a non-empty array");
  for (const tool of tools) {
    if (
      typeof tool !== "object" ||
      tool === null ||
      typeof tool.name !== "string" ||
      typeof tool.inputSchema !== "object" ||
      tool.inputSchema === null
    )
      throw new TypeError("ctx.sample: every tool needs a string name and an inputSchema object");
  }
}

/** `progress` and `log`: the notifications an interactive handler sends about its request. */
function notifier(base: HandlerContext<unknown>, channel: Channel): Pick<InteractiveContext, "progress" | "log"> {
  const progressToken = base.meta?.progressToken;
  let lastProgress = -Infinity;
  return {
    // The one progress rule, for every lane: each value must exceed the last.
    async progress(progress, total, message) {
      const token = typeof progressToken === "string" || typeof progressToken === "number";
      if (!token && !channel.progressed) return;
      // 2025-06-18 "Progress": the progress value MUST increase with each notification.
      if (!(progress > lastProgress)) {
        throw new RpcError(INVALID_PARAMS, `progress must increase: ${progress} after ${lastProgress}`);
      }
      lastProgress = progress;
      if (channel.progressed) return channel.progressed(progress, total, message);
      const params: Params = { progressToken, progress };
      if (total !== undefined) params.total = total;
      if (message !== undefined) params.message = message;
      await channel.notify("notifications/progress", params);
    },
    async log(level, data, logger) {
      const min = channel.logLevel();
      if (min === "none") return;
      if (min !== undefined && LOGGING_LEVELS.indexOf(level) < LOGGING_LEVELS.indexOf(min)) return;
      const params: Params = { level, data };
      if (logger !== undefined) params.logger = logger;
      await channel.notify("notifications/message", params);
    },
  };
}

/**
 * Makes `base` an interactive context over a lane's channel: the ask and notify methods are added
 * to it, not to a copy, so a signal made only when read (lazy-abort.ts) stays unmade.
 */
export function createInteractiveContext<Env>(base: HandlerContext<Env>, channel: Channel): InteractiveContext<Env> {
  return Object.assign(base, notifier(base, channel), {
    // A method, not an arrow cast to the overloads: docs/engine-notes.md "Methods, not arrow properties"
    async sample(params: SamplingRequest | CreateMessageWithToolsParams, options?: AskOptions): Promise<never> {
      requireCapability(base, channel, "sampling", "sampling/createMessage");
      const withTools = params.tools !== undefined || params.toolChoice !== undefined;
      if (withTools) {
        checkSamplingTools(params);
        requireSamplingTools(base, channel);
      }
      const answer = checkCreateMessageResult(await channel.request("sampling/createMessage", { ...params }, base, options?.key));
      // One block without tools (the 2025 shape), a list of blocks with them (SEP-1577).
      const result = withTools
        ? { ...answer, content: Array.isArray(answer.content) ? answer.content : [answer.content] }
        : toSingleBlock(answer);
      return result as never;
    },
    async elicit(message, schema, options) {
      const form = toFormRequest(schema);
      requireCapability(base, channel, "elicitation", "elicitation/create");
      requireElicitationMode(declaredBy(base, channel), "form", base.era);
      const result = checkElicitResult(
        await channel.request("elicitation/create", { message, requestedSchema: form.requestedSchema }, base, options?.key),
      );
      return result.action === "accept" ? { action: "accept", content: await checkFormAnswer(form.schema, result.content) } : result;
    },
    async elicitUrl(message, url, options = {}) {
      const { key, ...urlOptions } = options;
      const params = urlElicitationParams(message, url, urlOptions, base.era);
      if (base.protocolVersion < "2025-11-25") {
        throw new RpcError(
          CAPABILITY_UNAVAILABLE,
          `elicitation/create in URL mode is unavailable: the session negotiated ${base.protocolVersion} (needs 2025-11-25)`,
        );
      }
      requireCapability(base, channel, "elicitation", "elicitation/create");
      requireElicitationMode(declaredBy(base, channel), "url", base.era);
      const { action } = checkElicitResult(await channel.request("elicitation/create", params, base, key));
      return { action };
    },
    async listRoots(options) {
      requireCapability(base, channel, "roots", "roots/list");
      return checkListRootsResult(await channel.request("roots/list", {}, base, options?.key));
    },
    closeStream() {
      channel.closeStream();
    },
  } satisfies Omit<InteractiveContext<Env>, keyof HandlerContext<Env> | "progress" | "log">);
}
