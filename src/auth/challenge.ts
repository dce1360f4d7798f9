/**
 * The resource server's refusals (2025-06-18 Authorization > Error Handling, RFC 6750 §3, RFC
 * 9728 §5.1): 401 with a Bearer challenge naming the metadata URL, 403 insufficient_scope naming
 * the scopes needed, 400 invalid_request. Bodies are JSON-RPC errors like every HTTP refusal.
 */
import { refuse as refuseRequest } from "../wire/refusals";
import { bearerRefusedRow, unauthenticatedRow } from "../wire/auth-refusals";
import { withoutOfflineAccess, type ResolvedAuth } from "./options";

type BearerError = "invalid_request" | "invalid_token" | "insufficient_scope";
/** RFC 9449 §7.1 adds invalid_dpop_proof and §9 use_dpop_nonce (401) to the DPoP scheme's errors. */
export type AuthError = BearerError | "invalid_dpop_proof" | "use_dpop_nonce";
export type Scheme = "Bearer" | "DPoP";

/** RFC 6750 §3: error_description is printable ASCII without `"` and `\`. */
function quotable(text: string): string {
  return text.replace(/[^\x20\x21\x23-\x5B\x5D-\x7E]/g, "");
}

/** What a challenge names: the error and its description, and the scopes to ask for (all optional). */
interface Problem {
  error?: AuthError;
  description?: string;
  scopes?: readonly string[];
}

function challenge(auth: ResolvedAuth, scheme: Scheme, problem: Problem): string {
  const { error, description, scopes } = problem;
  const parts = [`resource_metadata="${auth.metadataUrl}"`];
  if (error) parts.push(`error="${error}"`);
  if (error && description) parts.push(`error_description="${quotable(description)}"`);
  const named = scopes ? withoutOfflineAccess(scopes) : [];
  if (named.length > 0) parts.push(`scope="${named.join(" ")}"`);
  if (scheme === "DPoP" && auth.dpop) parts.push(`algs="${auth.dpop.algorithms.join(" ")}"`);
  return `${scheme} ${parts.join(", ")}`;
}

/**
 * The WWW-Authenticate value: the challenge of the scheme the refusal concerns, and, when this
 * resource also takes DPoP and the refusal is a Bearer one, a bare DPoP challenge offering it
 * (RFC 9449 §7.1: a resource accepting both schemes may send both).
 */
function challenges(auth: ResolvedAuth, scheme: Scheme, problem: Problem): string {
  const main = challenge(auth, scheme, problem);
  if (scheme === "Bearer" && auth.dpop) return `${main}, ${challenge(auth, "DPoP", { scopes: problem.scopes })}`;
  return main;
}

/** The scheme a client without credentials is offered first: DPoP when the resource requires it. */
function firstScheme(auth: ResolvedAuth): Scheme {
  return auth.dpop?.required ? "DPoP" : "Bearer";
}

/** 401 for a request without credentials: no error code (RFC 6750 §3.1), the baseline scopes to ask for. */
export function unauthenticated(auth: ResolvedAuth): Response {
  return refuseRequest(unauthenticatedRow(), null, {
    "WWW-Authenticate": challenges(auth, firstScheme(auth), { scopes: auth.requiredScopes }),
  });
}

/** How a refusal is made: the scopes it names, the scheme it concerns, extra headers (all optional). */
export interface RefusalDetails {
  scopes?: readonly string[];
  scheme?: Scheme;
  headers?: Record<string, string>;
}

/** The WWW-Authenticate value of a refusal (also carried in-band by a handler's challenge on a stream, step-up.ts). */
export function challengeHeader(auth: ResolvedAuth, error: AuthError, description: string, details: RefusalDetails = {}): string {
  return challenges(auth, details.scheme ?? firstScheme(auth), { error, description, scopes: details.scopes });
}

/** 400 invalid_request, 401 invalid_token / invalid_dpop_proof or 403 insufficient_scope, with the matching challenge. */
export function refuse(auth: ResolvedAuth, error: AuthError, description: string, details: RefusalDetails = {}): Response {
  const { scopes, scheme, headers = {} } = details;
  const wanted = scopes ?? (error === "insufficient_scope" || error === "invalid_request" ? undefined : auth.requiredScopes);
  return refuseRequest(bearerRefusedRow(error, description), null, {
    "WWW-Authenticate": challenges(auth, scheme ?? firstScheme(auth), { error, description, scopes: wanted }),
    ...headers,
  });
}
