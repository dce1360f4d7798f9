// The whole OAuth flow end to end: the official SDK client's OAuth support against the demo
// protected by the built-in authorization server (wrangler.auth.toml, `npm run dev:auth`).
// 401 → protected resource metadata → authorization server metadata → dynamic registration →
// authorization code with PKCE and `resource` (the consent page approved programmatically) →
// token → MCP calls, in the Worker and in the session object; then refresh-token rotation.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { findFreePort } from "../../../scripts/worker-server.mjs";
import { firstText } from "../helpers/results";
import { useWorker } from "../helpers/server";

const port = await findFreePort();
const ORIGIN = `http://127.0.0.1:${port}`;
const RESOURCE = `${ORIGIN}/mcp`;
const REDIRECT = "http://127.0.0.1:9/oauth/callback"; // never listened on: the test reads the redirect itself
const STATE = "e2e-state-1";

useWorker({ port, configPath: "wrangler.auth.toml", vars: { MCP_PUBLIC_URL: ORIGIN } });

/** An OAuthClientProvider with in-memory storage; "redirecting" records the authorization URL. */
class MemoryOAuthProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier: string | undefined;
  authorizationUrl: URL | undefined;

  get redirectUrl(): string {
    return REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "mcp-edge e2e",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }

  state(): string {
    return STATE;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.client;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.client = info;
  }

  tokens(): OAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error("no code verifier saved");
    return this.verifier;
  }
}

/** Every request the SDK made, in order (method, path, status). */
interface Seen {
  method: string;
  path: string;
  status: number;
  body?: string;
}

function recordingFetch(seen: Seen[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = request.method === "POST" ? await request.clone().text() : undefined;
    const response = await fetch(request);
    seen.push({ method: request.method, path: new URL(request.url).pathname, status: response.status, body });
    return response;
  };
}

/** The user's part, automated: open the consent page, approve it, return the code from the redirect. */
async function approveConsent(authorizationUrl: URL, user?: string): Promise<{ code: string; location: URL }> {
  const page = await fetch(authorizationUrl, { redirect: "manual" });
  expect(page.status).toBe(200);
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const html = await page.text();
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1];
  expect(handle).toBeDefined();
  expect(html).toContain('name="user" value="demo-user"');
  const form = new URLSearchParams({ handle: handle as string, decision: "approve" });
  if (user !== undefined) form.set("user", user);
  for (const [, scope] of html.matchAll(/name="scope" value="([^"]+)" checked/g)) form.append("scope", scope as string);
  const approved = await fetch(authorizationUrl, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body: form,
    redirect: "manual",
  });
  expect(approved.status).toBe(302);
  const location = new URL(approved.headers.get("Location") ?? "");
  const code = location.searchParams.get("code");
  expect(code).toBeTruthy();
  return { code: code as string, location };
}

const clients: Client[] = [];

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
});

async function connect(
  provider: MemoryOAuthProvider,
  seen: Seen[] = [],
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(RESOURCE), { authProvider: provider, fetch: recordingFetch(seen) });
  const client = new Client({ name: "mcp-edge-e2e-oauth", version: "1.0.0" });
  clients.push(client);
  await client.connect(transport);
  return { client, transport };
}

