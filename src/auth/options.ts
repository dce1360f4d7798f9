/**
 * Resource-server configuration (`createMcpEdge(server, { auth })`) and its resolved form:
 * the canonical resource URI, the protected resource metadata document (RFC 9728) built once,
 * its URL and the paths it is served at. Token verification itself is a pluggable function.
 */
import { canonicalResource, metadataPathFor, metadataUrlFor } from "./canonical";
import { compileRoute, type RoutePattern } from "../wire/route-pattern";
import { routeKey, type RouteParams } from "../wire/route-params";

const BARE_METADATA_PATH = "/.well-known/oauth-protected-resource";

/** What a verifier learns about the request: the resource the token must be for, and the bindings. */
export interface VerifyContext<Env = unknown> {
  /** This server's canonical URI (RFC 8707): a valid token's audience names it. */
  resource: string;
  env: Env;
  /** The request being authenticated (the runtime always passes it; a verifier called directly may get none). */
  request?: Request;
}

/** A token a verifier accepted. The runtime still checks `audience` and `expiresAt` itself. */
export interface VerifiedToken {
  subject: string;
  scopes: readonly string[];
  /** The token's audience (`aud`, or the introspection answer's); must name this resource. */
  audience: string | readonly string[];
  clientId?: string;
  /** Seconds since the epoch. */
  expiresAt?: number;
  /** Claims handlers may read (never the token itself). */
  claims: Record<string, unknown>;
}

/**
 * Checks a bearer token. Resolve null (or throw `TokenError`) for a token that is not valid
 * here: the client gets 401 invalid_token. Any other failure (the authorization server is
 * unreachable) is logged and answered 503, never 401, so clients do not discard good tokens.
 */
export type TokenVerifier<Env = unknown> = (token: string, context: VerifyContext<Env>) => Promise<VerifiedToken | null>;

/** Thrown by a verifier to refuse a token with a reason the client may see (401 invalid_token). */
export class TokenError extends Error {
  constructor(readonly description: string) {
    super(description);
    this.name = "TokenError";
  }
}

/** A proof's verdict; `nonce`: refuse with `use_dpop_nonce` and send this fresh `DPoP-Nonce` (RFC 9449 §9). */
export type DpopProofResult = { ok: true; jkt: string } | { ok: false; description: string; nonce?: string };

/** The resource server's DPoP check (`dpopVerifier()` from mcp-edge/oauth builds one). */
export interface DpopCheck {
  /** Checks the request's DPoP proof for `token`: the proof key's thumbprint, or why it is refused. */
  check(request: Request, token: string, env: unknown): Promise<DpopProofResult>;
  /** Accepted proof algorithms, named in the `DPoP` challenge (`algs`). */
  readonly algorithms: readonly string[];
  /** Plain Bearer tokens are refused. */
  readonly required: boolean;
}

export interface AuthOptions {
  /**
   * The canonical URI of this MCP server (RFC 8707 / RFC 9728 `resource`), e.g. "https://mcp.example.com/mcp".
   * With a `path` naming route parameters it may name them too ("https://mcp.example.com/mcp/:tenant"):
   * each route is then a resource of its own, with its own metadata URL and token audience
   * (docs/configuration.md "Routes").
   */
  resource: string;
  /** Issuer URLs of the authorization servers whose tokens are accepted (at least one). */
  authorizationServers: string[];
  /** Verifies bearer tokens: `jwtVerifier(...)`, `introspectionVerifier(...)`, the built-in server's, or your own. */
  // `never`: a verifier typed for any Env fits here (the runtime passes the Worker's env through).
  verify: TokenVerifier<never>;
  /** Scopes every request needs; named in 401 challenges and published as `scopes_supported` unless that is set. */
  requiredScopes?: string[];
  /** `scopes_supported` of the protected resource metadata (default: `requiredScopes`). */
  scopesSupported?: string[];
  /** Extra scopes per tool name, checked on `tools/call` (403 insufficient_scope). */
  toolScopes?: Record<string, string[]>;
  /** Extra scopes per resource URI (exact, or a prefix ending in "*"), checked on reads and subscriptions. */
  resourceScopes?: Record<string, string[]>;
  /** `resource_name` of the metadata document. */
  resourceName?: string;
  /** `resource_documentation` of the metadata document. */
  resourceDocumentation?: string;
  /**
   * DPoP (RFC 9449, SEP-1932): `dpopVerifier({...})`. Tokens bound to a key (`cnf.jkt`) are then
   * accepted only with `Authorization: DPoP` and a valid proof on every request.
   */
  dpop?: DpopCheck;
}

export interface ResolvedAuth {
  resource: string;
  verify: TokenVerifier<unknown>;
  requiredScopes: readonly string[];
  toolScopes: ReadonlyMap<string, readonly string[]>;
  resourceScopes: readonly { pattern: string; prefix: boolean; scopes: readonly string[] }[];
  /** Absolute URL of the metadata document, sent in every challenge. */
  metadataUrl: string;
  /** Paths the document is served at: the path-suffixed form (RFC 9728 §3.1) and the bare one. */
  metadataPaths: readonly string[];
  /** The document, serialised once. */
  metadataBody: string;
  dpop?: DpopCheck;
  /** A resource naming route parameters: its path's pattern (each route's resource fills it in, authForRoute). */
  resourceRoute?: RoutePattern;
  /** …and the pattern of its metadata path (`/.well-known/oauth-protected-resource/mcp/:tenant`). */
  metadataRoute?: RoutePattern;
}

