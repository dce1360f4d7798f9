/**
 * 2026-07-28 custom headers from tool parameters (streamable-http.mdx "Custom Headers from
 * Tool Parameters", SEP-2243): a parameter marked `x-mcp-header: Name` travels as
 * `Mcp-Param-Name`; the server that reads the body checks each such header against the
 * argument (after base64-sentinel decoding) and refuses a missing or different one with -32020.
 */
import type { HeaderParam } from "../mcp/definition/server";
import { HEADER_MCP_PARAM_PREFIX } from "../wire/headers";
import { isObject } from "../jsonrpc/parse";

/** The value at a property path of the arguments, or undefined when absent. */
function valueAt(args: Record<string, unknown>, path: readonly string[]): unknown {
  let value: unknown = args;
  for (const key of path) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * RFC 9110 §5.5 as 2026-07-28 applies it (streamable-http.mdx "Value Encoding"): a plain value is
 * visible ASCII, space and tab only. workerd hands raw bytes 0x80-0xFF to the Worker as the
 * Latin-1 characters U+0080-U+00FF, so this one range test refuses non-ASCII, control and DEL alike.
 */
const PLAIN_VALUE = /^[\t\x20-\x7e]*$/;

/** Why a header value cannot be compared with the body: the -32020 message for header `name`. */
export function malformedValue(name: string): string {
  return `${name} must be visible ASCII, or its value sent as =?base64?…?= (non-ASCII, control and DEL bytes, or a malformed base64 value)`;
}

/**
 * `=?base64?…?=` decoded strictly (canonical padding, base64 alphabet only); a value without both
 * markers is literal and must be plain visible ASCII. Undefined: the value is refused (-32020).
 */
export function decodeParamValue(raw: string): string | undefined {
  const value = raw.replace(/^[ \t]+|[ \t]+$/g, "");
  if (!(value.startsWith("=?base64?") && value.endsWith("?=") && value.length >= 11)) return PLAIN_VALUE.test(value) ? value : undefined;
  const encoded = value.slice(9, -2);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

function matches(header: string, value: unknown): boolean {
  if (typeof value === "string") return header === value;
  // streamable-http.mdx "Server Validation": integers compare numerically (42.0 equals 42).
  if (typeof value === "number") return header.trim() !== "" && Number(header) === value;
  if (typeof value === "boolean") return header === String(value);
  return false;
}

/** The mismatch to report for a tool's `Mcp-Param-*` headers, or undefined when they agree with the arguments. */
export function checkParamHeaders(headers: Headers, params: readonly HeaderParam[], args: unknown): string | undefined {
  const record = isObject(args) ? args : {};
  for (const param of params) {
    const name = `${HEADER_MCP_PARAM_PREFIX}${param.header}`;
    const value = valueAt(record, param.path);
    const raw = headers.get(name);
    if (value === undefined || value === null) continue; // the client omits the header; nothing to compare
    if (raw === null) return `the ${name} header is required: arguments.${param.path.join(".")} has a value`;
    const decoded = decodeParamValue(raw);
    if (decoded === undefined) return malformedValue(name);
    if (!matches(decoded, value)) return `${name} does not match arguments.${param.path.join(".")}`;
  }
  return undefined;
}
