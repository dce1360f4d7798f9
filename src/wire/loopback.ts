/**
 * Whether a request is local development: its URL and its Host header both name a loopback host
 * (how `wrangler dev` and `vitest` address a Worker). A deployed Worker is never reached under
 * one: Cloudflare routes by the hostname, so a client cannot claim it. Pure: no platform types.
 */

const LOOPBACK = /^(localhost|[a-z0-9.-]+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** `url` is the request's, parsed once by the caller. */
export function isLocalRequest(request: Request, url: URL): boolean {
  return isLocalAddressing(url.hostname, request.headers.get("Host"));
}

/** The same judgement from a request's URL host name and its Host header (null when absent): a handler's `ctx.request`. */
export function isLocalAddressing(hostname: string, hostHeader: string | null): boolean {
  if (!LOOPBACK.test(hostname)) return false;
  return hostHeader === null || LOOPBACK.test(hostHeader.replace(/:\d+$/, ""));
}
