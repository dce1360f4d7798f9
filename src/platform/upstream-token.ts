/**
 * An upstream OAuth token endpoint, as its client sees it (RFC 6749 §4.1.3 code exchange, §6
 * refresh; client_secret_post): one request, and its answer read without trusting it. Used by the
 * built-in authorization server's callback (the code) and by the user object (refreshes). Keeps
 * only what a caller may show: an OAuth error code, an HTTP status; never the upstream's own text.
 * Also the types of the user object's upstream calls (durable-objects/user/contract.ts), which
 * src/auth uses without importing the object's contract.
 */

/** An upstream grant as stored (sealed) in the principal's user object. */
export interface UpstreamGrant {
  accessToken: string;
  refreshToken?: string;
  /** Seconds since the epoch; absent when the upstream gave no lifetime (the token does not expire). */
  expiresAt?: number;
  scope?: string;
}

/** Where and as whom token requests go. */
export interface TokenEndpoint {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
}

/** How a grant is sealed: under a key derived from `secret` (the server's) for this principal. */
export interface UpstreamSealing {
  subject: string;
  secret: string;
}

/** What the object needs to hand out a fresh token: the sealing, the token endpoint, how early to refresh. */
export interface UpstreamPlan extends UpstreamSealing, TokenEndpoint {
  /** Refresh when the token expires within this many seconds. */
  refreshBeforeSeconds: number;
  /** An access token the upstream API just refused (401): refresh unless the stored one is already another. */
  rejected?: string;
}

/**
 * A fresh upstream access token, or why there is none: `none` (never signed in), `revoked` (the
 * upstream refused the refresh token: the grant is deleted), `expired` (no refresh token),
 * `unreadable` (sealed under another secret), `unavailable` (the upstream failed; kept, retry later).
 */
export type UpstreamAccess =
  | { ok: true; accessToken: string; expiresAt?: number; refreshed?: boolean }
  | { ok: false; reason: "none" | "revoked" | "expired" | "unreadable" }
  | { ok: false; reason: "unavailable"; detail: string };

/** An upstream token endpoint's answer, read without trusting it: tokens, an OAuth error code, or neither. */
export type TokenAnswer =
  | { kind: "tokens"; grant: UpstreamGrant }
  | { kind: "refused"; error: string }
  | { kind: "broken"; detail: string };

const ERROR_CODE = /^[A-Za-z0-9_.-]{1,64}$/;

/** POSTs one token request (RFC 6749 §4.1.3 / §6, client_secret_post) and reads its answer. */
export async function requestTokens(plan: TokenEndpoint, form: Record<string, string>): Promise<TokenAnswer> {
  const body = new URLSearchParams({ ...form, client_id: plan.clientId, client_secret: plan.clientSecret });
  let response: Response;
  try {
    response = await fetch(plan.tokenUrl, {
      method: "POST",
      // GitHub answers form-encoded unless asked for JSON.
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body,
    });
  } catch {
    return { kind: "broken", detail: "the token endpoint could not be reached" };
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { kind: "broken", detail: `the token endpoint answered HTTP ${response.status} without JSON` };
  }
  return readTokenAnswer(parsed, response.status);
}

function readTokenAnswer(parsed: unknown, status: number): TokenAnswer {
  if (typeof parsed !== "object" || parsed === null)
    return { kind: "broken", detail: `the token endpoint answered HTTP ${status} without tokens` };
  const answer = parsed as Record<string, unknown>;
  // Only the error code is kept (a short token), never the upstream's own description.
  if (typeof answer.error === "string") return { kind: "refused", error: ERROR_CODE.test(answer.error) ? answer.error : "error" };
  if (status < 200 || status > 299 || typeof answer.access_token !== "string" || answer.access_token.length === 0)
    return { kind: "broken", detail: `the token endpoint answered HTTP ${status} without an access token` };
  const grant: UpstreamGrant = { accessToken: answer.access_token };
  if (typeof answer.refresh_token === "string" && answer.refresh_token.length > 0) grant.refreshToken = answer.refresh_token;
  if (typeof answer.expires_in === "number" && answer.expires_in > 0) grant.expiresAt = Math.floor(Date.now() / 1000) + answer.expires_in;
  if (typeof answer.scope === "string") grant.scope = answer.scope;
  return { kind: "tokens", grant };
}
