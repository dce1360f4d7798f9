/**
 * The authenticated principal: who sent a request, as the resource server verified it. It is
 * what handlers see (`ctx.principal`) and what a session is bound to (its `subject`); the raw
 * access token never leaves the Worker's auth check. The Worker forwards it to the session
 * object in a header it sets after removing any value the client sent, so the object never
 * reads a client-supplied principal (the header, its encoding and the forwarding: durable-objects/sessions/contract.ts).
 */
/** Who made the request: verified subject, granted scopes and the token's claims. */
export interface Principal {
  /** The token's subject (`sub`): the session binding key. */
  subject: string;
  /** Granted scopes (`scope` split on spaces, or `scp`). */
  scopes: readonly string[];
  /** The OAuth client the token was issued to, when the token says. */
  clientId?: string;
  /**
   * When the access token expires (seconds since the epoch: `exp`, or the verifier's `expiresAt`), when
   * known. Long-lived streams end then (docs/auth.md "Streams end with their token").
   */
  expiresAt?: number;
  /** The verified claims (JWT payload, introspection answer or the verifier's own props). Never the token itself. */
  claims: Readonly<Record<string, unknown>>;
}
