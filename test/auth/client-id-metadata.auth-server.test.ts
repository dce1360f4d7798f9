// Client ID Metadata Documents (2026-07-28 basic/authorization "Client Registration", SEP-991) in
// the built-in authorization server, inside workerd: the demo Worker as wrangler.auth.toml
// configures it (global_fetch_strictly_public), its outbound fetches served by a second Worker
// (test/servers/auth-server/client-host.mjs). A client whose id is its document's URL signs in with no
// registration; a redirect URI the document does not list, a local or IP-literal host (SSRF)
// and an oversized document are refused.
import { createExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { createAuthorizationServer, type AuthorizationServerOptions } from "../../src/auth/index";
import { demoAuthorize } from "../../src/demo/consent";
import { ACCEPT_BOTH, initializeParams } from "../helpers/mcp";

const worker = (exports as unknown as { default: Fetcher }).default;
const ORIGIN = "http://127.0.0.1:8787";
const RESOURCE = `${ORIGIN}/mcp`;
const CLIENT_ID = "https://app.example.test/client.json";
const REDIRECT = "http://127.0.0.1:9/oauth/callback";
// PKCE (S256): RFC 7636 appendix B's verifier and its challenge.
const VERIFIER = "dBjftJeZ4CVP-mJ92ZS8ZDw6Wq5zV9yJ8W9f8rT0QFE";
const CHALLENGE = "k35XxJHzKzC-WLvsvHqXxTf_JFhvQQPvQLc9oItMkAk";

function call(path: string, init: RequestInit = {}): Promise<Response> {
  return worker.fetch(`${ORIGIN}${path}`, { redirect: "manual", ...init });
}

/** What the client-host Worker was asked for since the last reset (it counts every outbound fetch). */
async function fetchedUrls(): Promise<string[]> {
  return (await fetch("https://app.example.test/__fetched")).json();
}

function authorizeUrl(clientId: string, redirectUri = REDIRECT): string {
  const query = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: CHALLENGE,
    code_challenge_method: "S256",
    state: "st-1",
    scope: "mcp",
    resource: RESOURCE,
  });
  return `/authorize?${query}`;
}

async function s256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return btoa(String.fromCharCode(...new Uint8Array(digest)))
    .replace(/=+$/, "")
    .replace(/\+/g, "-")
    .replace(/\//g, "_");
}

/** Opens the consent page and approves it as the demo user; returns the page and the code. */
async function signIn(clientId: string): Promise<{ html: string; code: string; location: URL }> {
  const page = await call(authorizeUrl(clientId));
  const html = await page.text();
  expect(page.status, html).toBe(200);
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1] as string;
  const approved = await call(authorizeUrl(clientId), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body: new URLSearchParams({ handle, decision: "approve", scope: "mcp" }),
  });
  expect(approved.status).toBe(302);
  const location = new URL(approved.headers.get("Location") as string);
  return { html, code: location.searchParams.get("code") as string, location };
}

function tokenRequest(form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return call("/oauth/token", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form),
  });
}

beforeEach(async () => {
  await fetch("https://app.example.test/__reset");
});

