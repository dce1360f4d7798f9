/** completion/complete for prompt arguments and resource template variables (2025-06-18 "Completion"). */
import { INVALID_PARAMS, RpcError } from "../../jsonrpc/errors";
import type { Params } from "../../jsonrpc/messages";
import type { HandlerContext } from "../definition/context";
import type { DispatchContext } from "./dispatch-context";
import type { Completer } from "../definition/server";
import { checkUriLength } from "./resources";

/** The spec caps a completion response at 100 values. */
const MAX_VALUES = 100;

function findCompleter<Env>(ref: Record<string, unknown>, argument: string, dispatch: DispatchContext<Env>): Completer<Env> | undefined {
  if (ref.type === "ref/prompt") {
    if (typeof ref.name !== "string") throw new RpcError(INVALID_PARAMS, 'completion/complete: ref/prompt needs a "name"');
    const prompt = dispatch.server.prompts.get(ref.name);
    if (!prompt) throw new RpcError(INVALID_PARAMS, `Unknown prompt: ${ref.name}`);
    return prompt.arguments.find((a) => a.name === argument)?.complete;
  }
  if (ref.type === "ref/resource") {
    if (typeof ref.uri !== "string") throw new RpcError(INVALID_PARAMS, 'completion/complete: ref/resource needs a "uri"');
    checkUriLength(ref.uri, "completion/complete");
    const template = dispatch.server.templates.find((t) => t.template.template === ref.uri);
    if (!template) {
      if (dispatch.server.resources.has(ref.uri)) return undefined;
      throw new RpcError(INVALID_PARAMS, `Unknown resource template: ${ref.uri}`);
    }
    // The argument name is the client's: only the template's own completers count (never "constructor").
    return Object.hasOwn(template.complete, argument) ? template.complete[argument] : undefined;
  }
  throw new RpcError(INVALID_PARAMS, 'completion/complete: "ref.type" must be "ref/prompt" or "ref/resource"');
}

export async function complete<Env>(params: Params, dispatch: DispatchContext<Env>, handlerContext: HandlerContext<Env>): Promise<Params> {
  const { ref, argument, context } = params;
  if (typeof ref !== "object" || ref === null || Array.isArray(ref))
    throw new RpcError(INVALID_PARAMS, 'completion/complete needs a "ref" object');
  if (typeof argument !== "object" || argument === null)
    throw new RpcError(INVALID_PARAMS, 'completion/complete needs an "argument" object');
  const { name, value } = argument as Record<string, unknown>;
  if (typeof name !== "string" || typeof value !== "string") {
    throw new RpcError(INVALID_PARAMS, 'completion/complete: "argument" needs string "name" and "value"');
  }
  const completer = findCompleter(ref as Record<string, unknown>, name, dispatch);
  if (!completer) return { completion: { values: [], hasMore: false } };
  const given = typeof context === "object" && context !== null ? (context as Record<string, unknown>).arguments : undefined;
  // Keys are the client's: fromEntries defines own fields, so a "__proto__" key stays a field.
  const resolved: Record<string, string> =
    typeof given === "object" && given !== null
      ? Object.fromEntries(Object.entries(given).filter((entry): entry is [string, string] => typeof entry[1] === "string"))
      : {};
  const all = await completer(value, { ...handlerContext, arguments: resolved });
  return { completion: { values: all.slice(0, MAX_VALUES), total: all.length, hasMore: all.length > MAX_VALUES } };
}
