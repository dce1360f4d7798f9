// Step-up and re-authentication from a handler, end to end with the official clients over real
// HTTP: a Worker whose tools throw needScopes() / reauthenticate() or declare scopes computed
// from their arguments (test/servers/step-up-e2e, testAuth tokens), and an external authorization
// server (a small Node one, test helper) that issues tokens with the scopes asked for. The SDK v1
// client (authorization code, a 2025 session) is sent to sign in again with the scopes of the
// challenge and succeeds on retry; the SDK v2 client (client credentials, 2026-07-28 and a 2025
// session) re-authorizes by itself and its retry succeeds.
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findFreePort } from "../../../scripts/worker-server.mjs";
import { mintTestToken } from "../../../src/testing/test-auth";
import { firstText } from "../helpers/results";
import { useWorker } from "../helpers/server";
import { startAuthorizationServer } from "./step-up-authorization-server.mjs";

const SECRET = "e2e-only-test-auth-secret-0123456789abcdef";
const port = await findFreePort();
const ORIGIN = `http://127.0.0.1:${port}`;
const RESOURCE = `${ORIGIN}/mcp`;
const REDIRECT = "http://127.0.0.1:9/oauth/callback"; // never listened on: the test follows the redirect itself
const vars: Record<string, string> = { MCP_PUBLIC_URL: ORIGIN };
let as: Awaited<ReturnType<typeof startAuthorizationServer>>;

// Registered before useWorker's hook, so the Worker starts knowing the issuer.
beforeAll(async () => {
  as = await startAuthorizationServer({
    mint: ({ subject, scopes, audience, claims }) => mintTestToken({ subject, scopes, audience, claims, secret: SECRET }),
    clients: { "nightly-job": "s3cret" },
  });
  vars.AS_ISSUER = as.issuer;
});
useWorker({ port, configPath: "test/servers/step-up-e2e/wrangler.toml", vars });
afterAll(async () => {
  await as?.stop();
});

/** The SDK v1 OAuthClientProvider with in-memory storage; "redirecting" records the authorization URL. */
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
      client_name: "mcp-edge e2e step-up",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code"],
      response_types: ["code"],
    };
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

/** The user signs in (the authorization server approves at once): the code from the redirect. */
async function signIn(provider: MemoryOAuthProvider): Promise<string> {
  const url = provider.authorizationUrl;
  provider.authorizationUrl = undefined;
  if (!url) throw new Error("the client was not sent to sign in");
  const answer = await fetch(url, { redirect: "manual" });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get("Location") ?? "").searchParams.get("code") ?? "";
}

describe("the SDK v1 client (authorization code, a 2025 session)", () => {
  const provider = new MemoryOAuthProvider();
  let client: ClientV1;
  let transport: TransportV1;

  beforeAll(async () => {
    const first = new TransportV1(new URL(RESOURCE), { authProvider: provider });
    await expect(new ClientV1({ name: "e2e-v1", version: "1.0.0" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    await first.finishAuth(await signIn(provider));
    transport = new TransportV1(new URL(RESOURCE), { authProvider: provider });
    client = new ClientV1({ name: "e2e-v1", version: "1.0.0" });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
  });

  it("signs in with the baseline scope first", async () => {
    expect(as.authorizeRequests[0]?.scope).toBe("mcp");
    expect(firstText(await client.callTool({ name: "whoami", arguments: {} }))).toBe("ada mcp");
  });

  it("needScopes(): is sent to sign in again with the complete set, and the retry succeeds", async () => {
    await expect(client.callTool({ name: "write_file", arguments: {} })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl?.searchParams.get("scope")).toBe("mcp files:write");
    await transport.finishAuth(await signIn(provider));
    expect(firstText(await client.callTool({ name: "write_file", arguments: {} }))).toBe("written");
  });

  it("scopes computed from the arguments: the challenge names the repository's scope, and the retry succeeds", async () => {
    await expect(client.callTool({ name: "delete_repo", arguments: { repo: "web" } })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl?.searchParams.get("scope")).toBe("mcp repo:web:admin");
    await transport.finishAuth(await signIn(provider));
    expect(firstText(await client.callTool({ name: "delete_repo", arguments: { repo: "web" } }))).toBe("deleted web");
  });

  it("reauthenticate(): is sent to sign in again, and after signing in (the upstream linked) the retry succeeds", async () => {
    await expect(client.callTool({ name: "upstream", arguments: {} })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl?.searchParams.get("scope")).toBe("mcp");
    as.setExtraClaims({ upstream: "linked" });
    try {
      await transport.finishAuth(await signIn(provider));
      expect(firstText(await client.callTool({ name: "upstream", arguments: {} }))).toBe("upstream ok");
    } finally {
      as.setExtraClaims({});
    }
  });
});

describe("the SDK v2 client (client credentials)", () => {
  for (const mode of [{ pin: "2026-07-28" }, "legacy"] as const) {
    const era = typeof mode === "string" ? "a 2025 session" : "2026-07-28";

    async function connected<T>(use: (client: Client) => Promise<T>): Promise<T> {
      const provider = new ClientCredentialsProvider({
        clientId: "nightly-job",
        clientSecret: "s3cret",
        scope: "mcp",
        expectedIssuer: as.issuer,
      });
      const client = new Client({ name: "e2e-v2", version: "1.0.0" }, { versionNegotiation: { mode } });
      await client.connect(new StreamableHTTPClientTransport(new URL(RESOURCE), { authProvider: provider }));
      expect(client.getNegotiatedProtocolVersion()).toBe(typeof mode === "string" ? "2025-11-25" : "2026-07-28");
      try {
        return await use(client);
      } finally {
        await client.close();
      }
    }

    it(`${era}: needScopes() and computed scopes make it re-authorize with the union of scopes; both retries succeed`, async () => {
      await connected(async (client) => {
        const before = as.tokenRequests.length;
        expect(firstText(await client.callTool({ name: "write_file", arguments: {} }))).toBe("written");
        expect(as.tokenRequests.slice(before).map((t) => t.scope)).toEqual(["mcp files:write"]);
        expect(firstText(await client.callTool({ name: "delete_repo", arguments: { repo: "api" } }))).toBe("deleted api");
        expect(as.tokenRequests.at(-1)?.scope).toBe("mcp files:write repo:api:admin");
        expect(firstText(await client.callTool({ name: "whoami", arguments: {} }))).toBe("nightly-job mcp files:write repo:api:admin");
      });
    });

    it(`${era}: reauthenticate() makes it fetch a new token, and the retry succeeds`, async () => {
      await connected(async (client) => {
        as.setExtraClaims({ upstream: "linked" });
        try {
          const before = as.tokenRequests.length;
          expect(firstText(await client.callTool({ name: "upstream", arguments: {} }))).toBe("upstream ok");
          expect(as.tokenRequests.length).toBe(before + 1);
        } finally {
          as.setExtraClaims({});
        }
      });
    });
  }
});
