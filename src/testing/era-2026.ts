/**
 * The test client's 2026-07-28 side: the `_meta` envelope and standard headers every request
 * carries (basic/index.mdx "_meta", streamable-http.mdx "Standard Request Headers"), and the
 * retry an `input_required` answer calls for (basic/patterns/mrtr.mdx "Client Requirements").
 */
import { MCP_NAME_SOURCES } from "../wire/headers";

/** Revisions are dates: from 2026-07-28 on, the protocol fields travel in every request's `_meta`. */
export function is2026(version: string): boolean {
  return version >= "2026-07-28";
}

/** 2026-07-28 requests that may answer `input_required` (mrtr.mdx "Supported Requests"). */
export const MRTR_METHODS: ReadonlySet<string> = new Set(["tools/call", "prompts/get", "resources/read"]);
/** A server that keeps asking is a bug the test should see, not a hang. */
export const MAX_ROUNDS = 16;

export type HeaderParam = { path: string[]; header: string };

/** A header value: as is when plain visible ASCII, else the spec's `=?base64?…?=` form of its UTF-8. */
function headerValue(value: string): string {
  if (/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !value.startsWith("=?base64?")) return value;
  let binary = "";
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}

/** `x-mcp-header` parameters of a listed tool's input schema: their path in the arguments and header name. */
export function headerParams(schema: unknown, path: string[] = []): HeaderParam[] {
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  if (typeof properties !== "object" || properties === null) return [];
  const found: HeaderParam[] = [];
  for (const [key, child] of Object.entries(properties as Record<string, unknown>)) {
    if (typeof child !== "object" || child === null) continue;
    const header = (child as Record<string, unknown>)["x-mcp-header"];
    if (typeof header === "string") found.push({ path: [...path, key], header });
    found.push(...headerParams(child, [...path, key]));
  }
  return found;
}

export interface Client2026 {
  version: string;
  capabilities: Record<string, unknown>;
  /** Header parameters by tool name, learned from tools/list. */
  paramHeaders: ReadonlyMap<string, HeaderParam[]>;
}

/** A 2026-07-28 request's params (with the envelope in `_meta`) and its standard headers. */
export function request2026(
  client: Client2026,
  method: string,
  params: Record<string, unknown> = {},
): { params: Record<string, unknown>; headers: Record<string, string> } {
  const _meta = {
    ...(params._meta as Record<string, unknown> | undefined),
    "io.modelcontextprotocol/protocolVersion": client.version,
    "io.modelcontextprotocol/clientInfo": { name: "mcp-edge-testing", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": client.capabilities,
  };
  const headers: Record<string, string> = { "MCP-Protocol-Version": client.version, "Mcp-Method": method };
  const field = MCP_NAME_SOURCES[method];
  const name = field === undefined ? undefined : params[field];
  if (typeof name === "string") headers["Mcp-Name"] = headerValue(name);
  if (method === "tools/call" && typeof name === "string") {
    for (const { path, header } of client.paramHeaders.get(name) ?? []) {
      let value: unknown = params.arguments;
      for (const key of path) value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
        headers[`Mcp-Param-${header}`] = headerValue(String(value));
    }
  }
  return { params: { ...params, _meta }, headers };
}

/** The retry's extra params for an `input_required` result: every ask answered by `answer`, the `requestState` echoed as is. */
export async function retryParams(
  result: Record<string, unknown>,
  answer: (method: string | undefined, params: Record<string, unknown>) => Promise<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  const asks = (result.inputRequests ?? {}) as Record<string, { method?: string; params?: Record<string, unknown> }>;
  const inputResponses: Record<string, Record<string, unknown>> = {};
  for (const [key, ask] of Object.entries(asks)) inputResponses[key] = await answer(ask.method, ask.params ?? {});
  return { inputResponses, ...(typeof result.requestState === "string" ? { requestState: result.requestState } : {}) };
}
