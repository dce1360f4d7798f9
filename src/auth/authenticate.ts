/**
 * The resource server's gate, run in the Worker before any MCP work: reads the bearer token
 * (header only; OAuth 2.1 §5.1, never the query string), has the configured verifier check it,
 * enforces audience binding (RFC 8707), expiry and the baseline scopes, and yields the
 * principal. Also the refusal of an operation's scopes (which scopes: src/mcp/dispatch/operation-scopes.ts).
 * The token itself goes no further than the verifier.
 */
import { refuse as refuseRequest } from "../wire/refusals";
import { authUnavailableRow } from "../wire/auth-refusals";
import { audienceMatches } from "./canonical";
import { refuse, unauthenticated, type Scheme } from "./challenge";
import { TokenError, type ResolvedAuth, type VerifiedToken } from "./options";
import type { Principal } from "./principal";

export type AuthOutcome = { ok: true; principal: Principal } | { ok: false; response: Response };

/**
 * `Bearer` (or `DPoP`, RFC 9449 §7.1) 1*SP token. RFC 6750 §2.1's b64token is narrower, but real
 * authorization servers (the built-in one's tokens are `user:grant:secret`) use other visible
 * characters; what stays malformed is a missing token, or more than one (spaces, or two headers
 * joined by ", ").
 */
const CREDENTIALS = /^(Bearer|DPoP) +([\x21-\x7E]+) *$/i;
const KNOWN_SCHEME = /^(?:Bearer|DPoP)(?: |$)/i;

type ParsedAuthorization = { kind: "token"; scheme: Scheme; token: string } | { kind: "other-scheme" } | { kind: "malformed" };

function parseAuthorization(header: string): ParsedAuthorization {
  const match = CREDENTIALS.exec(header);
  if (match) {
    const scheme: Scheme = (match[1] as string).toLowerCase() === "dpop" ? "DPoP" : "Bearer";
    return { kind: "token", scheme, token: match[2] as string };
  }
  return KNOWN_SCHEME.test(header.trimStart()) ? { kind: "malformed" } : { kind: "other-scheme" };
}

/** The key thumbprint a token is bound to (RFC 9449 §6: `cnf.jkt`, in the JWT or the introspection answer). */
function boundKey(claims: Readonly<Record<string, unknown>>): string | undefined {
  const cnf = claims.cnf;
  if (typeof cnf !== "object" || cnf === null) return undefined;
  const jkt = (cnf as Record<string, unknown>).jkt;
  return typeof jkt === "string" ? jkt : undefined;
}

/** OAuth 2.1 §5.1 / MCP 2025-06-18: access tokens MUST NOT be sent in the URI query string. */
function hasQueryToken(url: string): boolean {
  if (!url.includes("access_token")) return false;
  return new URL(url).searchParams.has("access_token");
}

function fail(response: Response): AuthOutcome {
  return { ok: false, response };
}

function unavailable(): Response {
  return refuseRequest(authUnavailableRow());
}

/** What is wrong with a verifier's answer, or undefined when it stands. */
function problemWith(token: VerifiedToken, resource: string, now: number): string | undefined {
  if (typeof token.subject !== "string" || token.subject.length === 0) return "the access token names no subject";
  if (!audienceMatches(token.audience, resource)) return `the access token was not issued for this resource (${resource})`;
  if (token.expiresAt !== undefined && !(token.expiresAt > now)) return "the access token expired";
  if (!Array.isArray(token.scopes) || !token.scopes.every((s) => typeof s === "string")) return "the access token's scopes are unreadable";
  return undefined;
}

function toPrincipal(token: VerifiedToken): Principal {
  const principal: Principal = { subject: token.subject, scopes: [...token.scopes], claims: token.claims ?? {} };
  if (typeof token.clientId === "string") principal.clientId = token.clientId;
  // The JWT verifier leaves `exp` to jose (with its clock tolerance): the claim is the expiry then.
  const expiresAt = token.expiresAt ?? token.claims?.exp;
  if (typeof expiresAt === "number" && Number.isFinite(expiresAt)) principal.expiresAt = expiresAt;
  return principal;
}

/**
 * The DPoP half of the gate (RFC 9449 §7), before the token is verified: which scheme this
 * resource takes, and the proof of a DPoP request. The proof key's thumbprint, or the refusal.
 */
async function checkScheme(
  request: Request,
  auth: ResolvedAuth,
  env: unknown,
  presented: { scheme: Scheme; token: string },
): Promise<{ ok: true; proofKey?: string } | { ok: false; response: Response }> {
  const { scheme, token } = presented;
  const dpop = auth.dpop;
  if (scheme === "DPoP" && !dpop) return { ok: false, response: unauthenticated(auth) };
  if (scheme === "Bearer" && dpop?.required) {
    const description = "this resource accepts only DPoP-bound access tokens (Authorization: DPoP)";
    return { ok: false, response: refuse(auth, "invalid_token", description, { scheme: "DPoP" }) };
  }
  if (scheme !== "DPoP" || !dpop) return { ok: true };
  const proof = await dpop.check(request, token, env);
  if (proof.ok) return { ok: true, proofKey: proof.jkt };
  // RFC 9449 §9: ask for a proof carrying the server's nonce; the client retries with it.
  if (proof.nonce !== undefined)
    return {
      ok: false,
      response: refuse(auth, "use_dpop_nonce", proof.description, { scheme: "DPoP", headers: { "DPoP-Nonce": proof.nonce } }),
    };
  return { ok: false, response: refuse(auth, "invalid_dpop_proof", proof.description, { scheme: "DPoP" }) };
}

