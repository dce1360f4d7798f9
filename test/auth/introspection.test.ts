/**
 * Opaque tokens through `introspectionVerifier` (RFC 7662): the resource server authenticates to
 * the introspection endpoint, an inactive token is 401, the answer's audience is bound to this
 * resource like a JWT's, and an unreachable endpoint is 503. The endpoint is a fake fetch.
 */
import { describe, expect, it, vi } from "vitest";
import { introspectionVerifier } from "../../src/auth/introspection";
import { authOptions, bearer, challengeOf, edgeFetch, ORIGIN, PING, postTo, RESOURCE } from "./fixtures";

const STATELESS = `${ORIGIN}/stateless/mcp`;
const ENDPOINT = "https://auth.example.com/introspect";

function server(answer: Record<string, unknown> | number) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fakeFetch = async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return typeof answer === "number" ? new Response("", { status: answer }) : Response.json(answer);
  };
  const verify = introspectionVerifier({ endpoint: ENDPOINT, clientId: "mcp-server", clientSecret: "s3cret", fetch: fakeFetch });
  return { calls, fetch: edgeFetch({ sessions: false, path: "/stateless/mcp", auth: authOptions({ keys: [] }, { verify }) }) };
}

describe("introspection", () => {
  it("serves an active token for this resource, asking with the server's credentials", async () => {
    const { calls, fetch } = server({ active: true, sub: "alice", scope: "mcp", aud: RESOURCE, exp: Math.floor(Date.now() / 1000) + 60 });
    expect((await postTo(fetch, PING, bearer("opaque-token"), STATELESS)).status).toBe(200);
    expect(calls).toHaveLength(1);
    const headers = new Headers(calls[0]?.init.headers);
    expect(headers.get("Authorization")).toBe(`Basic ${btoa("mcp-server:s3cret")}`);
    expect(new URLSearchParams(String(calls[0]?.init.body)).get("token")).toBe("opaque-token");
  });

  it("refuses an inactive token with 401 invalid_token", async () => {
    const { fetch } = server({ active: false });
    const res = await postTo(fetch, PING, bearer("opaque-token"), STATELESS);
    expect(res.status).toBe(401);
    expect(challengeOf(res)).toMatchObject({ error: "invalid_token", error_description: "the access token is not active" });
  });

  it("refuses an active token issued for another resource", async () => {
    const { fetch } = server({ active: true, sub: "alice", scope: "mcp", aud: "https://other.example.com" });
    const res = await postTo(fetch, PING, bearer("opaque-token"), STATELESS);
    expect(challengeOf(res).error_description).toMatch(/not issued for this resource/);
  });

  it("refuses an active token whose answer names no audience", async () => {
    const { fetch } = server({ active: true, sub: "alice", scope: "mcp" });
    expect((await postTo(fetch, PING, bearer("opaque-token"), STATELESS)).status).toBe(401);
  });

  it("answers 503 when the introspection endpoint fails", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const { fetch } = server(500);
      expect((await postTo(fetch, PING, bearer("opaque-token"), STATELESS)).status).toBe(503);
    } finally {
      logged.mockRestore();
    }
  });
});
