/**
 * What a server says about authorization beyond the token's baseline: the OAuth scopes an operation
 * needs (declared on a tool, resource, template or prompt, fixed or computed from the call), and
 * the errors a handler throws to make the client sign in again (`reauthenticate()`) or ask for
 * more scope (`needScopes()`). The core only carries them; the Worker turns them into 401/403
 * with a `WWW-Authenticate` challenge (src/auth/challenge.ts), or, once a stream's status is sent,
 * into a JSON-RPC error carrying that challenge (AUTHORIZATION_REQUIRED).
 */
import { AUTHORIZATION_REQUIRED, RpcError } from "../../jsonrpc/errors";
import type { Principal } from "./principal";
import type { RouteParams } from "../../wire/route-params";
import type { Awaitable } from "./definitions";

/** RFC 6749 §3.3 scope-token: printable ASCII without space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** The call whose scopes are computed: what it names, its arguments as sent (not yet validated), who sent it, where. */
export interface ScopeCall<Env = unknown> {
  /** `tools/call`, `prompts/get`, `resources/read`, `resources/subscribe` or `resources/unsubscribe`. */
  method: string;
  /** The tool's or prompt's name; undefined for a resource. */
  name?: string;
  /** The resource's URI; undefined for a tool or prompt. */
  uri?: string;
  /** A tool's or prompt's arguments as the client sent them (not yet checked against the schema). */
  arguments: Readonly<Record<string, unknown>>;
  /** A template resource's variables (`{id}` of `users://{id}/profile`); empty otherwise. */
  variables: Readonly<Record<string, string>>;
  /** Who sent the call, as the access token proved (scopes, subject, claims). */
  principal: Principal;
  /** The endpoint's route parameters (`/mcp/:tenant` → `{ tenant }`); empty for a literal path. */
  params: RouteParams;
  env: Env;
}

/**
 * The scopes an operation needs besides `auth.requiredScopes`: a list, or a function of the call
 * (SEP-2350: a 403 names the complete set, so the function returns all of them, granted or not).
 */
export type ScopeRequirement<Env = unknown> = readonly string[] | ((call: ScopeCall<Env>) => Awaitable<readonly string[]>);

/** A definition's `scopes` option, checked when the server is defined: a list of scope tokens or a function. */
export function checkScopeRequirement<Env>(requirement: unknown, what: string): ScopeRequirement<Env> | undefined {
  if (requirement === undefined || typeof requirement === "function") return requirement as ScopeRequirement<Env> | undefined;
  if (Array.isArray(requirement) && requirement.every(isScopeToken)) return Object.freeze([...requirement]);
  throw new TypeError(`${what}: scopes must be a list of OAuth scope tokens (no spaces or quotes) or a function of the call`);
}

export function isScopeToken(scope: unknown): scope is string {
  return typeof scope === "string" && SCOPE_TOKEN.test(scope);
}

/** `invalid_token`: sign in again (401); `insufficient_scope`: a token with more scope (403). */
export type ChallengeError = "invalid_token" | "insufficient_scope";

/**
 * Thrown by a handler to make the client re-authorize; made by `reauthenticate()` and
 * `needScopes()`. Never shown as a failing tool: the answer is the HTTP challenge.
 */
export class AuthorizationChallenge extends RpcError {
  constructor(
    readonly error: ChallengeError,
    readonly scopes: readonly string[],
    readonly description: string,
  ) {
    const status = error === "invalid_token" ? 401 : 403;
    const message = `${error === "invalid_token" ? "Unauthorized" : "Forbidden"}: ${description}`;
    const data: Record<string, unknown> = { status, error, error_description: description };
    if (scopes.length > 0) data.scope = scopes.join(" ");
    super(AUTHORIZATION_REQUIRED, message, data);
    this.name = "AuthorizationChallenge";
  }
}

/**
 * An error to throw from a handler when the client must sign in again: the grant behind the
 * token was revoked, an upstream token it stands for is gone. The client gets 401 invalid_token.
 */
export function reauthenticate(description = "sign in again to continue"): AuthorizationChallenge {
  return new AuthorizationChallenge("invalid_token", [], String(description));
}

/**
 * An error to throw from a handler when this call needs scopes the token lacks: the client gets
 * 403 insufficient_scope naming them, with the operation's other scopes (the complete set).
 */
export function needScopes(scopes: readonly string[], description?: string): AuthorizationChallenge {
  if (!Array.isArray(scopes) || scopes.length === 0 || !scopes.every(isScopeToken))
    throw new TypeError('needScopes: give at least one OAuth scope token (no spaces or quotes), e.g. needScopes(["files:write"])');
  return new AuthorizationChallenge("insufficient_scope", [...scopes], description ?? `this operation needs the scope ${scopes.join(" ")}`);
}
