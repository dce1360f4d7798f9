/**
 * What every 2026-07-28 result carries beyond the shared handlers' output: `resultType`
 * (basic/index.mdx "ResultType"), the server's identity in `_meta` ("Per-response protocol
 * fields") and, on discover, lists and resources/read, caching hints (server/utilities/caching.mdx).
 * 2025-era results never pass through here, so their wire form is unchanged.
 */
import { CLIENT_ERROR, code2026 } from "../../jsonrpc/errors";
import { errorMessage, type Params, type RequestMessage, type ResponseMessage } from "../../jsonrpc/messages";
import { combineHints, NO_CACHE, type ResolvedCacheHint } from "../definition/caching";
import { META_SERVER_INFO } from "./envelope";
import type { McpServer } from "../definition/server";

/**
 * Adds `_meta["io.modelcontextprotocol/serverInfo"]` to a 2026 result, keeping any `_meta` it has:
 * the full info (icons, website) on server/discover, name/version/title on every other result.
 */
export function withServerInfo<Env>(result: Params, server: McpServer<Env>, full = false): Params {
  const meta: Record<string, unknown> =
    typeof result._meta === "object" && result._meta !== null && !Array.isArray(result._meta) ? { ...result._meta } : {};
  // docs/engine-notes.md "Keyed stores, not computed keys"
  meta[META_SERVER_INFO] = full ? server.info : server.identity;
  return { ...result, _meta: meta };
}

function hintFor<Env>(request: RequestMessage, server: McpServer<Env>): ResolvedCacheHint | undefined {
  const params = request.params ?? {};
  switch (request.method) {
    case "tools/list":
      return combineHints(server.tools.values(), NO_CACHE);
    case "prompts/list":
      return combineHints(server.prompts.values(), NO_CACHE);
    case "resources/list":
      // Templates with a `list` feed this list too: the least cacheable of all its sources.
      return combineHints([...server.resources.values(), ...server.templates.filter((t) => t.list)], NO_CACHE);
    case "resources/templates/list":
      return combineHints(server.templates, NO_CACHE);
    case "resources/read": {
      // caching.mdx "Cache Key": a result of an MRTR retry must not be cached.
      if (params.inputResponses !== undefined || params.requestState !== undefined) return NO_CACHE;
      const uri = params.uri;
      if (typeof uri !== "string") return NO_CACHE;
      const fixed = server.resources.get(uri);
      const definition = fixed ?? server.templates.find((t) => t.template.match(uri));
      return definition ? combineHints([definition], NO_CACHE) : NO_CACHE;
    }
    default:
      return undefined;
  }
}

/** A complete 2026 result: `resultType: "complete"`, serverInfo, and the caching hint where the method has one. */
export function finish2026Result<Env>(request: RequestMessage, result: Params, server: McpServer<Env>): Params {
  const hint = hintFor(request, server);
  const finished = withServerInfo(result, server, request.method === "server/discover");
  // An extension's own result type (e.g. the Tasks extension's "task") stands (basic/index.mdx "ResultType").
  if (typeof finished.resultType !== "string") finished.resultType = "complete";
  if (hint && !("ttlMs" in result)) {
    finished.ttlMs = hint.ttlMs;
    finished.cacheScope = hint.cacheScope;
  }
  return finished;
}

/**
 * A response as a 2026-07-28 client gets it: its error code as that revision allows (code2026),
 * and a malformed answer to an ask named as the retry's invalid `inputResponses` (mrtr.mdx "Error handling").
 */
export function finish2026Response(response: ResponseMessage): ResponseMessage {
  if (response.kind !== "error") return response;
  const { code, message } = response.error;
  const mapped = code2026(code);
  if (mapped === code) return response;
  const text = code === CLIENT_ERROR ? `Invalid params: an inputResponses answer is malformed (${message})` : message;
  return errorMessage(response.id, { ...response.error, code: mapped, message: text });
}
