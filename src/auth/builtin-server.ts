/**
 * The built-in authorization server option: Cloudflare's `@cloudflare/workers-oauth-provider`
 * in the same Worker as the MCP server. It owns RFC 8414 metadata, client registration (Client
 * ID Metadata Documents by default, RFC 7591 dynamic registration for older clients), the token
 * endpoint (authorization code + PKCE S256, refresh-token rotation, RFC 8707 resource binding,
 * revocation; optionally enterprise-managed ID-JAG assertions) and its KV storage (binding
 * `OAUTH_KV`); you own the `/authorize` page (sign-in and consent), or name an `upstream`
 * provider to sign users in at (upstream-login.ts serves its pages). Its tokens are opaque, so
 * the resource server checks them through `verify`, which asks the provider's own token store.
 */
import {
  OAuthAuthorizationServer,
  type EmaOptions,
  type OAuthAuthorizationServerOptions,
  type OAuthHelpers,
} from "@cloudflare/workers-oauth-provider";
import { canonicalResource } from "./canonical";
import { refuseUnsafeClientId, type ClientIdMetadataOptions } from "./client-metadata";
import { tokenEndpointEndingStreams } from "./revocation";
import type { TokenVerifier, VerifiedToken } from "./options";
import type { Upstream } from "./upstream";
import { serveUpstreamAuthorize, serveUpstreamCallback } from "./upstream-login";

/** The bindings the built-in authorization server needs. */
export interface AuthorizationServerEnv {
  /** KV namespace for clients, grants and token hashes (miniflare provides one locally). */
  OAUTH_KV: KVNamespace;
}

/** Your sign-in and consent page: validate with `oauth.parseAuthRequest`, finish with `oauth.completeAuthorization`. */
export type AuthorizeHandler<Env> = (request: Request, env: Env, oauth: OAuthHelpers) => Promise<Response>;

export interface AuthorizationServerOptions<Env> {
  /** The issuer: this Worker's origin, e.g. "https://mcp.example.com" (http only on loopback hosts, for wrangler dev). */
  issuer: string;
  /** The MCP server's canonical URI, the one audience tokens are issued for (same as `auth.resource`). */
  resource: string;
  /** Every scope this server can grant (RFC 8414 `scopes_supported`). */
  scopesSupported?: string[];
  /** Serves `/authorize`; optional with `upstream` (then its consent page and redirect to the provider). */
  authorize?: AuthorizeHandler<Env>;
  /**
   * Sign users in at another OAuth provider (`defineUpstream(…)`): `/authorize` shows a consent
   * page and sends the browser there, its callback path stores the provider's grant for the
   * principal, and handlers read a fresh token with `await upstream.token(ctx)`.
   */
  upstream?: Upstream<Env>;
  /**
   * Called at the token endpoint for every code exchange and refresh (workers-oauth-provider's
   * `tokenExchangeCallback`): change the props or the token's lifetime, or refuse by throwing.
   */
  tokenExchange?: OAuthAuthorizationServerOptions<Env>["tokenExchangeCallback"];
  /** Access token lifetime in seconds (default 3600). */
  accessTokenTTL?: number;
  /** Refresh token (grant) lifetime in seconds (default 30 days). */
  refreshTokenTTL?: number;
  /**
   * Client ID Metadata Documents (2026-07-28 "Client Registration"; SEP-991): a client_id that is
   * an https URL is fetched as the client's metadata. On by default; `false` turns it off. Needs
   * the `global_fetch_strictly_public` compatibility flag (without it the library advertises
   * `client_id_metadata_document_supported: false` and refuses such clients).
   */
  clientIdMetadataDocuments?: boolean | ClientIdMetadataOptions;
  /** RFC 7591 dynamic client registration at /oauth/register, for clients older than 2026-07-28 (default true). */
  dynamicRegistration?: boolean;
  /**
   * Enterprise-managed authorization: the token endpoint accepts ID-JAG assertions with the
   * jwt-bearer grant (RFC 7523). Passed unchanged to the library's `enterpriseManagedAuthorization`
   * (trusted issuers and a claims mapper are required there).
   */
  enterpriseManagedAuthorization?: EmaOptions<Env>;
}

export const AUTHORIZE_PATH = "/authorize";
export const TOKEN_PATH = "/oauth/token";
export const REGISTER_PATH = "/oauth/register";
const METADATA_PATH = "/.well-known/oauth-authorization-server";

export interface BuiltinAuthorizationServer<Env> {
  /** The provider itself, for `getOAuthApi(env)` (clients, grants, revocation) and `purgeExpiredData`. */
  provider: OAuthAuthorizationServer<Env>;
  /** Pass as `auth.verify`: checks the provider's opaque tokens for the configured resource. */
  verify: TokenVerifier<Env>;
  /** Answers the authorization server's own paths, or undefined for any other path. */
  fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> | undefined;
}

