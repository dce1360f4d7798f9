/**
 * Discovery documents (the Server Card extension, SEP-2127, docs/discovery.md): the Server Card at
 * `GET <endpoint>/server-card`, the AI Catalog at `/.well-known/ai-catalog.json` listing it, and the
 * MCP Registry's `/.well-known/mcp-registry-auth` key. The card is generated from the server
 * definition and the served versions, the very values `server/discover` answers with, so the two
 * cannot disagree. Public, read-only metadata: permissive CORS, Cache-Control, ETag / 304.
 * An endpoint naming route parameters (`/mcp/:tenant`) has a card per route (`/mcp/acme/server-card`
 * names `/mcp/acme`), and no catalog: one catalog entry cannot name every route.
 */
import { servedVersions } from "./era";
import type { EdgeEnv, EdgeRuntime } from "./runtime";
import type { DiscoveryOptions, ResolvedOptions } from "../kernel/options";
import type { McpServer } from "../mcp/definition/server";
import { refuse } from "../wire/refusals";
import { compileRoute } from "../wire/route-pattern";
import { NO_PARAMS, type RouteParams } from "../wire/route-params";

const SERVER_CARD_TYPE = "application/mcp-server-card+json";
const CATALOG_TYPE = "application/ai-catalog+json";
const CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
const CATALOG_PATH = "/.well-known/ai-catalog.json";
const REGISTRY_AUTH_PATH = "/.well-known/mcp-registry-auth";
// Server Card schema: `name` is reverse-DNS "namespace/name"; `description` and `title` 1-100 characters.
const CARD_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
// What `mcp-publisher` prints for HTTP domain verification, e.g. "v=MCPv1; k=ed25519; p=<base64 key>".
const REGISTRY_RECORD = /^v=MCPv1; k=[a-z0-9]{1,32}; p=[A-Za-z0-9+/]{16,2048}={0,2}$/;

interface ResolvedDiscovery {
  name: string;
  identifier: string | undefined;
  catalog: boolean;
  cacheControl: string;
  repository: DiscoveryOptions["repository"];
  registryAuth: string | undefined;
}

function resolveDiscovery(options: DiscoveryOptions, server: McpServer<unknown>): ResolvedDiscovery {
  const name = options.name ?? server.info.name;
  if (!CARD_NAME.test(name) || name.length < 3 || name.length > 200)
    throw new TypeError(
      `mcp-edge option discovery.name: the Server Card needs a reverse-DNS name such as "com.example/weather" (got "${name}")`,
    );
  const { description, title } = server.info;
  if (description === undefined || description.length === 0 || description.length > 100)
    throw new TypeError("mcp-edge option discovery: the Server Card needs the server's description (defineServer), 1-100 characters");
  if (title !== undefined && (title.length === 0 || title.length > 100))
    throw new TypeError("mcp-edge option discovery: the Server Card takes a title of 1-100 characters");
  const maxAge = options.maxAgeSeconds ?? 3600;
  if (!Number.isSafeInteger(maxAge) || maxAge < 0)
    throw new TypeError("mcp-edge option discovery.maxAgeSeconds must be a non-negative integer");
  if (options.registryAuth !== undefined && !REGISTRY_RECORD.test(options.registryAuth))
    throw new TypeError('mcp-edge option discovery.registryAuth must read "v=MCPv1; k=<algorithm>; p=<base64 public key>"');
  if (options.repository !== undefined && (typeof options.repository.url !== "string" || typeof options.repository.source !== "string"))
    throw new TypeError("mcp-edge option discovery.repository needs a url and a source (e.g. github)");
  return {
    name,
    identifier: options.identifier,
    catalog: options.catalog ?? true,
    cacheControl: `public, max-age=${maxAge}`,
    repository: options.repository,
    registryAuth: options.registryAuth,
  };
}

