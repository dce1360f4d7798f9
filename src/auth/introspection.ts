/**
 * Opaque access tokens checked by the authorization server's RFC 7662 introspection endpoint.
 * One POST per request (no cache: revocation takes effect at once). The answer must be
 * `active` and carry `sub` and `aud`; the runtime binds `aud` to this resource, so an
 * introspection endpoint that omits `aud` needs a verifier of your own.
 */
import { TokenError, type TokenVerifier, type VerifiedToken } from "./options";
import { isObject } from "../jsonrpc/parse";

export interface IntrospectionVerifierOptions {
  /** The introspection endpoint URL. */
  endpoint: string;
  /** This resource server's credentials at the authorization server (HTTP Basic, RFC 7662 §2.1). */
  clientId: string;
  clientSecret: string;
  /** Fetch used for introspection (default: the global fetch). */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
}

/** A verifier that asks the authorization server about each token. */
export function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier<unknown> {
  const doFetch = options.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));
  const basic = `Basic ${btoa(`${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`)}`;
  return async (token) => {
    const response = await doFetch(options.endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json", Authorization: basic },
      body: new URLSearchParams({ token, token_type_hint: "access_token" }).toString(),
    });
    if (!response.ok) throw new Error(`introspection endpoint answered ${response.status}`);
    const answer: unknown = await response.json();
    if (!isObject(answer)) throw new Error("introspection endpoint answered something other than a JSON object");
    if (answer.active !== true) throw new TokenError("the access token is not active");
    if (typeof answer.sub !== "string") throw new TokenError("the access token names no subject");
    const verified: VerifiedToken = {
      subject: answer.sub,
      scopes: typeof answer.scope === "string" ? answer.scope.split(" ").filter((s) => s.length > 0) : [],
      audience: typeof answer.aud === "string" || Array.isArray(answer.aud) ? (answer.aud as string | string[]) : [],
      claims: answer,
    };
    if (typeof answer.exp === "number") verified.expiresAt = answer.exp;
    if (typeof answer.client_id === "string") verified.clientId = answer.client_id;
    return verified;
  };
}
