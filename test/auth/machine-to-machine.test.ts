/**
 * The machine-to-machine recipe (docs/auth.md "Machine-to-machine clients"; the
 * OAuth Client Credentials extension, `io.modelcontextprotocol/oauth-client-credentials`): an
 * external authorization server issues JWT access tokens to a service for its own client id and
 * secret (client_credentials grant, RFC 6749 §4.4, with the RFC 8707 resource), mcp-edge checks
 * them with `jwtVerifier` against that server's JWKS, and `server/discover` lists the extension
 * so a client knows it may use it. The authorization server is a small fetch handler here, its
 * JWKS fetched by the verifier over that handler, exactly as it would be over the network.
 */
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { jwtVerifier } from "../../src/auth/jwt";
import { defineServer, text } from "../../src/index";
import type { McpServer } from "../../src/mcp/definition/server";
import { envelope, headers2026 } from "../helpers/era-2026";
import { edgeFetch, MCP_URL, postTo, RESOURCE, type Fetch } from "./fixtures";

const AS = "https://login.example.com";
const CLIENT_CREDENTIALS = "io.modelcontextprotocol/oauth-client-credentials";
const CLIENTS: Record<string, { secret: string; scope: string }> = { "reporting-job": { secret: "s3cret", scope: "mcp reports:read" } };

/** The external authorization server: JWKS and a token endpoint for the client_credentials grant. */
async function externalAuthorizationServer(): Promise<(request: Request) => Promise<Response>> {
  const { publicKey, privateKey } = (await generateKeyPair("ES256", { extractable: true })) as {
    publicKey: CryptoKey;
    privateKey: CryptoKey;
  };
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: "as-1", alg: "ES256", use: "sig" };
  return async (request) => {
    const url = new URL(request.url);
    if (url.pathname === "/jwks") return Response.json({ keys: [jwk] });
    if (url.pathname !== "/token" || request.method !== "POST") return new Response("not found", { status: 404 });
    const [id, secret] = atob((request.headers.get("Authorization") ?? "").replace(/^Basic /, "")).split(":");
    const client = CLIENTS[id ?? ""];
    if (!client || client.secret !== secret) return Response.json({ error: "invalid_client" }, { status: 401 });
    const form = await request.formData();
    if (form.get("grant_type") !== "client_credentials") return Response.json({ error: "unsupported_grant_type" }, { status: 400 });
    const now = Math.floor(Date.now() / 1000);
    const accessToken = await new SignJWT({ scope: client.scope, client_id: id })
      .setProtectedHeader({ alg: "ES256", kid: "as-1", typ: "at+jwt" })
      .setIssuer(AS)
      .setSubject(id as string) // RFC 9068 §2.2: for a client acting for itself, sub is its client id
      .setAudience(String(form.get("resource") ?? ""))
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(privateKey);
    return Response.json({ access_token: accessToken, token_type: "Bearer", expires_in: 300 });
  };
}

let authorizationServer: (request: Request) => Promise<Response>;
let fetch: Fetch;

beforeAll(async () => {
  authorizationServer = await externalAuthorizationServer();
  // The recipe itself: a server declaring the extension, and jwtVerifier against the external issuer.
  const server = defineServer({ name: "reports", version: "1.0.0", extensions: { [CLIENT_CREDENTIALS]: {} } });
  server.tool("whoami", { description: "The calling service" }, (_args, ctx) => ({
    content: [text(JSON.stringify({ subject: ctx.principal?.subject, clientId: ctx.principal?.clientId, scopes: ctx.principal?.scopes }))],
  }));
  fetch = edgeFetch(
    {
      auth: {
        resource: RESOURCE,
        authorizationServers: [AS],
        verify: jwtVerifier({
          issuer: AS,
          jwksUri: `${AS}/jwks`,
          fetch: (url, init) => authorizationServer(new Request(url, init)),
        }),
        requiredScopes: ["mcp"],
      },
    },
    server as unknown as McpServer<never>,
  );
});

async function clientCredentialsToken(id: string, secret: string): Promise<Response> {
  return authorizationServer(
    new Request(`${AS}/token`, {
      method: "POST",
      headers: { Authorization: `Basic ${btoa(`${id}:${secret}`)}`, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", resource: RESOURCE, scope: "mcp reports:read" }),
    }),
  );
}

function modern(method: string, params: Record<string, unknown>, token: string): Promise<Response> {
  return postTo(
    fetch,
    { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: envelope() } },
    { ...headers2026(method, params), Authorization: `Bearer ${token}` },
    MCP_URL,
  );
}

describe("a service signs in with client credentials at an external authorization server", () => {
  it("gets a token there, and with it server/discover lists the client-credentials extension", async () => {
    const { access_token } = (await (await clientCredentialsToken("reporting-job", "s3cret")).json()) as { access_token: string };
    const res = await modern("server/discover", {}, access_token);
    expect(res.status).toBe(200);
    const { result } = (await res.json()) as { result: { capabilities: { extensions?: Record<string, unknown> } } };
    expect(result.capabilities.extensions).toEqual({ [CLIENT_CREDENTIALS]: {} });
  });

  it("calls a tool as itself: the principal is the service's client id, with its scopes", async () => {
    const { access_token } = (await (await clientCredentialsToken("reporting-job", "s3cret")).json()) as { access_token: string };
    const res = await modern("tools/call", { name: "whoami", arguments: {} }, access_token);
    const { result } = (await res.json()) as { result: { content: { text: string }[] } };
    expect(JSON.parse(result.content[0]?.text ?? "{}")).toEqual({
      subject: "reporting-job",
      clientId: "reporting-job",
      scopes: ["mcp", "reports:read"],
    });
  });

  it("without a token it is told where to get one: 401 naming the external issuer through the resource metadata", async () => {
    const res = await modern("server/discover", {}, "not-a-token");
    expect(res.status).toBe(401);
    const metadata = (await (await fetch("http://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp")).json()) as Record<
      string,
      unknown
    >;
    expect(metadata.authorization_servers).toEqual([AS]);
  });

  it("a wrong secret gets no token, so nothing to call with", async () => {
    expect((await clientCredentialsToken("reporting-job", "wrong")).status).toBe(401);
  });
});