describe("Client ID Metadata Documents in the built-in authorization server", () => {
  it("advertises client_id_metadata_document_supported: true, and still offers dynamic registration", async () => {
    const metadata = (await (await call("/.well-known/oauth-authorization-server")).json()) as Record<string, unknown>;
    expect(metadata.client_id_metadata_document_supported).toBe(true);
    expect(metadata.registration_endpoint).toBe(`${ORIGIN}/oauth/register`);
  });

  it("signs a client in by its document's URL alone: consent names it, the code becomes a token, the token opens /mcp", async () => {
    expect(CHALLENGE).toBe(await s256(VERIFIER));
    const { html, code, location } = await signIn(CLIENT_ID);
    expect(html).toContain("CIMD Test App");
    expect(html).toContain("app.example.test"); // CIMD clients are shown with the domain that published them
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(await fetchedUrls()).toContain(CLIENT_ID);

    const token = await tokenRequest({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: CLIENT_ID,
      code_verifier: VERIFIER,
      resource: RESOURCE,
    });
    const body = (await token.json()) as { access_token?: string };
    expect(token.status, JSON.stringify(body)).toBe(200);

    const mcp = await worker.fetch(`${RESOURCE}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, Authorization: `Bearer ${body.access_token}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams() }),
    });
    expect(mcp.status).toBe(200);
  });

  it("caches a document its Cache-Control lets it keep, and fetches one marked no-store every time", async () => {
    await call(authorizeUrl(CLIENT_ID));
    await call(authorizeUrl(CLIENT_ID));
    const uncached = "https://app.example.test/uncached.json";
    await call(authorizeUrl(uncached));
    await call(authorizeUrl(uncached));
    const fetched = await fetchedUrls();
    // (The library may look a client up more than once per request; no-store means every time.)
    expect(fetched.filter((u) => u === uncached).length).toBeGreaterThanOrEqual(2);
    // The earlier test already fetched client.json (max-age=300): both sign-ins here were served from the cache.
    expect(fetched.filter((u) => u === CLIENT_ID)).toHaveLength(0);
  });

  it("refuses a redirect URI the document does not list, without redirecting to it", async () => {
    const response = await call(authorizeUrl(CLIENT_ID, "http://127.0.0.1:9/elsewhere"));
    expect(response.status).toBe(400);
    expect(response.headers.get("Location")).toBeNull();
  });

  it("refuses a document whose client_id is not its own URL", async () => {
    const response = await call(authorizeUrl("https://app.example.test/other-id.json"));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("could not be verified");
  });

  it("refuses a document larger than the limit (5 KiB)", async () => {
    const response = await call(authorizeUrl("https://app.example.test/huge.json"));
    expect(response.status).toBe(400);
    expect(await fetchedUrls()).toEqual(["https://app.example.test/huge.json"]);
  });

  it.each([
    ["loopback IPv4", "https://127.0.0.1/client.json"],
    ["loopback IPv4, root path", "https://127.0.0.1/"],
    ["loopback IPv4, upper-case scheme", "HTTPS://127.0.0.1/client.json"],
    ["loopback IPv4, integer form", "https://2130706433/client.json"],
    ["private IPv4", "https://10.0.0.7/client.json"],
    ["link-local metadata address", "https://169.254.169.254/latest/meta-data"],
    ["IPv6 literal", "https://[::1]/client.json"],
    ["localhost", "https://localhost/client.json"],
    ["a name under localhost", "https://app.localhost/client.json"],
    ["a single-label name", "https://intranet-box/client.json"],
    [".internal", "https://metadata.google.internal/computeMetadata/v1/"],
    [".local", "https://printer.local/client.json"],
  ])("refuses a client_id on a %s host before fetching anything (SSRF)", async (_what, clientId) => {
    const response = await call(authorizeUrl(clientId));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "invalid_client" });
    expect(await fetchedUrls()).toEqual([]);
  });

  it("refuses such a client_id at the token endpoint too (form, and a client assertion's iss)", async () => {
    const form = await tokenRequest({ grant_type: "authorization_code", code: "x", client_id: "https://10.1.2.3/c.json" });
    expect(form.status).toBe(401);
    expect(await form.json()).toMatchObject({ error: "invalid_client" });
    const b64 = (v: unknown) => btoa(JSON.stringify(v)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
    const assertion = `${b64({ alg: "ES256" })}.${b64({ iss: "https://localhost/c.json", sub: "https://localhost/c.json" })}.sig`;
    const asserted = await tokenRequest({
      grant_type: "authorization_code",
      code: "x",
      client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
      client_assertion: assertion,
    });
    expect(asserted.status).toBe(401);
    expect(await fetchedUrls()).toEqual([]);
  });
});

describe("the options around client registration", () => {
  type Env = { OAUTH_KV: KVNamespace };
  const server = (options: Partial<AuthorizationServerOptions<Env>>) => {
    const built = createAuthorizationServer<Env>({ issuer: ORIGIN, resource: RESOURCE, authorize: demoAuthorize, ...options });
    return async (path: string, init?: RequestInit) =>
      (await built.fetch(new Request(`${ORIGIN}${path}`, init), env as unknown as Env, createExecutionContext())) as Response;
  };

  it("dynamicRegistration: false leaves /oauth/register out of the metadata and does not serve it", async () => {
    const fetch = server({ dynamicRegistration: false });
    const metadata = (await (await fetch("/.well-known/oauth-authorization-server")).json()) as Record<string, unknown>;
    expect(metadata.registration_endpoint).toBeUndefined();
    expect(metadata.client_id_metadata_document_supported).toBe(true);
    // Not the authorization server's path any more: the MCP server's router answers it (404).
    expect(await fetch("/oauth/register", { method: "POST" })).toBeUndefined();
  });

  it("clientIdMetadataDocuments: false advertises no support and fetches nothing", async () => {
    const fetch = server({ clientIdMetadataDocuments: false });
    const metadata = (await (await fetch("/.well-known/oauth-authorization-server")).json()) as Record<string, unknown>;
    expect(metadata.client_id_metadata_document_supported).toBe(false);
    const response = await fetch(authorizeUrl(CLIENT_ID));
    expect(response.status).toBe(400);
    expect(await fetchedUrls()).toEqual([]);
  });

  it("insecureAllowHosts lets a named local host through the guard (for local tests), and only that one", async () => {
    const fetch = server({ clientIdMetadataDocuments: { insecureAllowHosts: ["app.localhost"] } });
    const allowed = await fetch(authorizeUrl("https://app.localhost/client.json"));
    expect(allowed.status).toBe(200);
    expect(await fetchedUrls()).toContain("https://app.localhost/client.json");
    const other = await fetch(authorizeUrl("https://other.localhost/client.json"));
    expect(await other.json()).toMatchObject({ error: "invalid_client" });
  });
});
