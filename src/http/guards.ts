/**
 * Request checks that run before any JSON-RPC work. Each returns a Response to stop the
 * request or undefined to continue; none of them reads the body except `readBody`, which
 * enforces the size limit while reading.
 */
import { LIMIT_EXCEEDED, TRANSPORT_ERROR } from "../jsonrpc/errors";
import { isSupportedVersion, SUPPORTED_VERSIONS } from "../mcp/versions";
import { HEADER_PROTOCOL_VERSION } from "./headers";
import { rpcErrorResponse } from "./respond";

export interface OriginPolicy {
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
}

/** The host name of a Host header value or URL authority, lower-cased, without port. */
export function hostName(authority: string): string {
  const lower = authority.toLowerCase();
  // host[:port] with a numeric port only; anything else stays whole, so it matches no allowed host.
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::\d{1,5})?$/.exec(lower);
  return m ? (m[1] as string) : lower;
}

function isAllowedHost(name: string, policy: OriginPolicy): boolean {
  return policy.allowedHosts.includes("*") || policy.allowedHosts.includes(name);
}

/** The request's Origin when present and allowed, undefined when absent, or false when refused. */
export function allowedOrigin(request: Request, policy: OriginPolicy): string | undefined | false {
  const origin = request.headers.get("Origin");
  if (origin === null) return undefined;
  if (policy.allowedOrigins.includes("*") || policy.allowedOrigins.includes(origin)) return origin;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return isAllowedHost(hostName(url.host), policy) ? origin : false;
}

/**
 * DNS-rebinding protection (2025-06-18 Streamable HTTP > Security Warning): Host and Origin.
 * Returns the 403 to send, or the Origin to answer with CORS headers (undefined when absent).
 */
export function checkHostAndOrigin(request: Request, policy: OriginPolicy): Response | string | undefined {
  const host = request.headers.get("Host") ?? new URL(request.url).host;
  if (!isAllowedHost(hostName(host), policy)) {
    return rpcErrorResponse(403, TRANSPORT_ERROR, `Forbidden: host "${hostName(host)}" is not an allowed host; add it to the allowedHosts option of createMcpEdge or to the MCP_ALLOWED_HOSTS variable`);
  }
  const origin = allowedOrigin(request, policy);
  if (origin === false) {
    return rpcErrorResponse(403, TRANSPORT_ERROR, "Forbidden: Origin is not allowed (configure allowedOrigins)");
  }
  return origin;
}

/** The media ranges of an Accept header, lower-cased, without parameters. */
function mediaRanges(accept: string): string[] {
  return accept.split(",").map((part) => part.split(";")[0]?.trim().toLowerCase() ?? "");
}

function acceptsType(ranges: readonly string[], type: string): boolean {
  const [major] = type.split("/");
  return ranges.some((range) => range === type || range === "*/*" || range === `${major}/*`);
}

/** POST must accept both JSON and SSE; GET must accept SSE (2025-06-18 Streamable HTTP). */
export function checkAccept(request: Request, types: readonly string[]): Response | undefined {
  // Parsed once per request, not once per required type: this runs on every POST.
  const ranges = mediaRanges(request.headers.get("Accept") ?? "");
  if (types.every((t) => acceptsType(ranges, t))) return undefined;
  return rpcErrorResponse(406, TRANSPORT_ERROR, `Not Acceptable: the Accept header must include ${types.join(" and ")}`);
}

export function checkContentType(request: Request): Response | undefined {
  const type = request.headers.get("Content-Type")?.split(";")[0]?.trim().toLowerCase();
  if (type === "application/json") return undefined;
  return rpcErrorResponse(415, TRANSPORT_ERROR, "Unsupported Media Type: Content-Type must be application/json");
}

/** An unsupported MCP-Protocol-Version header is 400; a missing one is decided by the caller. */
export function checkProtocolVersionHeader(request: Request): Response | undefined {
  const value = request.headers.get(HEADER_PROTOCOL_VERSION);
  if (value === null || isSupportedVersion(value)) return undefined;
  return rpcErrorResponse(
    400, TRANSPORT_ERROR,
    `Bad Request: unsupported ${HEADER_PROTOCOL_VERSION} "${value.slice(0, 40)}" (supported: ${SUPPORTED_VERSIONS.join(", ")})`,
  );
}

export function tooLarge(limit: number): Response {
  return rpcErrorResponse(413, LIMIT_EXCEEDED, `Payload Too Large: the body exceeds ${limit} bytes`);
}

/**
 * Reads the body as UTF-8 text, stopping with 413 as soon as it passes `limit` bytes. A body
 * with a declared Content-Length (within the limit) is read in one native call; only a body of
 * unknown length is read chunk by chunk, so it can be cut off at the limit.
 */
export async function readBody(request: Request, limit: number): Promise<{ ok: true; text: string } | { ok: false; response: Response }> {
  const declared = Number(request.headers.get("Content-Length") ?? "NaN");
  if (declared > limit) return { ok: false, response: tooLarge(limit) };
  if (!request.body) return { ok: true, text: "" };
  if (Number.isFinite(declared)) {
    const bytes = await request.arrayBuffer();
    // The declared length bounds what the connection delivers; an in-process Request may still lie.
    if (bytes.byteLength > limit) return { ok: false, response: tooLarge(limit) };
    return { ok: true, text: new TextDecoder().decode(bytes) };
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return { ok: false, response: tooLarge(limit) };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, text: new TextDecoder().decode(bytes) };
}
