/**
 * `auth(options)` (the subpath `mcp-edge/auth`): the OAuth 2.1 resource server as a feature
 * (2025-06-18 and later "Authorization", docs/auth.md). Every request to an endpoint needs a valid
 * access token for this resource: the gate runs in the Worker before any MCP work, checks each
 * operation's scopes before it runs, and answers a handler's challenge; the protected resource
 * metadata (RFC 9728) is served beside the endpoint. Verifiers, DPoP and the built-in authorization
 * server come from `mcp-edge/oauth`. A Worker without `auth()` bundles none of it.
 */
import { metadataResponse } from "../../auth/authenticate";
import { authForRoute, resolveAuth, type AuthOptions, type ResolvedAuth } from "../../auth/options";
import type { Feature, FeatureRoutes } from "../../kernel/feature";
import type { ResolvedOptions } from "../../kernel/options";
import type { RoutePattern } from "../../wire/route-pattern";
import { gateOf } from "./gate";

export type { AuthOptions };

/**
 * A resource naming route parameters is one resource per route, so every endpoint must name exactly
 * those parameters: checked against the edge's endpoints when createMcpEdge runs.
 */
function checkRoutes(auth: ResolvedAuth, options: ResolvedOptions): void {
  const names = auth.resourceRoute?.names;
  if (names === undefined) return;
  const same = (r: RoutePattern) => r.names.length === names.length && r.names.every((n) => names.includes(n));
  for (const [option, route] of [
    ["path", options.route],
    ["statelessPath", options.statelessRoute],
  ] as const) {
    if (route && !same(route))
      throw new TypeError(`mcp-edge option ${option} "${route.path}" must name the parameters of auth.resource: :${names.join(", :")}`);
  }
}

/** Answers the metadata document's paths: GET (and HEAD) the document, OPTIONS a preflight, 405 for the rest. */
function answer(request: Request, document: () => Response): Response {
  const headers = new Headers({ "Access-Control-Allow-Origin": "*" });
  if (request.method === "GET" || request.method === "HEAD") {
    const response = document();
    for (const [name, value] of response.headers) headers.set(name, value);
    return new Response(request.method === "HEAD" ? null : response.body, { status: response.status, headers });
  }
  if (request.method === "OPTIONS") {
    headers.set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS");
    headers.set("Access-Control-Max-Age", "86400");
    return new Response(null, { status: 204, headers });
  }
  headers.set("Allow", "GET, HEAD, OPTIONS");
  return new Response(null, { status: 405, headers });
}

/**
 * RFC 9728 §3: the protected resource metadata, at the path-suffixed and the bare well-known URL; for
 * a resource naming route parameters, at each route's path-suffixed URL, naming that route's resource.
 */
function metadataRoutes(auth: ResolvedAuth): FeatureRoutes {
  const route = auth.metadataRoute;
  return {
    owns(pathname) {
      return auth.metadataPaths.includes(pathname) || route?.match(pathname) !== undefined;
    },
    async serve(request, pathname) {
      if (auth.metadataPaths.includes(pathname)) return answer(request, () => metadataResponse(auth));
      const params = route?.match(pathname);
      if (!params) return new Response(null, { status: 404 });
      return answer(request, () => metadataResponse(authForRoute(auth, params)));
    },
  };
}

/**
 * The OAuth 2.1 resource server: `features: [sessions(), auth({ resource, authorizationServers, verify })]`.
 * A bad option is a TypeError here; a resource whose route parameters the endpoint does not name, when
 * createMcpEdge runs.
 */
export function auth<Env = unknown>(options: AuthOptions): Feature<Env> {
  const resolved = resolveAuth(options);
  return {
    name: "auth",
    seams: {
      gate(edgeOptions) {
        checkRoutes(resolved, edgeOptions);
        return gateOf(resolved);
      },
    },
    routes: () => metadataRoutes(resolved),
  };
}
