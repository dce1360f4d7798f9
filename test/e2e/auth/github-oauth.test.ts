// Upstream sign-in end to end (issue 43): examples/github-oauth (test/servers/github-oauth/wrangler.jsonc)
// under wrangler dev, a local fake GitHub (fake-github.mjs) and the official SDK client. The
// client signs in through the built-in authorization server's consent page and GitHub's, calls a
// tool that calls GitHub's API with the user's token; an expired token is refreshed once for 20
// concurrent calls (the fake counts refresh requests); a revoked grant makes the client sign in
// again and succeed. The hostile inputs (a forged or replayed state, a used code, an HTML error
// page from GitHub, a token asked for another resource) are refused with pages that leak nothing.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { findFreePort } from "../../../scripts/worker-server.mjs";
import { firstText } from "../helpers/results";
import { useWorker } from "../helpers/server";
import { startFakeGitHub } from "./fake-github.mjs";

const APP = { clientId: "Iv1.e2e-client", clientSecret: "e2e-client-secret" };
const fake = await startFakeGitHub(APP);
const port = await findFreePort();
const ORIGIN = `http://127.0.0.1:${port}`;
const RESOURCE = `${ORIGIN}/mcp`;
const REDIRECT = "http://127.0.0.1:9/oauth/callback"; // never listened on: the test reads the redirect itself

useWorker({
  port,
  configPath: "test/servers/github-oauth/wrangler.jsonc",
  vars: {
    MCP_PUBLIC_URL: ORIGIN,
    GITHUB_URL: fake.url,
    GITHUB_API_URL: fake.url,
    GITHUB_CLIENT_ID: APP.clientId,
    GITHUB_CLIENT_SECRET: APP.clientSecret,
    MCP_UPSTREAM_SECRET: "e2e-sealing-secret-0123456789abcdef0123456789",
  },
});

afterAll(() => fake.stop());

class MemoryOAuthProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier: string | undefined;
  authorizationUrl: URL | undefined;
  readonly redirectUrl = REDIRECT;
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: "mcp-edge e2e github",
    redirect_uris: [REDIRECT],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
  state = () => "client-state";
  clientInformation = () => this.client;
  saveClientInformation = (info: OAuthClientInformationMixed) => {
    this.client = info;
  };
  tokens = () => this.saved;
  saveTokens = (tokens: OAuthTokens) => {
    this.saved = tokens;
  };
  redirectToAuthorization = (url: URL) => {
    this.authorizationUrl = url;
  };
  saveCodeVerifier = (verifier: string) => {
    this.verifier = verifier;
  };
  // The SDK calls this when the server refuses the refresh token (invalid_grant), then signs in anew.
  invalidateCredentials = (scope: "all" | "client" | "tokens" | "verifier") => {
    if (scope === "all" || scope === "tokens") this.saved = undefined;
    if (scope === "all" || scope === "client") this.client = undefined;
  };
  codeVerifier = () => {
    if (!this.verifier) throw new Error("no code verifier saved");
    return this.verifier;
  };
}

const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

/** The browser's part up to GitHub's redirect back: consent page, approve, GitHub approves; the callback URL and cookies. */
async function throughGitHub(authorizationUrl: URL): Promise<{ callback: URL; cookie: string }> {
  const page = await fetch(authorizationUrl, { redirect: "manual" });
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain("GitHub");
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1] as string;
  const approved = await fetch(authorizationUrl, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookiesOf(page) },
    body: new URLSearchParams({ handle, decision: "approve" }),
    redirect: "manual",
  });
  expect(approved.status).toBe(302);
  const atGitHub = new URL(approved.headers.get("Location") ?? "");
  expect(`${atGitHub.origin}${atGitHub.pathname}`).toBe(`${fake.url}/login/oauth/authorize`);
  expect(atGitHub.searchParams.get("code_challenge_method")).toBe("S256");
  const back = await fetch(atGitHub, { redirect: "manual" });
  return { callback: new URL(back.headers.get("Location") ?? ""), cookie: cookiesOf(approved) };
}

/** The callback, then the MCP client's code from the redirect to it. */
async function finishAtCallback(callback: URL, cookie: string): Promise<string> {
  const done = await fetch(callback, { headers: { Cookie: cookie }, redirect: "manual" });
  expect(done.status).toBe(302);
  const code = new URL(done.headers.get("Location") ?? "").searchParams.get("code");
  expect(code).toBeTruthy();
  return code as string;
}

/** Signs `provider` in (or again), the whole way: the SDK's 401 handling, both consent pages, finishAuth. */
async function signIn(provider: MemoryOAuthProvider, attempt: () => Promise<unknown>): Promise<void> {
  await expect(attempt()).rejects.toBeInstanceOf(UnauthorizedError);
  const transport = new StreamableHTTPClientTransport(new URL(RESOURCE), { authProvider: provider });
  const { callback, cookie } = await throughGitHub(provider.authorizationUrl as URL);
  await transport.finishAuth(await finishAtCallback(callback, cookie));
}

const clients: Client[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
});

async function connect(provider: MemoryOAuthProvider): Promise<Client> {
  const client = new Client({ name: "mcp-edge-e2e-github", version: "1.0.0" });
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(RESOURCE), { authProvider: provider }));
  return client;
}