describe("the SDK client's OAuth flow against the built-in authorization server", () => {
  const provider = new MemoryOAuthProvider();
  const seen: Seen[] = [];
  let redirect: URL;

  beforeAll(async () => {
    // First attempt: no token, so the SDK discovers, registers, and "redirects" the user.
    const transport = new StreamableHTTPClientTransport(new URL(RESOURCE), { authProvider: provider, fetch: recordingFetch(seen) });
    const client = new Client({ name: "mcp-edge-e2e-oauth", version: "1.0.0" });
    await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl).toBeDefined();
    const { code, location } = await approveConsent(provider.authorizationUrl as URL);
    redirect = location;
    await transport.finishAuth(code);
    await client.close();
  });

  it("discovers the authorization server from the 401, the resource metadata and the server metadata", () => {
    const steps = seen.map((s) => `${s.method} ${s.path} ${s.status}`);
    expect(steps.slice(0, 4)).toEqual([
      "POST /mcp 401",
      "GET /.well-known/oauth-protected-resource/mcp 200",
      "GET /.well-known/oauth-authorization-server 200",
      "POST /oauth/register 201",
    ]);
    expect(provider.client?.client_id).toEqual(expect.any(String));
  });

  it("asks for the code with PKCE (S256), the canonical resource, the scope and state", () => {
    const url = provider.authorizationUrl as URL;
    expect(`${url.origin}${url.pathname}`).toBe(`${ORIGIN}/authorize`);
    expect(url.searchParams.get("resource")).toBe(RESOURCE);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("scope")).toBe("mcp");
    expect(url.searchParams.get("state")).toBe(STATE);
  });

  it("redirects back with the code, the state and the issuer (RFC 9207)", () => {
    expect(`${redirect.origin}${redirect.pathname}`).toBe(REDIRECT);
    expect(redirect.searchParams.get("state")).toBe(STATE);
    expect(redirect.searchParams.get("iss")).toBe(ORIGIN);
  });

  it("exchanges the code with its verifier and the resource for an access and a refresh token", () => {
    const token = seen.find((s) => s.path === "/oauth/token");
    expect(token?.status).toBe(200);
    const form = new URLSearchParams(token?.body ?? "");
    expect(form.get("grant_type")).toBe("authorization_code");
    expect(form.get("code_verifier")).toBe(provider.verifier);
    expect(form.get("resource")).toBe(RESOURCE);
    expect(provider.saved?.access_token).toEqual(expect.any(String));
    expect(provider.saved?.refresh_token).toEqual(expect.any(String));
    expect(provider.saved?.token_type.toLowerCase()).toBe("bearer");
  });

  it("then talks MCP with the token: lists tools and calls one in the Worker", async () => {
    const { client } = await connect(provider);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("whoami");
    const result = await client.callTool({ name: "echo", arguments: { text: "authorized" } });
    expect(firstText(result)).toBe("authorized");
  });

  it("shows handlers the demo user, never the token, in the Worker and in the session object", async () => {
    const { client } = await connect(provider);
    const worker = JSON.parse(firstText(await client.callTool({ name: "whoami", arguments: {} })) ?? "{}") as Record<string, unknown>;
    const object = JSON.parse(firstText(await client.callTool({ name: "whoami_interactive", arguments: {} })) ?? "{}") as Record<
      string,
      unknown
    >;
    for (const seenBy of [worker, object]) {
      expect(seenBy).toMatchObject({
        principal: { subject: "demo-user", scopes: ["mcp"], claims: { userId: "demo-user" } },
        sessionSubject: "demo-user",
      });
      expect((seenBy.principal as { clientId?: string }).clientId).toBe(provider.client?.client_id);
      expect(JSON.stringify(seenBy)).not.toContain(provider.saved?.access_token ?? "--");
    }
  });

  it("answers 401 with invalid_token to a made-up token on the same session", async () => {
    const { transport } = await connect(provider);
    const bogus = await fetch(RESOURCE, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        Authorization: "Bearer made-up",
        "Mcp-Session-Id": transport.sessionId ?? "",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(bogus.status).toBe(401);
    expect(bogus.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
  });

  it("signs in as the user name typed on the consent page: a second principal on the same server", async () => {
    const second = new MemoryOAuthProvider();
    const transport = new StreamableHTTPClientTransport(new URL(RESOURCE), { authProvider: second });
    await expect(new Client({ name: "second", version: "1.0.0" }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const { code } = await approveConsent(second.authorizationUrl as URL, "alice");
    await transport.finishAuth(code);
    const { client } = await connect(second);
    const seenBy = JSON.parse(firstText(await client.callTool({ name: "whoami", arguments: {} })) ?? "{}") as Record<string, unknown>;
    expect(seenBy).toMatchObject({ principal: { subject: "alice", claims: { userId: "alice" } }, sessionSubject: "alice" });
  });

  it("rotates the refresh token: the new one works once, the old one is refused after it", async () => {
    const first = provider.saved?.refresh_token as string;
    const clientId = provider.client?.client_id as string;
    const refresh = (token: string) =>
      fetch(`${ORIGIN}/oauth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token, client_id: clientId, resource: RESOURCE }),
      });
    const rotated = await refresh(first);
    expect(rotated.status).toBe(200);
    const tokens = (await rotated.json()) as OAuthTokens;
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(tokens.refresh_token).not.toBe(first);
    // The new access token is accepted by the MCP server.
    provider.saveTokens(tokens);
    const { client } = await connect(provider);
    expect(firstText(await client.callTool({ name: "echo", arguments: { text: "refreshed" } }))).toBe("refreshed");
    // Using the new refresh token retires the old one.
    const again = await refresh(tokens.refresh_token as string);
    expect(again.status).toBe(200);
    provider.saveTokens((await again.json()) as OAuthTokens);
    const replay = await refresh(first);
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: string }).error).toBe("invalid_grant");
  });
});