export function createAuthorizationServer<Env extends AuthorizationServerEnv>(
  options: AuthorizationServerOptions<Env>,
): BuiltinAuthorizationServer<Env> {
  const issuer = canonicalResource(options.issuer);
  const resource = canonicalResource(options.resource);
  if (!issuer || new URL(issuer).pathname !== "/")
    throw new TypeError("createAuthorizationServer: issuer must be an origin such as https://mcp.example.com");
  if (!resource) throw new TypeError("createAuthorizationServer: resource must be an absolute http(s) URI");
  const cimd = options.clientIdMetadataDocuments ?? true;
  const registration = options.dynamicRegistration ?? true;
  const upstream = options.upstream;
  const authorize = options.authorize;
  if (!authorize && !upstream)
    throw new TypeError("createAuthorizationServer: give authorize (your sign-in page) or upstream (defineUpstream(…))");
  const allowHosts = new Set((cimd === true || cimd === false ? [] : (cimd.insecureAllowHosts ?? [])).map((h) => h.toLowerCase()));
  const provider = buildProvider(options, issuer, resource);
  const owned = new Set([TOKEN_PATH, METADATA_PATH, ...(registration ? [REGISTER_PATH] : [])]);
  const site = { issuer };
  const serveAuthorize: AuthorizeHandler<Env> = authorize
    ? authorize
    : (request, env, oauth) => serveUpstreamAuthorize(upstream as Upstream<Env>, site, request, { env, oauth });
  // The SSRF guard runs before the library could fetch a client's metadata document.
  const guard = (request: Request, endpoint: "authorize" | "token") =>
    cimd === false ? Promise.resolve(undefined) : refuseUnsafeClientId(request, endpoint, allowHosts);

  const verify: TokenVerifier<Env> = async (token, { env }) => {
    const validated = await provider.validateToken<Record<string, unknown>>(resource, token, env);
    if (!validated) return null;
    const verified: VerifiedToken = {
      subject: validated.userId,
      scopes: validated.scope,
      audience: validated.audience,
      clientId: validated.clientId,
      expiresAt: validated.expiresAt,
      // The props your authorize page stored with the grant; the token itself stays here.
      claims: validated.props ?? {},
    };
    return verified;
  };

  return {
    provider,
    verify,
    fetch(request, env, ctx) {
      const path = new URL(request.url).pathname;
      if (path === AUTHORIZE_PATH)
        return guard(request, "authorize").then((refused) => refused ?? serveAuthorize(request, env, provider.getOAuthApi(env)));
      if (upstream && path === upstream.callbackPath && request.method === "GET")
        return serveUpstreamCallback(upstream, site, request, { env, oauth: provider.getOAuthApi(env) });
      if (path === TOKEN_PATH && request.method === "POST")
        // A revocation there also ends the revoked user's streams (revocation.ts).
        return guard(request, "token").then((refused) => refused ?? tokenEndpointEndingStreams(provider, request, env, ctx));
      if (owned.has(path)) return provider.fetch(request, env, ctx);
      return undefined;
    },
  };
}

/** The library's authorization server with this option set's endpoints, lifetimes and hooks. */
function buildProvider<Env>(options: AuthorizationServerOptions<Env>, issuer: string, resource: string): OAuthAuthorizationServer<Env> {
  const cimd = options.clientIdMetadataDocuments ?? true;
  return new OAuthAuthorizationServer<Env>({
    issuer,
    resources: [resource],
    authorizeEndpoint: AUTHORIZE_PATH,
    tokenEndpoint: TOKEN_PATH,
    ...((options.dynamicRegistration ?? true) ? { clientRegistrationEndpoint: REGISTER_PATH } : {}),
    scopesSupported: options.scopesSupported,
    accessTokenTTL: options.accessTokenTTL ?? 3600,
    refreshTokenTTL: options.refreshTokenTTL ?? 30 * 24 * 3600,
    clientIdMetadataDocumentEnabled: cimd !== false,
    ...(options.enterpriseManagedAuthorization ? { enterpriseManagedAuthorization: options.enterpriseManagedAuthorization } : {}),
    ...(options.tokenExchange ? { tokenExchangeCallback: options.tokenExchange } : {}),
  });
}

/** One Worker serving the authorization server's paths first and the MCP server for everything else. */
export function withAuthorizationServer<Env>(
  mcp: { fetch: (request: Request, env: Env, ctx: ExecutionContext) => Response | Promise<Response> },
  server: Pick<BuiltinAuthorizationServer<Env>, "fetch">,
): { fetch: (request: Request, env: Env, ctx: ExecutionContext) => Promise<Response> } {
  return {
    async fetch(request, env, ctx) {
      return (await server.fetch(request, env, ctx)) ?? mcp.fetch(request, env, ctx);
    },
  };
}
