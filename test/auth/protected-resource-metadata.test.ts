/**
 * RFC 9728 protected resource metadata: served at the path-suffixed and the bare well-known URL
 * without a token, naming the canonical resource, its authorization servers, the scopes and the
 * header as the only bearer method. Without `auth` nothing of this exists.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { resolveAuth } from "../../src/auth/options";
import { authOptions, edgeFetch, ISSUER, jwksOf, METADATA_URL, ORIGIN, RESOURCE, signingKey, type Fetch } from "./fixtures";

let fetch: Fetch;

beforeAll(async () => {
  const key = await signingKey("k1");
  fetch = edgeFetch({ auth: authOptions(jwksOf(key), { scopesSupported: ["mcp", "mcp:admin"], resourceName: "Demo" }) });
});

describe("protected resource metadata", () => {
  it("serves the document at the path-suffixed well-known URL", async () => {
    const res = await fetch(`${ORIGIN}/.well-known/oauth-protected-resource/mcp`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/json");
    expect(await res.json()).toEqual({
      resource: RESOURCE,
      authorization_servers: [ISSUER],
      bearer_methods_supported: ["header"],
      scopes_supported: ["mcp", "mcp:admin"],
      resource_name: "Demo",
    });
  });

  it("serves the same document at the bare well-known URL", async () => {
    const suffixed = await (await fetch(`${ORIGIN}/.well-known/oauth-protected-resource/mcp`)).json();
    const res = await fetch(`${ORIGIN}/.well-known/oauth-protected-resource`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(suffixed);
  });

  it("publishes the required scopes as scopes_supported when none are given", async () => {
    const key = await signingKey("k1");
    const res = await edgeFetch({ auth: authOptions(jwksOf(key), { requiredScopes: ["mcp:read"] }) })(
      `${ORIGIN}/.well-known/oauth-protected-resource/mcp`,
    );
    expect(((await res.json()) as Record<string, unknown>).scopes_supported).toEqual(["mcp:read"]);
  });

  it("publishes the canonical resource: lower-case scheme and host, no trailing slash", async () => {
    const key = await signingKey("k1");
    const upper = edgeFetch({ auth: authOptions(jwksOf(key), { resource: "HTTPS://MCP.Example.COM/mcp/" }) });
    const body = (await (await upper(`${ORIGIN}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    expect(body.resource).toBe(RESOURCE);
  });

  it("names the document's URL in every challenge", () => {
    const key = { keys: [] };
    expect(resolveAuth(authOptions(key)).metadataUrl).toBe(METADATA_URL);
    expect(resolveAuth(authOptions(key, { resource: "https://mcp.example.com" })).metadataUrl).toBe(
      "https://mcp.example.com/.well-known/oauth-protected-resource",
    );
  });

  it("refuses a resource that is not an absolute http(s) URI, or has a fragment", () => {
    for (const resource of ["mcp.example.com", "https://mcp.example.com/mcp#frag", "ftp://mcp.example.com"]) {
      expect(() => resolveAuth(authOptions({ keys: [] }, { resource }))).toThrow(TypeError);
    }
  });

  it("refuses a configuration without an authorization server", () => {
    expect(() => resolveAuth(authOptions({ keys: [] }, { authorizationServers: [] }))).toThrow(/at least one/);
  });

  it("is public: any page may read it (CORS *), preflight included, and HEAD answers; other methods get 405", async () => {
    const url = `${ORIGIN}/.well-known/oauth-protected-resource/mcp`;
    const read = await fetch(url, { headers: { Origin: "https://inspector.example" } });
    expect(read.status).toBe(200);
    expect(read.headers.get("Access-Control-Allow-Origin")).toBe("*");
    const preflight = await fetch(url, {
      method: "OPTIONS",
      headers: { Origin: "https://inspector.example", "Access-Control-Request-Method": "GET" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Methods")).toContain("GET");
    const head = await fetch(url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const post = await fetch(url, { method: "POST", body: "{}" });
    expect(post.status).toBe(405);
    expect(post.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
  });

  it("still checks the Host header (DNS rebinding)", async () => {
    const res = await fetch(`${ORIGIN}/.well-known/oauth-protected-resource/mcp`, { headers: { Host: "evil.example" } });
    expect(res.status).toBe(403);
  });

  it("does not exist when auth is not configured", async () => {
    const res = await edgeFetch({})(`${ORIGIN}/.well-known/oauth-protected-resource/mcp`);
    expect(res.status).toBe(404);
  });
});