const userInfo = (client: Client) => client.callTool({ name: "user_info", arguments: {} });

describe("upstream sign-in at GitHub through the built-in authorization server", () => {
  const provider = new MemoryOAuthProvider();

  beforeAll(async () => {
    await signIn(provider, () => connect(provider));
  });

  it("calls GitHub's API as the signed-in user, and shows handlers GitHub's login as the principal", async () => {
    const client = await connect(provider);
    expect(JSON.parse(firstText(await userInfo(client)) ?? "{}")).toEqual({ login: "octocat", name: "The Octocat" });
    expect(firstText(await client.callTool({ name: "generate_greeting", arguments: {} }))).toBe("Hello, octocat!");
    expect(fake.refreshes).toBe(0);
  });

  it("refreshes a token GitHub stopped accepting once for 20 concurrent calls", async () => {
    const client = await connect(provider);
    fake.expireAccessTokens();
    const before = fake.refreshes;
    const results = await Promise.all(Array.from({ length: 20 }, () => userInfo(client)));
    for (const result of results) expect(firstText(result)).toContain('"login":"octocat"');
    expect(fake.refreshes - before).toBe(1);
  });

  it("refreshes a token about to expire before using it, once for 20 concurrent calls", async () => {
    const client = await connect(provider);
    // The next token lives 30 s, inside the 60 s refresh margin: stored, it counts as expiring.
    fake.setAccessTtl(30);
    fake.expireAccessTokens();
    expect(firstText(await userInfo(client))).toContain("octocat");
    fake.setAccessTtl(3600);
    const before = fake.refreshes;
    const results = await Promise.all(Array.from({ length: 20 }, () => userInfo(client)));
    for (const result of results) expect(firstText(result)).toContain('"login":"octocat"');
    expect(fake.refreshes - before).toBe(1);
  });

  it("makes the client sign in again when the GitHub grant is revoked, and then succeeds", async () => {
    const client = await connect(provider);
    fake.revokeAll();
    const stale = provider.saved?.access_token as string;
    // The call that finds the grant dead is answered 401 invalid_token: the SDK tries its refresh
    // token (refused: the server revoked the client's grant too) and asks for a new sign-in.
    await expect(userInfo(client)).rejects.toBeInstanceOf(UnauthorizedError);
    // Its next request is 401 too, with the challenge.
    const refused = await fetch(RESOURCE, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", Authorization: `Bearer ${stale}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
    await signIn(provider, () => userInfo(client));
    const again = await connect(provider);
    expect(firstText(await userInfo(again))).toContain('"login":"octocat"');
  });
});

describe("hostile input at the sign-in pages", () => {
  const provider = new MemoryOAuthProvider();
  let authorizationUrl: URL;

  beforeAll(async () => {
    const transport = new StreamableHTTPClientTransport(new URL(RESOURCE), { authProvider: provider });
    await expect(new Client({ name: "hostile", version: "1.0.0" }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    authorizationUrl = provider.authorizationUrl as URL;
  });

  it("refuses a callback whose state it never issued", async () => {
    const { callback, cookie } = await throughGitHub(authorizationUrl);
    callback.searchParams.set("state", "forged-state");
    const refused = await fetch(callback, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Start again from your MCP client");
  });

  it("refuses a callback replayed after it was used, and a state without its browser's cookie", async () => {
    const { callback, cookie } = await throughGitHub(authorizationUrl);
    const other = await throughGitHub(authorizationUrl);
    expect((await fetch(other.callback, { redirect: "manual" })).status).toBe(400);
    await finishAtCallback(callback, cookie);
    const replayed = await fetch(callback, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(replayed.status).toBe(400);
  });

  it("refuses a code GitHub already exchanged, naming GitHub's refusal only by its code", async () => {
    const first = await throughGitHub(authorizationUrl);
    await finishAtCallback(first.callback, first.cookie);
    const second = await throughGitHub(authorizationUrl);
    second.callback.searchParams.set("code", first.callback.searchParams.get("code") as string);
    const refused = await fetch(second.callback, { headers: { Cookie: second.cookie }, redirect: "manual" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("GitHub refused the sign-in (bad_verification_code)");
  });

  it("answers 502 when GitHub's token endpoint sends an HTML error page, without repeating it", async () => {
    const { callback, cookie } = await throughGitHub(authorizationUrl);
    fake.failNextTokenRequest();
    const failed = await fetch(callback, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(failed.status).toBe(502);
    const body = await failed.text();
    expect(body).toContain("HTTP 500 without JSON");
    expect(body).not.toContain("secret-internal-detail");
  });

  it("sends a request for another resource back to the client with an error, and no code", async () => {
    const foreign = new URL(authorizationUrl);
    foreign.searchParams.set("resource", "http://127.0.0.1:1/other");
    const refused = await fetch(foreign, { redirect: "manual" });
    expect(refused.status).toBe(302);
    const back = new URL(refused.headers.get("Location") ?? "");
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get("error")).toBe("invalid_target");
    expect(back.searchParams.get("state")).toBe("client-state");
    expect(back.searchParams.has("code")).toBe(false);
  });
});
