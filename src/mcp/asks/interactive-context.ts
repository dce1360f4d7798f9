/**
 * The interactive handler's context made from a plain one and its lane's `Channel`: progress,
 * logging, sampling, elicitation and roots (their types: definition/context.ts), each ask checked
 * against what the client declared and its answer against the spec before the handler sees it.
 */
import { CAPABILITY_UNAVAILABLE, CLIENT_ERROR, INVALID_PARAMS, MISSING_CLIENT_CAPABILITY, RpcError } from "../../jsonrpc/errors";
import type { Params } from "../../jsonrpc/messages";
import { checkFormAnswer, requireElicitationMode, toFormRequest, urlElicitationParams } from "./elicitation-request";
import { checkCreateMessageResult, checkElicitResult, checkListRootsResult, type SampledMessage } from "./client-answers";
import type { AskOptions, Channel, HandlerContext, InteractiveContext, SamplingRequest } from "../definition/context";
import type { SchemaCompilers } from "../definition/schema";
import { LOGGING_LEVELS, type ClientCapabilities, type CreateMessageResult, type CreateMessageWithToolsParams } from "../definition/types";

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
export function createInteractiveContext<Env>(
  base: HandlerContext<Env>,
  channel: Channel,
  compilers?: SchemaCompilers,
): InteractiveContext<Env> {
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
      const form = toFormRequest(schema, compilers);
      requireCapability(base, channel, "elicitation", "elicitation/create");
      requireElicitationMode(declaredBy(base, channel), "form", base.era);
      const result = checkElicitResult(
        await channel.request("elicitation/create", { message, requestedSchema: form.requestedSchema }, base, options?.key),
      );
      return result.action === "accept" ? { action: "accept", content: await checkFormAnswer(form.schema, result.content) } : result;
    },
    notify(method: string, params: Params = {}): Promise<void> {
      return channel.notify(method, params);
    },
    async ask(method: string, params: Params = {}, options?: AskOptions): Promise<Params> {
      if (channel.requestUnavailable) throw new RpcError(CAPABILITY_UNAVAILABLE, `${method} is unavailable: ${channel.requestUnavailable}`);
      return channel.request(method, params, base, options?.key);
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
