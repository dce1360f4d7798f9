/**
 * Request checks that run before any JSON-RPC work and read no body: Host and Origin, the
 * protocol version header. Each returns a Response to stop the request or undefined to continue.
 * The media types and the body read are src/wire/request-checks.ts, which a feature's paths share.
 */
import { isSupportedVersion, SUPPORTED_VERSIONS } from "../mcp/definition/versions";
import { refuse } from "../wire/refusals";
import { HEADER_PROTOCOL_VERSION } from "../wire/headers";

export interface OriginPolicy {
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
}

/** The host name of a Host header value or URL authority, lower-cased, without port. */
function hostName(authority: string): string {
  const lower = authority.toLowerCase();
  // host[:port] with a numeric port only; anything else stays whole, so it matches no allowed host.
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::\d{1,5})?$/.exec(lower);
  return m ? (m[1] as string) : lower;
}

function isAllowedHost(name: string, policy: OriginPolicy): boolean {
  return policy.allowedHosts.includes("*") || policy.allowedHosts.includes(name);
}

/** The request's Origin when present and allowed, undefined when absent, or false when refused. */
function allowedOrigin(request: Request, policy: OriginPolicy): string | undefined | false {
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
 * Both hosts a request names are checked, the URL's and the Host header's: for an absolute-form
 * target (`POST http://evil.example/mcp HTTP/1.1`) the target's authority replaces Host (RFC 9112
 * §3.2.2) and is what the runtime routes by, so a loopback Host beside it proves nothing. Either
 * one foreign refuses. `url` is the request's, parsed once by the caller. Returns the 403 to send, or the Origin to answer with CORS headers.
 */
export function checkHostAndOrigin(request: Request, url: URL, policy: OriginPolicy): Response | string | undefined {
  const urlHost = hostName(url.host);
  if (!isAllowedHost(urlHost, policy)) return refuse({ reason: "host-not-allowed", host: urlHost });
  const header = request.headers.get("Host");
  if (header !== null) {
    const headerHost = hostName(header);
    if (!isAllowedHost(headerHost, policy)) return refuse({ reason: "host-not-allowed", host: headerHost });
  }
  const origin = allowedOrigin(request, policy);
  if (origin === false) {
    return refuse({ reason: "origin-not-allowed" });
  }
  return origin;
}

/** An unsupported MCP-Protocol-Version header is 400; a missing one is decided by the caller. */
export function checkProtocolVersionHeader(request: Request): Response | undefined {
  const value = request.headers.get(HEADER_PROTOCOL_VERSION);
  if (value === null || isSupportedVersion(value)) return undefined;
  return refuse({ reason: "unsupported-version-header", value, supported: SUPPORTED_VERSIONS });
}
