// DPoP end to end with a real client (RFC 9449, SEP-1932), as machine-to-machine clients do it:
// the official SDK v2 client with its ClientCredentialsProvider and a DpopSession gets a
// DPoP-bound token from an external authorization server (a small Node one, test helper) by the
// client credentials grant, then calls the Worker (test/servers/dpop-service: jwtVerifier + dpopVerifier
// with `required` and server nonces) with `Authorization: DPoP` and a fresh proof on every
// request, answering the server's first `use_dpop_nonce` challenge with a proof carrying the nonce.
import { Client, ClientCredentialsProvider, DpopSession, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findFreePort } from "../../../scripts/worker-server.mjs";
import { useWorker } from "../helpers/server";
import { firstText } from "../helpers/results";
import { startAuthorizationServer } from "./dpop-authorization-server.mjs";

const port = await findFreePort();
const ORIGIN = `http://127.0.0.1:${port}`;
const vars: Record<string, string> = { MCP_PUBLIC_URL: ORIGIN };
let as: Awaited<ReturnType<typeof startAuthorizationServer>> | undefined;

// Registered before useWorker's hook, so the Worker starts knowing the issuer.
beforeAll(async () => {
  as = await startAuthorizationServer({ clients: { "reporting-job": "s3cret" } });
  vars.AS_ISSUER = as.issuer;
});
useWorker({ port, configPath: "test/servers/dpop-service/wrangler.toml", vars });
afterAll(async () => {
  await as?.stop();
});

/** The SDK's client-credentials provider with DPoP turned on (its `dpop()` hook). */
class DpopClientCredentials extends ClientCredentialsProvider {
  readonly session = DpopSession.create();
  dpop(): Promise<DpopSession> {
    return this.session;
  }
}

describe("the SDK v2 client with DPoP and client credentials", () => {
  const sent: { method: string; authorization: string | null; dpop: string | null; status: number; challenge: string | null }[] = [];
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    if (new URL(request.url).pathname === "/mcp")
      sent.push({
        method: request.method,
        authorization: request.headers.get("Authorization"),
        dpop: request.headers.get("DPoP"),
        status: response.status,
        challenge: response.headers.get("WWW-Authenticate"),
      });
    return response;
  };
  let seen: Record<string, unknown> = {};
  let thumbprint = "";

  beforeAll(async () => {
    const provider = new DpopClientCredentials({
      clientId: "reporting-job",
      clientSecret: "s3cret",
      scope: "mcp",
      expectedIssuer: as?.issuer as string,
    });
    thumbprint = (await provider.session).thumbprint;
    const client = new Client({ name: "mcp-edge-e2e-dpop", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${ORIGIN}/mcp`), { authProvider: provider, fetch: recording });
    await client.connect(transport);
    const result = await client.callTool({ name: "whoami", arguments: {} });
    seen = JSON.parse(firstText(result) ?? "{}") as Record<string, unknown>;
    await client.close();
  });

  it("got its token by the client credentials grant with a DPoP proof, for this resource", () => {
    const issued = as?.tokenRequests.filter((t) => t.grantType === "client_credentials") ?? [];
    expect(issued.length).toBeGreaterThan(0);
    expect(issued.every((t) => t.dpop && t.resource === `${ORIGIN}/mcp`)).toBe(true);
  });

  it("sent every authorized request as DPoP with a proof of its own, and was served", () => {
    const authorized = sent.filter((s) => s.authorization !== null);
    expect(authorized.length).toBeGreaterThan(1);
    for (const s of authorized) {
      expect(s.authorization).toMatch(/^DPoP /);
      expect(s.dpop).toEqual(expect.any(String));
    }
    expect(new Set(authorized.map((s) => s.dpop)).size).toBe(authorized.length);
  });

  it("was asked for a server nonce once, and every proof after that carried it", () => {
    const asked = sent.filter((s) => s.status === 401 && /error="use_dpop_nonce"/.test(s.challenge ?? ""));
    expect(asked).toHaveLength(1);
    const after = sent.slice(sent.indexOf(asked[0] as (typeof sent)[number]) + 1);
    expect(after.length).toBeGreaterThan(0);
    for (const s of after) {
      const payload = JSON.parse(atob((s.dpop ?? "").split(".")[1]?.replace(/-/g, "+").replace(/_/g, "/") ?? "")) as { nonce?: string };
      expect(payload.nonce).toEqual(expect.any(String));
      expect(s.status).toBeLessThan(300);
    }
  });

  it("is the principal in the handler, its token bound to the client's key", () => {
    expect(seen).toEqual({ subject: "reporting-job", clientId: "reporting-job", cnf: { jkt: thumbprint } });
  });
});
