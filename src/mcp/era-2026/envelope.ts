/**
 * The 2026-07-28 request envelope: the per-request protocol fields a client puts in
 * `params._meta` (basic/index.mdx "Per-request protocol fields"). One exported type, read
 * once per request by `readEnvelope`; everything on the 2026 lane (dispatch, MRTR, listen,
 * tasks) takes a `RequestEnvelope` instead of looking at `_meta` again.
 */
import type { Params } from "../../jsonrpc/messages";
import { isLoggingLevel, type ClientCapabilities, type Implementation, type LoggingLevel } from "../definition/types";
import { isObject } from "../../jsonrpc/parse";

const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
const META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
const META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";
export const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";

/** What a 2026-07-28 request says about its client, valid for this request only. */
export interface RequestEnvelope {
  /** The claimed revision, e.g. "2026-07-28" (already checked to be one this server serves). */
  protocolVersion: string;
  /** Capabilities declared by this request (incl. `extensions`); a server never infers them from earlier requests. */
  clientCapabilities: ClientCapabilities & { extensions?: Record<string, unknown> };
  clientInfo: Implementation | undefined;
  /** Absent: the request gets no `notifications/message` at all (server/utilities/logging.mdx). */
  logLevel: LoggingLevel | undefined;
}

/** The request's `_meta`, when it is an object. */
function metaOf(params: Params | undefined): Record<string, unknown> | undefined {
  const meta = params?._meta;
  return isObject(meta) ? meta : undefined;
}

/** A claim: `_meta` names a protocol version (any value; it is validated by `readEnvelope`). */
export function hasClaim(params: Params | undefined): boolean {
  const meta = metaOf(params);
  return meta !== undefined && META_PROTOCOL_VERSION in meta;
}

export type EnvelopeResult = { ok: true; envelope: RequestEnvelope } | { ok: false; problem: string };

/** Narrows a claimed request's `_meta` to an envelope, or names the key that is missing or malformed. */
export function readEnvelope(params: Params | undefined): EnvelopeResult {
  const meta = metaOf(params);
  if (!meta) return { ok: false, problem: "the request has no params._meta (2026-07-28 requests carry their protocol fields there)" };
  const version = meta[META_PROTOCOL_VERSION];
  if (typeof version !== "string" || version.length === 0)
    return { ok: false, problem: `_meta["${META_PROTOCOL_VERSION}"] must be a non-empty string` };
  const capabilities = meta[META_CLIENT_CAPABILITIES];
  if (!isObject(capabilities)) return { ok: false, problem: `_meta["${META_CLIENT_CAPABILITIES}"] is required and must be an object` };
  if (capabilities.extensions !== undefined && !isObject(capabilities.extensions)) {
    return { ok: false, problem: `_meta["${META_CLIENT_CAPABILITIES}"].extensions must be an object` };
  }
  const info = meta[META_CLIENT_INFO];
  let clientInfo: Implementation | undefined;
  if (info !== undefined) {
    if (!isObject(info) || typeof info.name !== "string" || typeof info.version !== "string") {
      return { ok: false, problem: `_meta["${META_CLIENT_INFO}"] needs string "name" and "version"` };
    }
    clientInfo = { name: info.name, version: info.version, ...(typeof info.title === "string" ? { title: info.title } : {}) };
  }
  const level = meta[META_LOG_LEVEL];
  if (level !== undefined && !isLoggingLevel(level)) return { ok: false, problem: `_meta["${META_LOG_LEVEL}"] must be a logging level` };
  return {
    ok: true,
    envelope: {
      protocolVersion: version,
      clientCapabilities: capabilities as RequestEnvelope["clientCapabilities"],
      clientInfo,
      logLevel: level,
    },
  };
}
