/**
 * Protocol revisions this runtime speaks, newest first, and the behaviours that differ by
 * revision. Behaviour is always keyed on the version negotiated for the session (or, with no
 * session, the request's MCP-Protocol-Version header), never re-guessed per message.
 */

export const SUPPORTED_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;
export type ProtocolVersion = (typeof SUPPORTED_VERSIONS)[number];

/** 2026-07-28 and later: stateless, the version travels in every request's `_meta` (basic/versioning.mdx). */
export const VERSIONS_2026 = ["2026-07-28"] as const;
export type Version2026 = (typeof VERSIONS_2026)[number];
/** The revision a handler runs under: a 2025-era session's (or header's), or a 2026 request's own. */
export type AnyVersion = ProtocolVersion | Version2026;

export function is2026Version(value: unknown): value is Version2026 {
  return typeof value === "string" && (VERSIONS_2026 as readonly string[]).includes(value);
}

export const LATEST_VERSION: ProtocolVersion = "2025-11-25";
/** 2025-06-18 Streamable HTTP: a missing MCP-Protocol-Version header means 2025-03-26. */
export const DEFAULT_HEADER_VERSION: ProtocolVersion = "2025-03-26";

export function isSupportedVersion(value: unknown): value is ProtocolVersion {
  return typeof value === "string" && (SUPPORTED_VERSIONS as readonly string[]).includes(value);
}

/** The version the server answers `initialize` with: the client's when supported, else our latest. */
export function negotiateVersion(requested: unknown): ProtocolVersion {
  return isSupportedVersion(requested) ? requested : LATEST_VERSION;
}

/** JSON-RPC batches exist up to 2025-03-26 and were removed in 2025-06-18. */
export function acceptsBatches(version: AnyVersion): boolean {
  return version <= "2025-03-26";
}

/** 2025-11-25 (SEP-1699): streams start with a priming event and the server may close them early. */
export function usesSsePolling(version: ProtocolVersion): boolean {
  return version >= "2025-11-25";
}

/** 2025-11-25 (SEP-1303): invalid tool arguments are a tool execution error, not -32602. */
export function reportsInputErrorsAsToolErrors(version: AnyVersion): boolean {
  return version >= "2025-11-25";
}
