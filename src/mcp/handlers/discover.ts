/**
 * server/discover (2026-07-28 server/discover.mdx): the server's supported versions,
 * capabilities, instructions and caching hint. Its identity goes in `_meta` like every 2026
 * result's (modern-result.ts), so it is not repeated in the body.
 */
import type { Params } from "../../jsonrpc/messages";
import type { DispatchContext } from "../dispatch";

export async function discover<Env>(_params: Params, dc: DispatchContext<Env>): Promise<Params> {
  // 2026 requests are stateless: no session features (subscribe, list_changed) until a listen lane declares them.
  const capabilities = dc.server.capabilities(false);
  const result: Params = {
    supportedVersions: [...(dc.supportedVersions ?? [dc.protocolVersion])],
    capabilities,
    ttlMs: dc.server.cache.ttlMs,
    cacheScope: dc.server.cache.cacheScope,
  };
  if (dc.server.instructions) result.instructions = dc.server.instructions;
  return result;
}
