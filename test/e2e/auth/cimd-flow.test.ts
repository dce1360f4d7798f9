// Client ID Metadata Documents end to end with a real client: the official SDK client, given a
// `clientMetadataUrl`, signs in to the demo's built-in authorization server (the bundle
// `wrangler deploy` would upload for wrangler.auth.toml, global_fetch_strictly_public included)
// without registering: its client_id is the document's URL. The document is served by a second
// Worker (test/servers/auth-server/client-host.mjs) that receives the authorization server's outbound
// fetches, since an https host on the public internet is not available to a test.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findFreePort } from "../../../scripts/worker-server.mjs";
import { firstText } from "../helpers/results";
import { startCimdServer } from "./cimd-server.mjs";

const CLIENT_ID = "https://app.example.test/client.json";
const REDIRECT = "http://127.0.0.1:9/oauth/callback"; // the document's redirect URI; never listened on

const port = await findFreePort();
const ORIGIN = `http://127.0.0.1:${port}`;
let server: { stop(): Promise<void> } | undefined;

beforeAll(async () => {
  server = await startCimdServer({ port });
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

/** The SDK's OAuth provider for a client that has a metadata document and nothing registered. */
class MetadataDocumentClient implements OAuthClientProvider {
  readonly clientMetadataUrl = CLIENT_ID;
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier: string | undefined;
  authorizationUrl: URL | undefined;
  get redirectUrl(): string {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: "CIMD Test App", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" };
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
    return this.verifier as string;
  }
}

/** The user's part: open the consent page, approve, return the code. */
async function approve(url: URL): Promise<{ html: string; code: string }> {
  const page = await fetch(url, { redirect: "manual" });
  const html = await page.text();
  expect(page.status, html).toBe(200);
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1] as string;
  const form = new URLSearchParams({ handle, decision: "approve", scope: "mcp" });
  const approved = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body: form,
    redirect: "manual",
  });
  expect(approved.status).toBe(302);
  return { html, code: new URL(approved.headers.get("Location") as string).searchParams.get("code") as string };
}

describe("the SDK client signs in by its Client ID Metadata Document", () => {
  const provider = new MetadataDocumentClient();
  const paths: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    paths.push(`${request.method} ${new URL(request.url).pathname}`);
    return fetch(request);
  };
  let consent = "";

  beforeAll(async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${ORIGIN}/mcp`), { authProvider: provider, fetch: recording });
    const client = new Client({ name: "mcp-edge-e2e-cimd", version: "1.0.0" });
    await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const { html, code } = await approve(provider.authorizationUrl as URL);
    consent = html;
    await transport.finishAuth(code);
    await client.close();
  }, 60_000);

  it("uses the document's URL as its client_id and never registers", () => {
    expect(provider.authorizationUrl?.searchParams.get("client_id")).toBe(CLIENT_ID);
    expect(provider.client?.client_id).toBe(CLIENT_ID);
    expect(paths).not.toContain("POST /oauth/register");
    expect(consent).toContain("CIMD Test App");
  });

  it("then calls tools with the token it got", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${ORIGIN}/mcp`), { authProvider: provider });
    const client = new Client({ name: "mcp-edge-e2e-cimd", version: "1.0.0" });
    await client.connect(transport);
    const result = await client.callTool({ name: "whoami", arguments: {} });
    expect(JSON.parse(firstText(result) ?? "{}")).toMatchObject({ principal: { subject: "demo-user", clientId: CLIENT_ID } });
    await client.close();
  });
});
