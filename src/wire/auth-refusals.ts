/**
 * The auth gate's refusals (src/auth, the auth() feature): rows of the refusal table (refusals.ts)
 * kept beside it, so a Worker without auth bundles none of them. The caller adds the
 * WWW-Authenticate challenge (RFC 6750 §3). docs/errors.md's rows are checked against these.
 */
import { TRANSPORT_ERROR } from "../jsonrpc/errors";
import type { RefusalRow } from "./refusals";

/** The bearer errors of RFC 6750 §3.1, with DPoP's (RFC 9449 §7.1, §8). */
type BearerError = "invalid_request" | "invalid_token" | "invalid_dpop_proof" | "use_dpop_nonce" | "insufficient_scope";

/** The token could not be checked now (its verifier or the authorization server failed): retry. */
export function authUnavailableRow(): RefusalRow {
  return {
    status: 503,
    code: TRANSPORT_ERROR,
    message: "Service Unavailable: the access token could not be checked right now; try again",
    headers: { "Retry-After": "5" },
  };
}

/** No access token at all. */
export function unauthenticatedRow(): RefusalRow {
  return { status: 401, code: TRANSPORT_ERROR, message: "Unauthorized: this server needs an OAuth access token (Authorization: Bearer)" };
}

/** A token (or its proof) that was refused: 400 for a malformed request, 403 for too few scopes, else 401. */
export function bearerRefusedRow(error: BearerError, description: string): RefusalRow {
  const [status, title] =
    error === "invalid_request" ? [400, "Bad Request"] : error === "insufficient_scope" ? [403, "Forbidden"] : [401, "Unauthorized"];
  return { status, code: TRANSPORT_ERROR, message: `${title}: ${description}` };
}
