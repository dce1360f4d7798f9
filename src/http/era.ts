/**
 * The era decision, once per POST, from the parsed body (DESIGN.md "Protocol eras on one endpoint";
 * 2026-07-28 basic/versioning.mdx "Backward Compatibility" and transports/streamable-http.mdx
 * "Server Validation"). A claim in `params._meta` selects 2026-07-28; no claim keeps the 2025
 * era exactly as it was. Headers are validated against the body here and never upgrade or
 * downgrade the era. Nothing after this module looks at the era again: it travels as a value.
 */
import type { NotificationMessage, RequestId, RequestMessage } from "../jsonrpc/messages";
import type { ParsedBody } from "../jsonrpc/parse";
import { hasClaim, readEnvelope, type RequestEnvelope } from "../mcp/era-2026/envelope";
import { is2026Version, VERSIONS_2026, SUPPORTED_VERSIONS } from "../mcp/definition/versions";
import type { ResolvedOptions } from "../kernel/options";
import type { Refusal } from "../wire/refusals";
import { HEADER_MCP_METHOD, HEADER_MCP_NAME, HEADER_PROTOCOL_VERSION, MCP_NAME_SOURCES } from "../wire/headers";
import { decodeParamValue, malformedValue } from "./param-headers";

export type EraDecision =
  | { era: "2025" }
  | { era: "2026"; message: RequestMessage; envelope: RequestEnvelope }
  /** A notification routed to 2026 (by its claim or a 2026-07-28 header): accepted, nothing to run. */
  | { era: "2026-notification"; message: NotificationMessage }
  /** `era2026`: answer with the request's id or none (the 2026 schema has no `id: null`). */
  | { era: "refused"; refusal: Refusal; id: RequestId | null; era2026: boolean };

const served = new WeakMap<ResolvedOptions, readonly string[]>();

/** The protocol versions this server serves, newest first (`data.supported` of -32022, discover's list); computed once per server. */
export function servedVersions(options: ResolvedOptions): readonly string[] {
  let versions = served.get(options);
  if (!versions) {
    versions = Object.freeze([...(options.eras.era2026 ? VERSIONS_2026 : []), ...(options.eras.era2025 ? SUPPORTED_VERSIONS : [])]);
    served.set(options, versions);
  }
  return versions;
}

/** RFC 9110 §5.5: a field value is parsed without its leading and trailing whitespace. */
function headerValue(headers: Headers, name: string): string | null {
  const value = headers.get(name);
  if (value === null || value.length === 0) return value;
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(value.length - 1);
  // Almost every value has no optional whitespace: no regex for those.
  if (first !== 0x20 && first !== 0x09 && last !== 0x20 && last !== 0x09) return value;
  return value.replace(/^[ \t]+|[ \t]+$/g, "");
}

function refused(refusal: Refusal, id: RequestId | null, era2026: boolean): EraDecision {
  return { era: "refused", refusal, id, era2026 };
}