/** The card: identity from the server info, remotes and versions from the served endpoints (of the card's route). */
function serverCard(
  server: McpServer<unknown>,
  options: ResolvedOptions,
  discovery: ResolvedDiscovery,
  at: { origin: string; params: RouteParams },
): object {
  const { origin, params } = at;
  const { version, description, title, icons, websiteUrl } = server.info;
  const remotes: Record<string, unknown>[] = [
    { type: "streamable-http", url: origin + options.route.fill(params), supportedProtocolVersions: [...servedVersions(options)] },
  ];
  if (options.sessions && options.eras.era2025 && options.legacySsePath)
    remotes.push({ type: "sse", url: origin + options.legacySsePath, supportedProtocolVersions: ["2024-11-05"] });
  const card: Record<string, unknown> = { $schema: CARD_SCHEMA, name: discovery.name, version, description };
  if (title !== undefined) card.title = title;
  if (icons !== undefined) card.icons = icons;
  if (websiteUrl !== undefined) card.websiteUrl = websiteUrl;
  if (discovery.repository !== undefined) card.repository = discovery.repository;
  card.remotes = remotes;
  return card;
}

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type, If-None-Match",
  "Access-Control-Expose-Headers": "ETag",
};

/** RFC 9110 §13.1.2: If-None-Match compares weakly; "*" matches any current representation. */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const value = tag.trim();
    return value === "*" || value.replace(/^W\//, "") === etag;
  });
}

async function document(request: Request, body: string, type: string, cacheControl: string): Promise<Response> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body)));
  const etag = `"${[...digest.slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("")}"`;
  const headers: Record<string, string> = { ...CORS, "Cache-Control": cacheControl, ETag: etag, Vary: "Host" };
  if (matches(request.headers.get("If-None-Match"), etag)) return new Response(null, { status: 304, headers });
  headers["Content-Type"] = type;
  return new Response(request.method === "HEAD" ? null : body, { status: 200, headers });
}

export interface Discovery {
  /** Whether it answers this path (the card, and the catalog and registry key when on). */
  owns(pathname: string): boolean;
  serve(request: Request, pathname: string): Promise<Response>;
}

/** Discovery for one mounted server, or undefined when `discovery` is not set; throws at setup on a bad option. */
export function createDiscovery<Env extends EdgeEnv>(
  runtime: EdgeRuntime<Env>,
  options: DiscoveryOptions | undefined,
): Discovery | undefined {
  if (options === undefined) return undefined;
  const discovery = resolveDiscovery(options, runtime.server as McpServer<unknown>);
  const cardRoute = compileRoute("path", `${runtime.options.path.replace(/\/$/, "")}/server-card`);
  const cardPath = cardRoute.path;
  const routed = cardRoute.names.length > 0;
  if (routed && options.catalog === true)
    throw new TypeError("mcp-edge option discovery.catalog: a path with route parameters has a Server Card per route, and no catalog");
  const paths = new Set(routed ? [] : [cardPath]);
  if (discovery.catalog && !routed) paths.add(CATALOG_PATH);
  if (discovery.registryAuth) paths.add(REGISTRY_AUTH_PATH);
  return {
    owns(pathname) {
      return paths.has(pathname) || (routed && cardRoute.match(pathname) !== undefined);
    },
    async serve(request, pathname) {
      if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: { ...CORS, "Access-Control-Max-Age": "86400" } });
      if (request.method !== "GET" && request.method !== "HEAD")
        return refuse({ reason: "method-not-allowed", allow: "GET, HEAD, OPTIONS" });
      const origin = new URL(request.url).origin;
      if (pathname === REGISTRY_AUTH_PATH)
        return document(request, discovery.registryAuth ?? "", "text/plain; charset=utf-8", discovery.cacheControl);
      if (pathname === CATALOG_PATH) {
        const identifier = discovery.identifier ?? `urn:air:${new URL(request.url).hostname}:mcp:${discovery.name.split("/")[1]}`;
        const catalog = { specVersion: "1.0", entries: [{ identifier, type: SERVER_CARD_TYPE, url: origin + cardPath }] };
        return document(request, JSON.stringify(catalog), CATALOG_TYPE, discovery.cacheControl);
      }
      const params = routed ? (cardRoute.match(pathname) ?? NO_PARAMS) : NO_PARAMS;
      const card = serverCard(runtime.server as McpServer<unknown>, runtime.options, discovery, { origin, params });
      return document(request, JSON.stringify(card), SERVER_CARD_TYPE, discovery.cacheControl);
    },
  };
}
