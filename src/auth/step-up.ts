/**
 * A handler's challenge (`reauthenticate()`, `needScopes()`: a JSON-RPC error AUTHORIZATION_REQUIRED
 * whose `data` names the OAuth error) as the client gets it: the HTTP 401 invalid_token / 403
 * insufficient_scope with its `WWW-Authenticate` while nothing of the answer was sent, else the
 * same error in the stream with the whole challenge in `data` (`resource_metadata`,
 * `www_authenticate`). Either way the scope named is the complete set: the baseline, the
 * operation's own scopes and the handler's (SEP-2350).
 */
import { AUTHORIZATION_REQUIRED } from "../jsonrpc/errors";
import { errorMessage, type ResponseMessage } from "../jsonrpc/messages";
import { schemeOf } from "./authenticate";
import { challengeHeader, refuse } from "./challenge";
import { withoutOfflineAccess, type ResolvedAuth } from "./options";
import type { Principal } from "./principal";

/** RFC 6749 §3.3 scope-token. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** What a handler's challenge says: the OAuth error, its description, the scopes it asked for. */
export interface HandlerChallenge {
  error: "invalid_token" | "insufficient_scope";
  description: string;
  scopes: readonly string[];
}

/** The challenge a response carries, or undefined for any other response. */
export function handlerChallengeOf(response: ResponseMessage): HandlerChallenge | undefined {
  if (response.kind !== "error" || response.error.code !== AUTHORIZATION_REQUIRED) return undefined;
  const data = response.error.data;
  if (typeof data !== "object" || data === null) return undefined;
  const { error, error_description: description, scope } = data as Record<string, unknown>;
  if (error !== "invalid_token" && error !== "insufficient_scope") return undefined;
  const scopes = typeof scope === "string" ? scope.split(" ").filter((s) => SCOPE_TOKEN.test(s)) : [];
  return { error, description: typeof description === "string" ? description : "", scopes };
}

/** Where the challenge is answered: the route's auth, who asked, and the scopes of the operation besides the baseline. */
export interface ChallengePlace {
  auth: ResolvedAuth;
  principal: Principal | undefined;
  operationScopes: readonly string[];
}

function completeSet(place: ChallengePlace, challenge: HandlerChallenge): string[] {
  return [...new Set([...place.auth.requiredScopes, ...place.operationScopes, ...challenge.scopes])];
}

/** The HTTP answer: 401 invalid_token or 403 insufficient_scope, with the challenge naming the complete set. */
export function challengeResponse(place: ChallengePlace, challenge: HandlerChallenge): Response {
  const scheme = place.principal ? schemeOf(place.auth, place.principal) : undefined;
  return refuse(place.auth, challenge.error, challenge.description, { scopes: completeSet(place, challenge), scheme });
}

/** The in-stream answer: the same JSON-RPC error, its `data` completed with the challenge the HTTP answer would carry. */
export function withChallenge(place: ChallengePlace, response: ResponseMessage): ResponseMessage {
  const challenge = handlerChallengeOf(response);
  if (!challenge || response.kind !== "error") return response;
  const scopes = completeSet(place, challenge);
  const scheme = place.principal ? schemeOf(place.auth, place.principal) : undefined;
  const header = challengeHeader(place.auth, challenge.error, challenge.description, { scopes, scheme });
  const data = {
    ...(response.error.data as Record<string, unknown>),
    scope: withoutOfflineAccess(scopes).join(" "),
    resource_metadata: place.auth.metadataUrl,
    www_authenticate: header,
  };
  return errorMessage(response.id, { ...response.error, data });
}
