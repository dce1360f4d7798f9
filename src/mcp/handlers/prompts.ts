/** prompts/list and prompts/get (2025-06-18 "Prompts"). */
import { INVALID_PARAMS, RpcError } from "../../jsonrpc/errors";
import type { Params } from "../../jsonrpc/messages";
import type { HandlerContext, InteractiveContext } from "../definition/context";
import { createInteractiveContext } from "../asks/interactive-context";
import type { DispatchContext } from "./dispatch-context";
import { paginate } from "./pagination";
import { enabledOnly, isEnabled } from "../definition/server";

export async function listPrompts<Env>(
  params: Params,
  dispatch: DispatchContext<Env>,
  handlerContext: HandlerContext<Env>,
): Promise<Params> {
  const all = (await enabledOnly(dispatch.server.prompts.values(), handlerContext)).map((p) => p.listing);
  const { page, nextCursor } = paginate("prompts", all, params, dispatch.server.pageSize);
  return nextCursor ? { prompts: page, nextCursor } : { prompts: page };
}

export async function getPrompt<Env>(params: Params, dispatch: DispatchContext<Env>, handlerContext: HandlerContext<Env>): Promise<Params> {
  const name = params.name;
  if (typeof name !== "string") throw new RpcError(INVALID_PARAMS, 'prompts/get needs a string "name"');
  const prompt = dispatch.server.prompts.get(name);
  if (!prompt || !(await isEnabled(prompt, handlerContext))) throw new RpcError(INVALID_PARAMS, `Unknown prompt: ${name}`);
  const raw = params.arguments ?? {};
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new RpcError(INVALID_PARAMS, `prompts/get "${name}": "arguments" must be an object`);
  const entries = Object.entries(raw);
  for (const [key, value] of entries) {
    if (typeof value !== "string") throw new RpcError(INVALID_PARAMS, `prompts/get "${name}": argument "${key}" must be a string`);
  }
  // Keys are the client's: fromEntries defines own fields (a "__proto__" key stays a field), and
  // presence is asked with Object.hasOwn, so an inherited name such as "constructor" is never "given".
  const args = Object.fromEntries(entries) as Record<string, string>;
  const missing = prompt.arguments.filter((a) => a.required && !Object.hasOwn(args, a.name)).map((a) => a.name);
  if (missing.length > 0) throw new RpcError(INVALID_PARAMS, `prompts/get "${name}": missing required argument(s): ${missing.join(", ")}`);
  if (prompt.interactive && !dispatch.channel) throw new Error(`interactive prompt "${name}" reached a lane without a channel`);
  // A simple prompt's get gets the plain context; the cast only widens what its type already hides.
  const ctx =
    prompt.interactive && dispatch.channel
      ? createInteractiveContext(handlerContext, dispatch.channel, dispatch.server)
      : (handlerContext as InteractiveContext<Env>);
  const result = await prompt.get(args, ctx);
  return { ...result };
}
