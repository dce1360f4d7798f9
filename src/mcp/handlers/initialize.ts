/**
 * initialize (2025-06-18 "Lifecycle"): negotiates the revision and returns the server's
 * capabilities. The lanes call this and then decide where the resulting state lives (a new
 * session object, or nowhere in stateless mode).
 */
import { INVALID_PARAMS, RpcError } from "../../jsonrpc/errors";
import type { Params } from "../../jsonrpc/messages";
import type { SessionState } from "../definition/context";
import type { McpServer } from "../definition/server";
import { negotiateVersion } from "../definition/versions";
import type { ClientCapabilities, Implementation } from "../definition/types";
import { isObject } from "../../jsonrpc/parse";

/** The session object stores the client's capabilities and info: they must stay small and shallow. */
const MAX_CLIENT_STATE_BYTES = 64 * 1024;
const MAX_CLIENT_STATE_DEPTH = 32;

function depthOf(value: unknown, limit: number): number {
  if (typeof value !== "object" || value === null) return 0;
  if (limit <= 0) return 1;
  let deepest = 0;
  for (const child of Object.values(value)) deepest = Math.max(deepest, depthOf(child, limit - 1));
  return deepest + 1;
}

export function initialize<Env>(
  server: McpServer<Env>,
  params: Params | undefined,
  updates: boolean,
): { result: Params; state: SessionState } {
  if (!params || typeof params.protocolVersion !== "string") {
    throw new RpcError(INVALID_PARAMS, 'initialize needs "protocolVersion" (a string)');
  }
  const capabilities = params.capabilities ?? {};
  if (!isObject(capabilities)) throw new RpcError(INVALID_PARAMS, 'initialize: "capabilities" must be an object');
  const info = params.clientInfo;
  let clientInfo: Implementation | undefined;
  if (info !== undefined) {
    if (!isObject(info) || typeof info.name !== "string" || typeof info.version !== "string") {
      throw new RpcError(INVALID_PARAMS, 'initialize: "clientInfo" needs string "name" and "version"');
    }
    clientInfo = { name: info.name, version: info.version, ...(typeof info.title === "string" ? { title: info.title } : {}) };
  }
  const stored = { capabilities, clientInfo: info };
  if (depthOf(stored, MAX_CLIENT_STATE_DEPTH + 1) > MAX_CLIENT_STATE_DEPTH || JSON.stringify(stored).length > MAX_CLIENT_STATE_BYTES) {
    throw new RpcError(
      INVALID_PARAMS,
      `initialize: "capabilities" and "clientInfo" must be at most ${MAX_CLIENT_STATE_BYTES} bytes of JSON, nested at most ${MAX_CLIENT_STATE_DEPTH} deep`,
    );
  }
  const protocolVersion = negotiateVersion(params.protocolVersion);
  const result: Params = {
    protocolVersion,
    capabilities: server.capabilities(updates, capabilities),
    serverInfo: server.info,
  };
  if (server.instructions) result.instructions = server.instructions;
  return {
    result,
    state: { protocolVersion, clientInfo, clientCapabilities: capabilities as ClientCapabilities, logLevel: undefined },
  };
}
