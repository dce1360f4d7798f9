/**
 * The authenticated principal: who sent a request, as the resource server verified it. It is
 * what handlers see (`ctx.principal`) and what a session is bound to (its `subject`); the raw
 * access token never leaves the Worker's auth check. Also the one trusted way the principal
 * travels from the Worker to the session object: a header the Worker sets after removing any
 * value the client sent, so the object never reads a client-supplied principal.
 */

/** Who made the request: verified subject, granted scopes and the token's claims. */
export interface Principal {
  /** The token's subject (`sub`): the session binding key. */
  subject: string;
  /** Granted scopes (`scope` split on spaces, or `scp`). */
  scopes: readonly string[];
  /** The OAuth client the token was issued to, when the token says. */
  clientId?: string;
  /** The verified claims (JWT payload, introspection answer or the verifier's own props). Never the token itself. */
  claims: Readonly<Record<string, unknown>>;
}

/** Internal header from the Worker to the session object; a client-supplied one is always removed first. */
export const HEADER_PRINCIPAL = "X-Mcp-Edge-Principal";

/** URI-encoded JSON: header values must be ASCII, claims may not be. */
export function encodePrincipal(principal: Principal): string {
  return encodeURIComponent(JSON.stringify(principal));
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((s) => typeof s === "string");
}

/** The principal the Worker attached, or undefined when there is none (auth off) or it is unreadable. */
export function decodePrincipal(value: string | null): Principal | undefined {
  if (value === null) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(decodeURIComponent(value));
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const p = parsed as Record<string, unknown>;
  if (typeof p.subject !== "string" || !isStringArray(p.scopes) || typeof p.claims !== "object" || p.claims === null) return undefined;
  const principal: Principal = { subject: p.subject, scopes: p.scopes, claims: p.claims as Record<string, unknown> };
  if (typeof p.clientId === "string") principal.clientId = p.clientId;
  return principal;
}

/**
 * The headers to forward to the session object: any client-supplied principal header removed,
 * and with a principal, the Authorization header replaced by it (the object needs who, not the
 * token). Returns `headers` itself when there is nothing to change.
 */
export function forwardHeaders(headers: Headers, principal: Principal | undefined): Headers {
  if (!principal && !headers.has(HEADER_PRINCIPAL)) return headers;
  const out = new Headers(headers);
  out.delete(HEADER_PRINCIPAL);
  if (principal) {
    out.delete("Authorization");
    out.set(HEADER_PRINCIPAL, encodePrincipal(principal));
  }
  return out;
}

/** The same request with `forwardHeaders` applied (the request itself when nothing changes). */
export function forwardRequest(request: Request, principal: Principal | undefined): Request {
  const headers = forwardHeaders(request.headers, principal);
  return headers === request.headers ? request : new Request(request, { headers });
}