/** RFC 9449 §7.1 / §7.2: a DPoP token only with its key's proof; a bound token never as a bearer token. */
function bindingRefusal(
  auth: ResolvedAuth,
  scheme: Scheme,
  claims: Readonly<Record<string, unknown>>,
  proofKey?: string,
): Response | undefined {
  if (!auth.dpop) return undefined;
  const bound = boundKey(claims);
  if (scheme === "DPoP" && bound === undefined)
    return refuse(auth, "invalid_token", "the access token is not bound to a key (no cnf.jkt)", { scheme });
  if (scheme === "DPoP" && bound !== proofKey)
    return refuse(auth, "invalid_token", "the access token is bound to a different key than the DPoP proof's", { scheme });
  if (scheme === "Bearer" && bound !== undefined)
    return refuse(auth, "invalid_token", "this access token is DPoP-bound: send it as Authorization: DPoP with a proof", {
      scheme: "DPoP",
    });
  return undefined;
}

/** Authenticates one request to a protected route. */
export async function authenticate(request: Request, auth: ResolvedAuth, env: unknown): Promise<AuthOutcome> {
  if (hasQueryToken(request.url)) {
    return fail(
      refuse(auth, "invalid_request", "access tokens are not accepted in the query string; send them in the Authorization header"),
    );
  }
  const header = request.headers.get("Authorization");
  if (header === null) return fail(unauthenticated(auth));
  const parsed = parseAuthorization(header);
  switch (parsed.kind) {
    case "other-scheme":
      // RFC 6750 §3.1: no credentials in a scheme we support is "no authentication information".
      return fail(unauthenticated(auth));
    case "malformed":
      return fail(refuse(auth, "invalid_request", "malformed Authorization header; expected: Bearer <token>"));
    case "token":
      break;
  }
  const { scheme, token } = parsed;
  const proof = await checkScheme(request, auth, env, { scheme, token });
  if (!proof.ok) return fail(proof.response);
  let verified: VerifiedToken | null;
  try {
    verified = await auth.verify(token, { resource: auth.resource, env, request });
  } catch (error) {
    if (error instanceof TokenError) return fail(refuse(auth, "invalid_token", error.description, { scheme }));
    console.error("mcp-edge: token verification failed", error);
    return fail(unavailable());
  }
  if (!verified) return fail(refuse(auth, "invalid_token", "the access token is invalid", { scheme }));
  const problem = problemWith(verified, auth.resource, Math.floor(Date.now() / 1000));
  if (problem) return fail(refuse(auth, "invalid_token", problem, { scheme }));
  const unbound = bindingRefusal(auth, scheme, verified.claims ?? {}, proof.proofKey);
  if (unbound) return fail(unbound);
  const principal = toPrincipal(verified);
  const missing = auth.requiredScopes.filter((s) => !principal.scopes.includes(s));
  if (missing.length > 0) {
    return fail(
      refuse(auth, "insufficient_scope", `this server needs the scope ${missing.join(" ")}`, { scopes: auth.requiredScopes, scheme }),
    );
  }
  return { ok: true, principal };
}

/** The scheme a refusal of this principal concerns: DPoP for a DPoP-bound token. */
export function schemeOf(auth: ResolvedAuth, principal: Principal): Scheme {
  return auth.dpop && boundKey(principal.claims) !== undefined ? "DPoP" : "Bearer";
}

/**
 * 403 insufficient_scope when the principal lacks a scope the operation needs, naming the complete
 * set (the baseline and every scope of the operation, granted or not: SEP-2350, one challenge
 * with all of them); undefined when all are granted.
 */
export function scopeRefusal(
  auth: ResolvedAuth,
  principal: Principal,
  needed: { what: string; scopes: readonly string[] },
): Response | undefined {
  const missing = needed.scopes.filter((s) => !principal.scopes.includes(s));
  if (missing.length === 0) return undefined;
  const all = [...new Set([...auth.requiredScopes, ...needed.scopes])];
  return refuse(auth, "insufficient_scope", `${needed.what} needs the scope ${missing.join(" ")}`, {
    scopes: all,
    scheme: schemeOf(auth, principal),
  });
}

/** GET of the protected resource metadata document (RFC 9728 §3). */
export function metadataResponse(auth: ResolvedAuth): Response {
  return new Response(auth.metadataBody, {
    status: 200,
    headers: { "Content-Type": "application/json", "Cache-Control": "public, max-age=300" },
  });
}
