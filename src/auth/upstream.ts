/**
 * Upstream sign-in (docs/auth.md "Upstream sign-in"): the built-in authorization server signs the
 * user in at another OAuth provider (GitHub, Google, Slack) and keeps that provider's grant for
 * the tools. `defineUpstream` describes the provider; `createAuthorizationServer({ upstream })`
 * serves its consent page, the redirect and the callback (upstream-login.ts); a handler reads a
 * fresh upstream token with `await upstream.token(ctx)`. The grant is stored sealed in the
 * principal's user object, which refreshes it (once for every concurrent caller) before it expires.
 */
import { OAuthAuthorizationServer } from "@cloudflare/workers-oauth-provider";
import { AuthorizationChallenge } from "../mcp/definition/authorization";
import { ToolError } from "../mcp/definition/content";
import { endStreamsOf } from "../platform/end-streams";
import { userObjectId } from "../platform/addresses";
import { requireNamespace, USER_BINDING } from "../platform/bindings";
import type { UpstreamAccess, UpstreamGrant, UpstreamPlan, UpstreamSealing } from "../platform/upstream-token";
import type { Principal } from "./principal";

/** A setting read from the Worker's env (a secret, or a URL that differs between wrangler dev and deploy), or a constant. */
export type EnvSetting<Env> = string | ((env: Env) => string | undefined);

/** Who signed in, as your `identify` hook reads it from the upstream. */
export interface UpstreamIdentity {
  /** The principal's subject (`ctx.principal.subject`, the key of `ctx.user`); no `:`. */
  userId: string;
  /** What handlers see as `ctx.principal.claims` (the grant's props). Never put the upstream token here. */
  props?: Record<string, unknown>;
}

export interface UpstreamOptions<Env> {
  /** The grant's name, e.g. "github": one grant per principal and name. */
  name: string;
  /** The provider's name as people read it, on the consent page and in errors (default: `name`). */
  title?: string;
  /** The provider's authorization endpoint, e.g. "https://github.com/login/oauth/authorize". */
  authorizeUrl: EnvSetting<Env>;
  /** The provider's token endpoint, e.g. "https://github.com/login/oauth/access_token". */
  tokenUrl: EnvSetting<Env>;
  /** Your OAuth app's client id at the provider. */
  clientId: EnvSetting<Env>;
  /** Your OAuth app's client secret (a secret: `(env) => env.GITHUB_CLIENT_SECRET`). */
  clientSecret: EnvSetting<Env>;
  /** Scopes asked of the provider. */
  scopes?: string[];
  /** After the code exchange: who signed in (e.g. GitHub's `GET /user`). Throw to refuse the sign-in. */
  identify(token: { accessToken: string; scope?: string }, context: { env: Env }): Promise<UpstreamIdentity>;
  /** The secret grants are sealed under, at least 32 characters (default: the MCP_UPSTREAM_SECRET variable). */
  sealingSecret?: EnvSetting<Env>;
  /** Refresh a token that expires within this many seconds (default 60). */
  refreshBeforeSeconds?: number;
  /** The callback path on the issuer's origin, registered at the provider (default "/callback"). */
  callbackPath?: string;
}

/** What a handler context must offer `token(ctx)`: the bindings, the principal, the request (for its origin). */
export interface UpstreamCaller<Env> {
  env: Env;
  principal: Pick<Principal, "subject"> | undefined;
}

/**
 * Thrown by `token(ctx)` when the user must sign in again: the upstream grant is gone (revoked at
 * the provider, refresh token dead, never made). Every grant of this principal at this
 * authorization server is revoked first; the error is a `reauthenticate()` challenge, so the call
 * that met it is answered 401 invalid_token (in a stream whose status is sent, the call's error
 * carries the challenge) and the client re-authorizes.
 */
export class UpstreamSignInRequired extends AuthorizationChallenge {
  constructor(
    readonly upstream: string,
    readonly reason: "none" | "revoked" | "expired" | "unreadable",
  ) {
    super("invalid_token", [], `${upstream} sign-in is needed again (${REASONS[reason]})`);
    this.name = "UpstreamSignInRequired";
  }
}

const REASONS: Record<UpstreamSignInRequired["reason"], string> = {
  none: "no grant is stored for this user",
  revoked: "the provider refused the refresh token",
  expired: "the token expired and the provider gave no refresh token",
  unreadable: "the stored grant was sealed under another secret",
};

/** The user object's calls made here (its UserRpc, durable-objects/user/contract.ts, has them). */
interface GrantHolder extends Rpc.DurableObjectBranded {
  saveUpstreamGrant(name: string, grant: UpstreamGrant, sealing: UpstreamSealing): Promise<void>;
  upstreamAccess(name: string, plan: UpstreamPlan): Promise<UpstreamAccess>;
}

const NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const MIN_SECRET_LENGTH = 32;

export class Upstream<Env> {
  readonly name: string;
  readonly title: string;
  readonly callbackPath: string;
  #revoker: OAuthAuthorizationServer<Env> | undefined;

  constructor(readonly options: UpstreamOptions<Env>) {
    if (!NAME.test(options.name)) throw new TypeError(`defineUpstream: name must match ${NAME} (got "${options.name}")`);
    if (typeof options.identify !== "function") throw new TypeError("defineUpstream: identify(token, { env }) is required");
    this.name = options.name;
    this.title = options.title ?? options.name;
    this.callbackPath = options.callbackPath ?? "/callback";
    if (!this.callbackPath.startsWith("/")) throw new TypeError("defineUpstream: callbackPath is a path such as /callback");
  }

