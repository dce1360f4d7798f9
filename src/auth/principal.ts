/**
 * The authenticated principal: who sent a request, as the resource server verified it. It is
 * what handlers see (`ctx.principal`) and what a session is bound to (its `subject`); the raw
 * access token never leaves the Worker's auth check. The Worker forwards it to the session
 * object in a header it sets after removing any value the client sent, so the object never
 * reads a client-supplied principal (the header and its encoding: durable-objects/protocol.ts).
 */
import { encodePrincipal, HEADER_PRINCIPAL } from "../../durable-objects/protocol";

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
