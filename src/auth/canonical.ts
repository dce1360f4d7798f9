/**
 * Canonical server URIs (2025-06-18 Authorization > Canonical Server URI, RFC 8707 §2): lower-case
 * scheme and host (the URL parser does that), no default port, no fragment, and no trailing
 * slash. Audience checks compare canonical forms, so `HTTPS://MCP.Example.com/mcp/` names the
 * same resource as `https://mcp.example.com/mcp`; the path stays case-sensitive.
 */

const WELL_KNOWN = "/.well-known/oauth-protected-resource";

/** The canonical form of an absolute http(s) URI, or undefined when it is not one (or has a fragment or userinfo). */
export function canonicalResource(uri: string): string | undefined {
  if (typeof uri !== "string" || uri.includes("#")) return undefined;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username !== "" || url.password !== "") return undefined;
  const path = url.pathname.endsWith("/") ? url.pathname.slice(0, -1) : url.pathname;
  return url.origin + path + url.search;
}

/** Whether a token audience (one value or a list) names `resource`, which must already be canonical. */
export function audienceMatches(audience: unknown, resource: string): boolean {
  const values = typeof audience === "string" ? [audience] : Array.isArray(audience) ? audience : [];
  return values.some((a) => typeof a === "string" && canonicalResource(a) === resource);
}

/** RFC 9728 §3.1: the well-known segment goes between the host and the resource's path. */
export function metadataPathFor(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === "/" ? "" : url.pathname;
  return WELL_KNOWN + path;
}

export function metadataUrlFor(resource: string): string {
  return new URL(resource).origin + metadataPathFor(resource);
}