/** Header checks of a claimed request, in the order the conformance suite's reference server applies them. */
function decideClaimed(headers: Headers, message: RequestMessage, options: ResolvedOptions): EraDecision {
  const id = message.id;
  const header = headerValue(headers, HEADER_PROTOCOL_VERSION);
  if (header === null)
    return refused({ reason: "header-mismatch", message: `the ${HEADER_PROTOCOL_VERSION} header is required` }, id, true);
  const read = readEnvelope(message.params);
  if (!read.ok) return refused({ reason: "invalid-envelope", message: read.problem }, id, true);
  const claimed = read.envelope.protocolVersion;
  if (header !== claimed) {
    return refused(
      {
        reason: "header-mismatch",
        message: `${HEADER_PROTOCOL_VERSION} "${header.slice(0, 40)}" does not match _meta protocolVersion "${claimed.slice(0, 40)}"`,
      },
      id,
      true,
    );
  }
  if (!is2026Version(claimed)) {
    return refused({ reason: "unsupported-protocol-version", requested: claimed, supported: servedVersions(options) }, id, true);
  }
  const method = headerValue(headers, HEADER_MCP_METHOD);
  if (method !== message.method) {
    const what =
      method === null
        ? `the ${HEADER_MCP_METHOD} header is required`
        : `${HEADER_MCP_METHOD} "${method.slice(0, 100)}" does not match the body's method`;
    return refused({ reason: "header-mismatch", message: what }, id, true);
  }
  const field = MCP_NAME_SOURCES[message.method];
  if (field !== undefined) {
    const bodyValue = message.params?.[field];
    const raw = headerValue(headers, HEADER_MCP_NAME);
    const name = raw === null ? undefined : decodeParamValue(raw);
    if (raw !== null && name === undefined)
      return refused({ reason: "header-mismatch", message: malformedValue(HEADER_MCP_NAME) }, id, true);
    if (name !== bodyValue && !(name === undefined && typeof bodyValue !== "string")) {
      const what =
        name === undefined
          ? `the ${HEADER_MCP_NAME} header is required for ${message.method}`
          : `${HEADER_MCP_NAME} does not match params.${field}`;
      return refused({ reason: "header-mismatch", message: what }, id, true);
    }
  }
  return { era: "2026", message, envelope: read.envelope };
}

/** The id of a single claimed request, for refusals decided before the era (Content-Type, Accept). */
export function claimedRequestId(parsed: Extract<ParsedBody, { ok: true }>): RequestId | undefined {
  if (parsed.batch || !parsed.entry.ok || parsed.entry.message.kind !== "request") return undefined;
  return hasClaim(parsed.entry.message.params) ? parsed.entry.message.id : undefined;
}

/** Decides the era of one parsed POST body (2025 for everything the table does not send to 2026). */
export function decideEra(headers: Headers, parsed: Extract<ParsedBody, { ok: true }>, options: ResolvedOptions): EraDecision {
  // With 2026 switched off the endpoint behaves exactly as a 2025-era server (probes get its 400 -32000).
  if (!options.eras.era2026) return { era: "2025" };
  const header = headers.get(HEADER_PROTOCOL_VERSION);
  const header2026 = is2026Version(header);
  if (parsed.batch) {
    const claimed = parsed.entries.find(
      (e) => e.ok && (e.message.kind === "request" || e.message.kind === "notification") && hasClaim(e.message.params),
    );
    if (claimed) return refused({ reason: "batch-with-claim" }, null, true);
    return era2025OrRefused(options, null, header);
  }
  const entry = parsed.entry;
  if (!entry.ok || entry.message.kind === "result" || entry.message.kind === "error") return era2025OrRefused(options, null, header);
  const message: RequestMessage | NotificationMessage = entry.message;
  if (message.kind === "notification") {
    if (hasClaim(message.params) || header2026) return { era: "2026-notification", message };
    return era2025OrRefused(options, null, header);
  }
  if (hasClaim(message.params)) return decideClaimed(headers, message, options);
  if (message.method === "initialize" && header2026) {
    return refused(
      {
        reason: "header-mismatch",
        message: `initialize is a 2025-era request; ${HEADER_PROTOCOL_VERSION} "${header}" names a 2026 revision`,
      },
      message.id,
      true,
    );
  }
  if (header2026) {
    return refused(
      { reason: "invalid-envelope", message: `${HEADER_PROTOCOL_VERSION} is "${header}" but params._meta carries no protocol fields` },
      message.id,
      true,
    );
  }
  const asked =
    message.method === "initialize" && typeof message.params?.protocolVersion === "string" ? message.params.protocolVersion : header;
  return era2025OrRefused(options, message.id, asked);
}

/** An unclaimed message: the 2025 era, or -32022 when this server serves 2026-07-28 only. */
function era2025OrRefused(options: ResolvedOptions, id: RequestId | null, requested: string | null = null): EraDecision {
  if (options.eras.era2025) return { era: "2025" };
  // 2025-06-18 Streamable HTTP: no header means 2025-03-26.
  return refused(
    { reason: "unsupported-protocol-version", requested: requested ?? "2025-03-26", supported: servedVersions(options) },
    id,
    false,
  );
}
