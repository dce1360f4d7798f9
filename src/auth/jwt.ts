/**
 * JWT access tokens (RFC 9068) verified in the Worker with `jose`: signature against the
 * authorization server's JWKS (fetched, cached per isolate, refetched on an unknown `kid` after a
 * cooldown, which is how key rotation is picked up) or a local key set; `iss`, `exp`, `nbf`;
 * asymmetric algorithms only (never `none`, never an HMAC secret). The audience is returned for
 * the runtime to bind to the canonical resource URI; scopes come from `scope` or `scp`.
 */
import type { FetchImplementation, JSONWebKeySet, JWTPayload, JWTVerifyGetKey } from "jose";
import { loadJose, type Jose } from "./jose";
import { TokenError, type TokenVerifier, type VerifiedToken } from "./options";

/** Public-key JWS algorithms; symmetric (HS*) and `none` are never accepted. */
export const DEFAULT_JWT_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"];

export interface JwtVerifierOptions {
  /** Accepted `iss` values: the authorization servers' issuer identifiers (exact match). */
  issuer: string | string[];
  /** The authorization server's `jwks_uri`. Fetched on first use and cached (see `cacheMaxAgeMs`). */
  jwksUri?: string;
  /** A key set held locally instead of fetched (keys you distribute yourself, tests). */
  jwks?: JSONWebKeySet;
  /** Accepted signature algorithms (default: the public-key ones in DEFAULT_JWT_ALGORITHMS). */
  algorithms?: string[];
  /** Clock skew allowed on `exp`/`nbf`, in seconds (default 30). */
  clockToleranceSeconds?: number;
  /** Required `typ` header, e.g. "at+jwt" (RFC 9068); not checked by default. */
  typ?: string;
  /** How long fetched keys are trusted before a refetch (default 10 min). */
  cacheMaxAgeMs?: number;
  /** Least time between two fetches caused by unknown `kid`s (default 30 s): bounds what forged tokens can make us fetch. */
  cooldownMs?: number;
  /** Fetch used for the JWKS (default: the global fetch). */
  fetch?: FetchImplementation;
}

function scopesOf(payload: JWTPayload): string[] {
  const scope = payload.scope;
  if (typeof scope === "string") return scope.split(" ").filter((s) => s.length > 0);
  const scp = payload.scp;
  if (Array.isArray(scp)) return scp.filter((s): s is string => typeof s === "string");
  if (typeof scp === "string") return scp.split(" ").filter((s) => s.length > 0);
  return [];
}

/** A client-facing reason for a token jose refused, or undefined for a failure that is ours (JWKS unreachable). */
function reasonFor({ errors }: Jose, error: unknown): string | undefined {
  if (error instanceof errors.JWTExpired) return "the access token expired";
  if (error instanceof errors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case "nbf":
        return "the access token is not valid yet";
      case "iss":
        return "the access token was issued by an authorization server this resource does not trust";
      default:
        return error.reason === "missing"
          ? `the access token lacks the "${error.claim}" claim`
          : `the access token's "${error.claim}" is invalid`;
    }
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return "the access token's signature does not verify";
  if (error instanceof errors.JWKSNoMatchingKey) return "the access token is signed with a key this resource does not know";
  if (error instanceof errors.JWKSMultipleMatchingKeys) return "the access token names no key id and several keys match";
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported)
    return "the access token's signature algorithm is not accepted";
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return "the access token is not a well-formed signed JWT";
  return undefined;
}

/** A verifier for JWT access tokens signed by the given issuer(s). */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier<unknown> {
  if ((options.jwksUri === undefined) === (options.jwks === undefined)) {
    throw new TypeError("jwtVerifier: give exactly one of jwksUri and jwks");
  }
  const algorithms = options.algorithms ?? DEFAULT_JWT_ALGORITHMS;
  if (algorithms.some((a) => a === "none" || a.startsWith("HS"))) {
    throw new TypeError("jwtVerifier: only public-key algorithms can verify access tokens (no none, no HS*)");
  }
  if (options.jwksUri !== undefined && !URL.canParse(options.jwksUri)) throw new TypeError("jwtVerifier: jwksUri must be an absolute URL");
  const issuer = Array.isArray(options.issuer) ? options.issuer : [options.issuer];
  // jose is loaded at the first token (an optional peer dependency: ./jose.ts), its key set made once.
  let keys: JWTVerifyGetKey | undefined;
  const keysOf = (jose: Jose): JWTVerifyGetKey =>
    options.jwks
      ? jose.createLocalJWKSet(options.jwks)
      : jose.createRemoteJWKSet(new URL(options.jwksUri as string), {
          cacheMaxAge: options.cacheMaxAgeMs ?? 10 * 60_000,
          cooldownDuration: options.cooldownMs ?? 30_000,
          ...(options.fetch ? { [jose.customFetch]: options.fetch } : {}),
        });
  return async (token) => {
    const jose = await loadJose("jwtVerifier");
    keys ??= keysOf(jose);
    let payload: JWTPayload;
    try {
      ({ payload } = await jose.jwtVerify(token, keys, {
        issuer,
        algorithms,
        clockTolerance: options.clockToleranceSeconds ?? 30,
        requiredClaims: ["exp", "sub"],
        ...(options.typ ? { typ: options.typ } : {}),
      }));
    } catch (error) {
      const reason = reasonFor(jose, error);
      if (reason) throw new TokenError(reason);
      throw error;
    }
    const verified: VerifiedToken = {
      subject: payload.sub as string,
      scopes: scopesOf(payload),
      audience: payload.aud ?? [],
      claims: payload as Record<string, unknown>,
    };
    // `exp` was checked by jose, with the clock tolerance; expiresAt would re-check it without.
    const client = payload.client_id ?? payload.azp;
    if (typeof client === "string") verified.clientId = client;
    return verified;
  };
}
