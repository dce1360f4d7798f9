/** completion/complete for prompt arguments and resource template variables (2025-06-18 "Completion"). */
import { INVALID_PARAMS, RpcError } from "../../jsonrpc/errors";
import type { Params } from "../../jsonrpc/messages";
import type { HandlerContext } from "../context";
import type { DispatchContext } from "../dispatch";
import type { Completer } from "../server";

/** The spec caps a completion response at 100 values. */
const MAX_VALUES = 100;

function findCompleter<Env>(ref: Record<string, unknown>, argument: string, dc: DispatchContext<Env>): Completer<Env> | undefined {
  if (ref.type === "ref/prompt") {
    if (typeof ref.name !== "string") throw new RpcError(INVALID_PARAMS, 'completion/complete: ref/prompt needs a "name"');
    const prompt = dc.server.prompts.get(ref.name);
    if (!prompt) throw new RpcError(INVALID_PARAMS, `Unknown prompt: ${ref.name}`);
    return prompt.arguments.find((a) => a.name === argument)?.complete;
  }
  if (ref.type === "ref/resource") {
    if (typeof ref.uri !== "string") throw new RpcError(INVALID_PARAMS, 'completion/complete: ref/resource needs a "uri"');
    const template = dc.server.templates.find((t) => t.template.template === ref.uri);
    if (!template) {
      if (dc.server.resources.has(ref.uri)) return undefined;
      throw new RpcError(INVALID_PARAMS, `Unknown resource template: ${ref.uri}`);
    }
    return template.complete[argument];
  }
  throw new RpcError(INVALID_PARAMS, 'completion/complete: "ref.type" must be "ref/prompt" or "ref/resource"');
}

export async function complete<Env>(params: Params, dc: DispatchContext<Env>, hc: HandlerContext<Env>): Promise<Params> {
  const { ref, argument, context } = params;
  if (typeof ref !== "object" || ref === null || Array.isArray(ref)) throw new RpcError(INVALID_PARAMS, 'completion/complete needs a "ref" object');
  if (typeof argument !== "object" || argument === null) throw new RpcError(INVALID_PARAMS, 'completion/complete needs an "argument" object');
  const { name, value } = argument as Record<string, unknown>;
  if (typeof name !== "string" || typeof value !== "string") {
    throw new RpcError(INVALID_PARAMS, 'completion/complete: "argument" needs string "name" and "value"');
  }
  const completer = findCompleter(ref as Record<string, unknown>, name, dc);
  if (!completer) return { completion: { values: [], hasMore: false } };
  const resolved: Record<string, string> = {};
  const given = typeof context === "object" && context !== null ? (context as Record<string, unknown>).arguments : undefined;
  if (typeof given === "object" && given !== null) {
    for (const [k, v] of Object.entries(given)) if (typeof v === "string") resolved[k] = v;
  }
  const all = await completer(value, { ...hc, arguments: resolved });
  return { completion: { values: all.slice(0, MAX_VALUES), total: all.length, hasMore: all.length > MAX_VALUES } };
}
