/**
 * The resource server's refusals (2025-06-18 Authorization > Error Handling, RFC 6750 §3, RFC
 * 9728 §5.1): 401 with a Bearer challenge naming the metadata URL, 403 insufficient_scope naming
 * the scopes needed, 400 invalid_request. Bodies are JSON-RPC errors like every HTTP refusal.
 */
import { refuse as refuseRequest } from "../wire/refusals";
import { withoutOfflineAccess, type ResolvedAuth } from "./options";

export type BearerError = "invalid_request" | "invalid_token" | "insufficient_scope";

/** RFC 6750 §3: error_description is printable ASCII without `"` and `\`. */
function quotable(text: string): string {
  return text.replace(/[^\x20\x21\x23-\x5B\x5D-\x7E]/g, "");
}

export function challenge(auth: ResolvedAuth, error?: BearerError, description?: string, scopes?: readonly string[]): string {
  const parts = [`resource_metadata="${auth.metadataUrl}"`];
  if (error) parts.push(`error="${error}"`);
  if (error && description) parts.push(`error_description="${quotable(description)}"`);
  const named = scopes ? withoutOfflineAccess(scopes) : [];
  if (named.length > 0) parts.push(`scope="${named.join(" ")}"`);
  return `Bearer ${parts.join(", ")}`;
}

/** 401 for a request without credentials: no error code (RFC 6750 §3.1), the baseline scopes to ask for. */
export function unauthenticated(auth: ResolvedAuth): Response {
  return refuseRequest({ reason: "unauthenticated" }, null, {
    "WWW-Authenticate": challenge(auth, undefined, undefined, auth.requiredScopes),
  });
}

/** 400 invalid_request, 401 invalid_token or 403 insufficient_scope, with the matching challenge. */
export function refuse(auth: ResolvedAuth, error: BearerError, description: string, scopes?: readonly string[]): Response {
  const wanted = scopes ?? (error === "invalid_token" ? auth.requiredScopes : undefined);
  return refuseRequest({ reason: "bearer-refused", error, description }, null, {
    "WWW-Authenticate": challenge(auth, error, description, wanted),
  });
}
