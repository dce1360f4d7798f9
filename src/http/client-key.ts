/**
 * Who a per-client cap or rate limit counts against: the authenticated principal's subject when
 * the request carried a verified token, else the client's address as Cloudflare reports it
 * (`CF-Connecting-IP`; wrangler dev and Miniflare set it too). One function so every cap (listen
 * streams, tasks in flight, rate limits) keys the same client the same way.
 */
import type { Principal } from "../auth/principal";

/** `sub:<subject>` for an authenticated caller, `ip:<address>` otherwise (`ip:unknown` without the header). */
export function clientKey(request: Pick<Request, "headers">, principal: Pick<Principal, "subject"> | undefined): string {
  if (principal) return `sub:${principal.subject}`;
  const address = request.headers.get("CF-Connecting-IP")?.trim();
  return `ip:${address || "unknown"}`;
}