  /** A setting's value, or an error naming the option when it is missing. */
  setting(key: "authorizeUrl" | "tokenUrl" | "clientId" | "clientSecret" | "sealingSecret", env: Env): string {
    const value = key === "sealingSecret" ? this.sealingSecret(env) : readSetting(this.options[key], env);
    if (!value) throw new Error(`mcp-edge upstream "${this.name}": the ${key} setting is empty (check the variable or secret it reads)`);
    return value;
  }

  private sealingSecret(env: Env): string | undefined {
    const configured = this.options.sealingSecret;
    const value = configured === undefined ? (env as Record<string, unknown>).MCP_UPSTREAM_SECRET : readSetting(configured, env);
    if (typeof value !== "string" || value.length < MIN_SECRET_LENGTH)
      throw new Error(
        `mcp-edge upstream "${this.name}": upstream grants are sealed under MCP_UPSTREAM_SECRET (or the sealingSecret option), a secret of at least ${MIN_SECRET_LENGTH} characters: \`wrangler secret put MCP_UPSTREAM_SECRET\`, and a line in .dev.vars for wrangler dev`,
      );
    return value;
  }

  /** The principal's user object (MCP_USER), where its grants are kept. */
  userObject(env: Env, subject: string): DurableObjectStub<GrantHolder> {
    const namespace = requireNamespace<DurableObjectNamespace<GrantHolder>>(env, USER_BINDING, `upstream "${this.name}"`);
    return namespace.get(userObjectId(namespace, subject));
  }

  /** Stores a grant fresh from the provider for `subject` (the callback's last step). */
  async save(env: Env, subject: string, grant: UpstreamGrant): Promise<void> {
    await this.userObject(env, subject).saveUpstreamGrant(this.name, grant, { subject, secret: this.setting("sealingSecret", env) });
  }

  /**
   * A fresh access token for the request's principal. Refreshed first when it expires within
   * `refreshBeforeSeconds`, or when `rejected` names the token the provider's API just refused
   * with 401 (one refresh upstream however many calls wait for it). Throws
   * `UpstreamSignInRequired` when the user must sign in again, a ToolError when the provider is down.
   */
  async token(ctx: UpstreamCaller<Env>, options: { rejected?: string } = {}): Promise<string> {
    const subject = ctx.principal?.subject;
    if (!subject)
      throw new ToolError(`${this.title} sign-in needs an authenticated user: this request has no principal (is auth configured?)`);
    const plan = this.plan(ctx.env, subject);
    if (options.rejected !== undefined) plan.rejected = options.rejected;
    const access = await this.userObject(ctx.env, subject).upstreamAccess(this.name, plan);
    return this.accessOrThrow(access, ctx.env, subject);
  }

  private plan(env: Env, subject: string): UpstreamPlan {
    return {
      subject,
      secret: this.setting("sealingSecret", env),
      tokenUrl: this.setting("tokenUrl", env),
      clientId: this.setting("clientId", env),
      clientSecret: this.setting("clientSecret", env),
      refreshBeforeSeconds: this.options.refreshBeforeSeconds ?? 60,
    };
  }

  private async accessOrThrow(access: UpstreamAccess, env: Env, subject: string): Promise<string> {
    if (access.ok) return access.accessToken;
    switch (access.reason) {
      case "unavailable":
        console.error(`mcp-edge upstream "${this.name}": ${access.detail}`);
        throw new ToolError(`${this.title} is unavailable right now (${access.detail}); try again later`);
      case "none":
      case "revoked":
      case "expired":
      case "unreadable":
        await this.revokeGrants(env, subject);
        throw new UpstreamSignInRequired(this.title, access.reason);
    }
  }

  /**
   * Revokes every grant of `subject` at this server's authorization server, so its access and
   * refresh tokens stop working and the client signs in again (through the provider, which makes
   * a new upstream grant). Grants are records in OAUTH_KV, the same for every issuer this Worker
   * answers as: the provider made here only lists and revokes them. With a hub, the user's held
   * streams then end (endStreamsOf).
   */
  private async revokeGrants(env: Env, subject: string): Promise<void> {
    this.#revoker ??= new OAuthAuthorizationServer<Env>({ issuer: REVOKER_ISSUER, resources: [REVOKER_ISSUER] });
    const helpers = this.#revoker.getOAuthApi(env);
    let cursor: string | undefined;
    do {
      const page = await helpers.listUserGrants(subject, cursor === undefined ? {} : { cursor });
      await Promise.all(page.items.map((grant) => helpers.revokeGrant(grant.id, subject)));
      cursor = page.cursor;
    } while (cursor);
    // The user's held streams end now, not at their tokens' expiry (docs/auth.md "Revoking a grant ends its streams").
    if ((env as { MCP_HUB?: unknown }).MCP_HUB === undefined) return;
    await endStreamsOf(env as object, subject).catch((error: unknown) => {
      console.error(
        "mcp-edge: the upstream grant was revoked, but ending its user's streams failed; they end at the token's expiry",
        error,
      );
    });
  }
}

/** Never served: the issuer of the provider instance that only revokes grants (see revokeGrants). */
const REVOKER_ISSUER = "https://grant-revocation.mcp-edge.invalid";

function readSetting<Env>(setting: EnvSetting<Env> | undefined, env: Env): string | undefined {
  return typeof setting === "function" ? setting(env) : setting;
}

/** Describes an upstream OAuth provider to sign users in at; pass it to `createAuthorizationServer({ upstream })`. */
export function defineUpstream<Env>(options: UpstreamOptions<Env>): Upstream<Env> {
  return new Upstream(options);
}