function checkScopeList(name: string, scopes: unknown): string[] {
  if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === "string" && /^[\x21\x23-\x5B\x5D-\x7E]+$/.test(s))) {
    throw new TypeError(`mcp-edge option ${name} must be a list of scope tokens`);
  }
  return scopes as string[];
}

export function resolveAuth(o: AuthOptions): ResolvedAuth {
  const resource = canonicalResource(o.resource);
  if (!resource) throw new TypeError("mcp-edge option auth.resource must be an absolute http(s) URI without a fragment");
  const servers = o.authorizationServers ?? [];
  if (servers.length === 0) throw new TypeError("mcp-edge option auth.authorizationServers needs at least one issuer URL");
  for (const s of servers) {
    if (!canonicalResource(s)) throw new TypeError(`mcp-edge option auth.authorizationServers: "${s}" is not an absolute http(s) URL`);
  }
  if (typeof o.verify !== "function") throw new TypeError("mcp-edge option auth.verify must be a token verifier function");
  const requiredScopes = checkScopeList("auth.requiredScopes", o.requiredScopes ?? []);
  const toolScopes = new Map<string, readonly string[]>();
  for (const [tool, scopes] of Object.entries(o.toolScopes ?? {})) toolScopes.set(tool, checkScopeList(`auth.toolScopes.${tool}`, scopes));
  const resourceScopes = Object.entries(o.resourceScopes ?? {}).map(([pattern, scopes]) => {
    const prefix = pattern.endsWith("*");
    return {
      pattern: prefix ? pattern.slice(0, -1) : pattern,
      prefix,
      scopes: checkScopeList(`auth.resourceScopes["${pattern}"]`, scopes),
    };
  });
  return {
    resource,
    verify: o.verify as TokenVerifier<unknown>,
    requiredScopes,
    toolScopes,
    resourceScopes,
    ...metadataOf(o, resource, servers, requiredScopes),
    ...(o.dpop ? { dpop: o.dpop } : {}),
  };
}

/** The protected resource metadata document (RFC 9728 §2) and where it is served. */
function metadataOf(
  o: AuthOptions,
  resource: string,
  servers: string[],
  requiredScopes: string[],
): Pick<ResolvedAuth, "metadataUrl" | "metadataPaths" | "metadataBody" | "resourceRoute" | "metadataRoute"> {
  const scopesSupported = checkScopeList("auth.scopesSupported", o.scopesSupported ?? requiredScopes);
  const metadata: Record<string, unknown> = {
    resource,
    authorization_servers: servers,
    bearer_methods_supported: ["header"],
  };
  // 2026-07-28 authorization "Refresh tokens": offline_access is not a resource requirement, so it is never published.
  const published = withoutOfflineAccess(scopesSupported);
  if (published.length > 0) metadata.scopes_supported = published;
  if (o.resourceName !== undefined) metadata.resource_name = o.resourceName;
  if (o.resourceDocumentation !== undefined) metadata.resource_documentation = o.resourceDocumentation;
  if (o.dpop !== undefined) {
    if (typeof o.dpop?.check !== "function") throw new TypeError("mcp-edge option auth.dpop must be dpopVerifier(...)");
    // RFC 9449 §5.1 / RFC 9728 §2: the proof algorithms this resource accepts, and whether it accepts nothing else.
    metadata.dpop_signing_alg_values_supported = [...o.dpop.algorithms];
    if (o.dpop.required) metadata.dpop_bound_access_tokens_required = true;
  }
  const suffixed = metadataPathFor(resource);
  const found = { metadataUrl: metadataUrlFor(resource), metadataBody: JSON.stringify(metadata) };
  const resourceRoute = compileRoute("auth.resource", new URL(resource).pathname);
  // One resource per route: each route's document at its own path; no bare one (it could name only one of them).
  if (resourceRoute.names.length > 0)
    return { ...found, metadataPaths: [], resourceRoute, metadataRoute: compileRoute("auth.resource", suffixed) };
  return { ...found, metadataPaths: suffixed === BARE_METADATA_PATH ? [BARE_METADATA_PATH] : [suffixed, BARE_METADATA_PATH] };
}

/** Each route's auth, made once per route and kept (a bounded number of routes). */
const perRoute = new WeakMap<ResolvedAuth, Map<string, ResolvedAuth>>();
const MAX_ROUTES_KEPT = 1000;

/**
 * The auth of one route: for a resource naming route parameters, the resource with the route's
 * values filled in (the audience its tokens must name), its metadata URL, path and document;
 * for any other resource, `auth` itself.
 */
export function authForRoute(auth: ResolvedAuth, params: RouteParams): ResolvedAuth {
  const route = auth.resourceRoute;
  if (!route) return auth;
  let kept = perRoute.get(auth);
  if (!kept) {
    kept = new Map();
    perRoute.set(auth, kept);
  }
  const key = routeKey(params);
  const known = kept.get(key);
  if (known) return known;
  const template = new URL(auth.resource);
  const resource = template.origin + route.fill(params) + template.search;
  const document = { ...(JSON.parse(auth.metadataBody) as Record<string, unknown>), resource };
  const own: ResolvedAuth = {
    ...auth,
    resource,
    metadataUrl: metadataUrlFor(resource),
    metadataPaths: [metadataPathFor(resource)],
    metadataBody: JSON.stringify(document),
    resourceRoute: undefined,
    metadataRoute: undefined,
  };
  if (kept.size >= MAX_ROUTES_KEPT) kept.clear();
  kept.set(key, own);
  return own;
}

/** 2026-07-28 basic/authorization "Refresh tokens": a protected resource names no `offline_access` in metadata or challenges. */
export function withoutOfflineAccess(scopes: readonly string[]): string[] {
  return scopes.filter((scope) => scope !== "offline_access");
}
