/** resources/list, templates/list, read, subscribe, unsubscribe (2025-06-18 "Resources"). */
import { CAPABILITY_UNAVAILABLE, INVALID_PARAMS, RESOURCE_NOT_FOUND, RpcError } from "../../jsonrpc/errors";
import type { Params } from "../../jsonrpc/messages";
import type { HandlerContext, InteractiveContext } from "../definition/context";
import { createInteractiveContext } from "../asks/interactive-context";
import type { DispatchContext } from "./dispatch-context";
import { paginate } from "./pagination";
import { enabledOnly, isEnabled } from "../definition/server";
import type { ReadResult, ResourceContentsInput } from "../definition/server";
import { toBase64 } from "../definition/content";
import { listResourcePage } from "./resource-listing";
import type { ResourceContents } from "../definition/types";

/** The static resources, then those the templates with a `list` callback name (resource-listing.ts). */
export function listResources<Env>(params: Params, dispatch: DispatchContext<Env>, handlerContext: HandlerContext<Env>): Promise<Params> {
  return listResourcePage(dispatch.server, params, handlerContext);
}

export async function listResourceTemplates<Env>(
  params: Params,
  dispatch: DispatchContext<Env>,
  handlerContext: HandlerContext<Env>,
): Promise<Params> {
  const all = (await enabledOnly(dispatch.server.templates, handlerContext)).map((t) => t.listing);
  const { page, nextCursor } = paginate("templates", all, params, dispatch.server.pageSize);
  return nextCursor ? { resourceTemplates: page, nextCursor } : { resourceTemplates: page };
}

/**
 * The longest URI any method takes, in UTF-16 units (the boundary for read, subscribe,
 * unsubscribe and completion refs alike): a subscription is stored for the session's life, so
 * with maxSubscriptions this also bounds what subscriptions can store.
 */
export const MAX_URI_LENGTH = 8192;

/** Refuses a URI longer than MAX_URI_LENGTH with -32602 naming the limit. */
export function checkUriLength(uri: string, method: string): string {
  if (uri.length > MAX_URI_LENGTH) {
    const verb = method === "resources/subscribe" ? "can be subscribed to" : "are accepted";
    throw new RpcError(INVALID_PARAMS, `${method}: the uri is ${uri.length} characters long; at most ${MAX_URI_LENGTH} ${verb}`);
  }
  return uri;
}

function requireUri(params: Params, method: string): string {
  if (typeof params.uri !== "string" || params.uri.length === 0) throw new RpcError(INVALID_PARAMS, `${method} needs a string "uri"`);
  return checkUriLength(params.uri, method);
}

function normalise(uri: string, mimeType: string | undefined, result: ReadResult): ResourceContents[] {
  const list: ResourceContentsInput[] = Array.isArray(result) ? result : [result];
  return list.map((item) => {
    const base = { uri: item.uri ?? uri, ...((item.mimeType ?? mimeType) ? { mimeType: item.mimeType ?? mimeType } : {}) };
    const meta = item._meta ? { _meta: item._meta } : {};
    if ("blob" in item) return { ...base, blob: typeof item.blob === "string" ? item.blob : toBase64(item.blob), ...meta };
    if ("text" in item && typeof item.text === "string") return { ...base, text: item.text, ...meta };
    throw new Error(`resource ${uri}: a read handler must return contents with "text" or "blob"`);
  });
}

/** Finds the definition serving a URI: a static resource first, then the first matching template. */
export async function readResource<Env>(
  params: Params,
  dispatch: DispatchContext<Env>,
  handlerContext: HandlerContext<Env>,
): Promise<Params> {
  const uri = requireUri(params, "resources/read");
  // A disabled definition does not exist for this caller.
  const fixed = dispatch.server.resources.get(uri);
  if (fixed && (await isEnabled(fixed, handlerContext))) {
    if (fixed.interactive && !dispatch.channel) throw new Error(`interactive resource "${uri}" reached a lane without a channel`);
    // A simple read gets the plain context; the cast only widens what its type already hides.
    const ctx =
      fixed.interactive && dispatch.channel
        ? createInteractiveContext(handlerContext, dispatch.channel, dispatch.server)
        : (handlerContext as InteractiveContext<Env>);
    return { contents: normalise(uri, fixed.listing.mimeType as string | undefined, await fixed.read(uri, ctx)) };
  }
  for (const t of dispatch.server.templates) {
    const variables = t.template.match(uri);
    if (variables && (await isEnabled(t, handlerContext)))
      return { contents: normalise(uri, t.mimeType, await t.read(uri, variables, handlerContext)) };
  }
  // 2026-07-28 server/resources.mdx "Error Handling" (SEP-2164): -32602; -32002 is the 2025 era's code.
  throw new RpcError(handlerContext.era === "2026" ? INVALID_PARAMS : RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
}

function requireKnownResource<Env>(uri: string, dispatch: DispatchContext<Env>): void {
  if (dispatch.server.resources.has(uri) || dispatch.server.templates.some((t) => t.template.match(uri))) return;
  throw new RpcError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
}

function requireOps<Env>(dispatch: DispatchContext<Env>, method: string) {
  if (!dispatch.ops) throw new RpcError(CAPABILITY_UNAVAILABLE, `${method} needs a session; this server runs in stateless mode`);
  return dispatch.ops;
}

export async function subscribeResource<Env>(params: Params, dispatch: DispatchContext<Env>): Promise<Params> {
  const uri = requireUri(params, "resources/subscribe");
  const ops = requireOps(dispatch, "resources/subscribe");
  requireKnownResource(uri, dispatch);
  await ops.subscribe(uri);
  return {};
}

export async function unsubscribeResource<Env>(params: Params, dispatch: DispatchContext<Env>): Promise<Params> {
  const uri = requireUri(params, "resources/unsubscribe");
  await requireOps(dispatch, "resources/unsubscribe").unsubscribe(uri);
  return {};
}
