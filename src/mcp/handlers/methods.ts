/**
 * An extension's own methods and client notifications (definition/methods.ts), run as a tool is: the
 * gate on the client's declaration (the refusal table's row), params checked by their schema (-32602
 * naming the field), then the handler, with an interactive context where the lane has a channel.
 */
import { INVALID_PARAMS, RpcError } from "../../jsonrpc/errors";
import type { Params } from "../../jsonrpc/messages";
import { isObject } from "../../jsonrpc/parse";
import { errorOf, refusalRow } from "../../wire/refusals";
import { clientDeclares } from "../definition/extensions";
import type { MethodDefinition, NotificationDefinition } from "../definition/methods";
import type { HandlerContext, InteractiveContext } from "../definition/context";
import { createInteractiveContext } from "../asks/interactive-context";
import type { DispatchContext } from "./dispatch-context";

/** What in a request's params is the protocol's, not the method's: `_meta` (ctx.meta) and an MRTR retry's fields. */
const PROTOCOL_FIELDS = ["_meta", "inputResponses", "requestState"] as const;

function ownParams(params: Params): Params {
  if (!PROTOCOL_FIELDS.some((field) => Object.hasOwn(params, field))) return params;
  const own = { ...params };
  for (const field of PROTOCOL_FIELDS) delete own[field];
  return own;
}

/**
 * The refusal for a definition of an extension the request's client did not declare (the request's own
 * capabilities on 2026-07-28, the session's on 2025), else undefined.
 */
export function undeclaredExtension(
  definition: Pick<MethodDefinition, "method" | "extension">,
  context: Pick<HandlerContext<unknown>, "era" | "clientCapabilities">,
): RpcError | undefined {
  const extension = definition.extension;
  if (extension === undefined || clientDeclares(context.clientCapabilities, extension)) return undefined;
  const error = errorOf(refusalRow({ reason: "extension-not-declared", method: definition.method, extension, era: context.era }));
  return new RpcError(error.code, error.message, error.data);
}

/** The params a handler gets: checked by the definition's schema (its parsed value), or as sent without one. */
export async function checkedParams(
  definition: Pick<MethodDefinition | NotificationDefinition, "method" | "params">,
  params: Params,
): Promise<unknown> {
  const own = ownParams(params);
  if (!definition.params) return own;
  const checked = await definition.params.validate(own);
  if (!checked.ok) throw new RpcError(INVALID_PARAMS, `Invalid params for ${definition.method}: ${checked.message}`);
  return checked.value;
}

/** Answers a request for a method of the server's own (server.method / server.interactiveMethod). */
export async function callMethod<Env>(
  definition: MethodDefinition<Env>,
  params: Params,
  dispatch: DispatchContext<Env>,
  handlerContext: HandlerContext<Env>,
): Promise<Params> {
  const refused = undeclaredExtension(definition, handlerContext);
  if (refused) throw refused;
  const value = await checkedParams(definition, params);
  if (definition.interactive && !dispatch.channel) {
    // A routing mistake, not a client error: interactive methods always get a channel (routing.ts).
    throw new Error(`interactive method "${definition.method}" reached a lane without a channel`);
  }
  const ctx = dispatch.channel ? createInteractiveContext(handlerContext, dispatch.channel) : handlerContext;
  const result: unknown = await definition.handler(value as never, ctx as InteractiveContext<Env>);
  if (!isObject(result)) throw new Error(`method "${definition.method}" returned ${typeof result}, not a result object`);
  return result;
}
