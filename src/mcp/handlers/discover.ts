/**
 * server/discover (2026-07-28 server/discover.mdx): the server's supported versions,
 * capabilities, instructions and caching hint. Its identity goes in `_meta` like every 2026
 * result's (result-2026.ts), so it is not repeated in the body.
 */
import type { Params } from "../../jsonrpc/messages";
import type { DispatchContext } from "./dispatch-context";
import { extensionsCapability } from "../definition/extensions";

/**
 * Whether the hub's binding (MCP_HUB) is there: half of what decides whether resource updates and list
 * changes can reach a client; the other half is a feature serving the hub (src/kernel/kernel.ts `clientsHearHub`).
 */
export function hubBound(env: unknown): boolean {
  const hub = (env as { MCP_HUB?: unknown } | undefined)?.MCP_HUB;
  return typeof hub === "object" && hub !== null;
}

export async function discover<Env>(_params: Params, dispatch: DispatchContext<Env>): Promise<Params> {
  // Resource subscriptions and list_changed reach 2026 clients through subscriptions/listen, which
  // the hub serves: offered only where a feature serves it and its binding is there.
  const capabilities = dispatch.server.capabilities(dispatch.hearsHub === true);
  const extensions = extensionsCapability(dispatch.server.extensions, "2026");
  if (extensions) capabilities.extensions = extensions;
  const result: Params = {
    supportedVersions: [...(dispatch.supportedVersions ?? [dispatch.protocolVersion])],
    capabilities,
    ttlMs: dispatch.server.cache.ttlMs,
    cacheScope: dispatch.server.cache.cacheScope,
  };
  if (dispatch.server.instructions) result.instructions = dispatch.server.instructions;
  return result;
}
