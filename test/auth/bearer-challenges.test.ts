/**
 * The gate's answers (2025-06-18 Authorization > Error Handling, RFC 6750 §3): 401 with a Bearer
 * challenge naming the metadata URL for a missing or invalid token, 400 invalid_request for a
 * malformed Authorization header or a token in the query string, 403 insufficient_scope, 503 when
 * the token cannot be checked. On every protected route: POST, GET, DELETE, the stateless path
 * and the legacy /sse + /messages; never on CORS preflight or the metadata document.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import { TRANSPORT_ERROR } from "../../src/jsonrpc/errors";
import { TokenError } from "../../src/auth/options";
import { expectResult, expectRpcError } from "../helpers/rpc-expect";
import {
  accessToken,
  authOptions,
  bearer,
  challengeOf,
  edgeFetch,
  jwksOf,
  MCP_URL,
  METADATA_URL,
  ORIGIN,
  PING,
  postTo,
  signingKey,
  type Fetch,
  type SigningKey,
} from "./fixtures";

let key: SigningKey;
let fetch: Fetch;

beforeAll(async () => {
  key = await signingKey("k1");
  fetch = edgeFetch({ statelessPath: "/stateless/mcp", auth: authOptions(jwksOf(key)) });
});

describe("401 without a token", () => {
  it("answers a POST without Authorization with 401 and a challenge naming the metadata and the scopes", async () => {
    const res = await postTo(fetch, PING);
    await expectRpcError(res, 401, TRANSPORT_ERROR);
    expect(challengeOf(res)).toEqual({ resource_metadata: METADATA_URL, scope: "mcp" });
  });

  it("sends no error code when the request has no credentials (RFC 6750 §3.1)", async () => {
    const res = await postTo(fetch, PING);
    expect(res.headers.get("WWW-Authenticate")).toBe(`Bearer resource_metadata="${METADATA_URL}", scope="mcp"`);
  });

  it("treats another scheme (Basic) as no credentials: 401", async () => {
    const res = await postTo(fetch, PING, { Authorization: "Basic YWxpY2U6c2VjcmV0" });
    await expectRpcError(res, 401, TRANSPORT_ERROR);
    expect(challengeOf(res).error).toBeUndefined();
  });

  it("guards GET, DELETE, the stateless path and the legacy routes too", async () => {
    const session = { "Mcp-Session-Id": "ab".repeat(32), "MCP-Protocol-Version": "2025-06-18" };
    const answers = [
      await fetch(MCP_URL, { method: "GET", headers: { Accept: "text/event-stream", ...session } }),
      await fetch(MCP_URL, { method: "DELETE", headers: session }),
      await postTo(fetch, PING, {}, `${ORIGIN}/stateless/mcp`),
      await fetch(`${ORIGIN}/sse`, { method: "GET", headers: { Accept: "text/event-stream" } }),
      await postTo(fetch, PING, {}, `${ORIGIN}/messages?sessionId=${"ab".repeat(32)}`),
    ];
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(challengeOf(res).resource_metadata).toBe(METADATA_URL);
    }
  });

  it("checks the token before anything else (a bad Content-Type still gets 401)", async () => {
    const res = await fetch(MCP_URL, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "x" });
    expect(res.status).toBe(401);
  });

  it("answers CORS preflight without a token", async () => {
    const res = await fetch(MCP_URL, { method: "OPTIONS", headers: { Origin: ORIGIN, "Access-Control-Request-Method": "POST" } });
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Headers")).toContain("Authorization");
  });

  it("lets a browser client read WWW-Authenticate (CORS exposes it)", async () => {
    const res = await postTo(fetch, PING, { Origin: ORIGIN });
    expect(res.status).toBe(401);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe(ORIGIN);
    expect(res.headers.get("Access-Control-Expose-Headers")).toContain("WWW-Authenticate");
  });
});

describe("400 for malformed credentials", () => {
  for (const [label, value] of [
    ["a Bearer scheme without a token", "Bearer"],
    ["a token with characters outside token68", "Bearer abc def"],
    ["two Authorization values", "Bearer abc, Bearer def"],
  ] as const) {
    it(`answers ${label} with 400 invalid_request`, async () => {
      const res = await postTo(fetch, PING, { Authorization: value });
      await expectRpcError(res, 400, TRANSPORT_ERROR);
      expect(challengeOf(res)).toMatchObject({ resource_metadata: METADATA_URL, error: "invalid_request" });
    });
  }

  it("refuses an access token in the query string with 400, even beside a valid header", async () => {
    const token = await accessToken(key);
    const res = await postTo(fetch, PING, bearer(token), `${MCP_URL}?access_token=${token}`);
    await expectRpcError(res, 400, TRANSPORT_ERROR);
    expect(challengeOf(res)).toMatchObject({ error: "invalid_request" });
    expect(challengeOf(res).error_description).toContain("query string");
  });

  it("refuses an access token in the query string of the legacy stream", async () => {
    const token = await accessToken(key);
    const res = await fetch(`${ORIGIN}/sse?access_token=${token}`, { method: "GET", headers: { Accept: "text/event-stream" } });
    expect(res.status).toBe(400);
  });
});

describe("401 for an invalid token", () => {
  it("answers a token that is not a JWT with 401 invalid_token", async () => {
    const res = await postTo(fetch, PING, bearer("not-a-jwt"));
    await expectRpcError(res, 401, TRANSPORT_ERROR);
    expect(challengeOf(res)).toMatchObject({ resource_metadata: METADATA_URL, error: "invalid_token", scope: "mcp" });
  });

  it("answers a verifier's TokenError with its description", async () => {
    const f = edgeFetch({
      auth: authOptions(jwksOf(key), {
        verify: async () => {
          throw new TokenError("revoked");
        },
      }),
    });
    const res = await postTo(f, PING, bearer("abc"));
    expect(res.status).toBe(401);
    expect(challengeOf(res)).toMatchObject({ error: "invalid_token", error_description: "revoked" });
  });

  it("answers a verifier's null with 401 invalid_token", async () => {
    const f = edgeFetch({ auth: authOptions(jwksOf(key), { verify: async () => null }) });
    const res = await postTo(f, PING, bearer("abc"));
    expect(challengeOf(res)).toMatchObject({ error: "invalid_token" });
  });

  it("answers 401 when a custom verifier's token has expired", async () => {
    const f = edgeFetch({
      auth: authOptions(jwksOf(key), {
        verify: async () => ({ subject: "a", scopes: ["mcp"], audience: "https://mcp.example.com/mcp", expiresAt: 1, claims: {} }),
      }),
    });
    const res = await postTo(f, PING, bearer("abc"));
    expect(challengeOf(res)).toMatchObject({ error: "invalid_token", error_description: "the access token expired" });
  });

  it("answers 503, not 401, when the verifier itself fails, and logs the cause", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const f = edgeFetch({
        auth: authOptions(jwksOf(key), {
          verify: async () => {
            throw new Error("authorization server unreachable");
          },
        }),
      });
      const res = await postTo(f, PING, bearer("abc"));
      await expectRpcError(res, 503, TRANSPORT_ERROR);
      expect(res.headers.get("WWW-Authenticate")).toBeNull();
      expect(logged).toHaveBeenCalledWith("mcp-edge: token verification failed", expect.any(Error));
    } finally {
      logged.mockRestore();
    }
  });
});

describe("403 insufficient_scope", () => {
  it("answers a valid token without the required scope with 403 naming it", async () => {
    const res = await postTo(fetch, PING, bearer(await accessToken(key, { scope: "other" })));
    await expectRpcError(res, 403, TRANSPORT_ERROR);
    expect(challengeOf(res)).toMatchObject({ resource_metadata: METADATA_URL, error: "insufficient_scope", scope: "mcp" });
  });

  it("reads scopes from an scp array too", async () => {
    const res = await postTo(fetch, PING, bearer(await accessToken(key, { scope: undefined, scp: ["mcp"] })), `${ORIGIN}/stateless/mcp`);
    expect(await expectResult(res)).toEqual({});
  });
});

describe("a valid token", () => {
  it("is served: stateless POST", async () => {
    const res = await postTo(fetch, PING, bearer(await accessToken(key)), `${ORIGIN}/stateless/mcp`);
    expect(await expectResult(res)).toEqual({});
  });

  it("does not need any header beyond Authorization (the metadata document needs none)", async () => {
    const res = await fetch(`${ORIGIN}/.well-known/oauth-protected-resource/mcp`);
    expect(res.status).toBe(200);
  });
});
