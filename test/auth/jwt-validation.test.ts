/**
 * JWT access tokens checked by `jwtVerifier` behind the gate: signature, algorithm, key id,
 * issuer, expiry, not-before, and the audience bound to the canonical resource URI (RFC 8707).
 * Each bad token gets 401 invalid_token with the challenge; a good one is served. Keys are
 * generated in the test; the remote key set is served by a counted fake fetch (no network).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { SignJWT } from "jose";
import { jwtVerifier } from "../../src/auth/jwt";
import { expectResult } from "../helpers/rpc-expect";
import {
  accessToken,
  authOptions,
  bearer,
  challengeOf,
  edgeFetch,
  ISSUER,
  jwksOf,
  METADATA_URL,
  ORIGIN,
  PING,
  postTo,
  RESOURCE,
  signingKey,
  unsecuredToken,
  type Fetch,
  type SigningKey,
} from "./fixtures";

const STATELESS = `${ORIGIN}/stateless/mcp`;
let key: SigningKey;
let rsaKey: SigningKey;
let stranger: SigningKey;
let fetch: Fetch;

beforeAll(async () => {
  key = await signingKey("k1");
  rsaKey = await signingKey("k2", "RS256");
  stranger = await signingKey("k1"); // same kid, another key: a forged signature
  fetch = edgeFetch({ sessions: false, path: "/stateless/mcp", auth: authOptions(jwksOf(key, rsaKey)) });
});

const send = (token: string) => postTo(fetch, PING, bearer(token), STATELESS);

async function expectRefused(res: Response, description: RegExp): Promise<void> {
  expect(res.status).toBe(401);
  const challenge = challengeOf(res);
  expect(challenge).toMatchObject({ resource_metadata: METADATA_URL, error: "invalid_token" });
  expect(challenge.error_description).toMatch(description);
}

describe("accepted", () => {
  it("serves a valid ES256 token", async () => {
    expect(await expectResult(await send(await accessToken(key)))).toEqual({});
  });

  it("serves a valid RS256 token from the same key set", async () => {
    expect(await expectResult(await send(await accessToken(rsaKey)))).toEqual({});
  });

  it("accepts an audience with upper-case scheme and host", async () => {
    expect(await expectResult(await send(await accessToken(key, { aud: "HTTPS://MCP.EXAMPLE.COM/mcp" })))).toEqual({});
  });

  it("accepts an audience with a trailing slash", async () => {
    expect(await expectResult(await send(await accessToken(key, { aud: `${RESOURCE}/` })))).toEqual({});
  });

  it("accepts an audience list that names this resource", async () => {
    expect(await expectResult(await send(await accessToken(key, { aud: ["https://other.example.com", RESOURCE] })))).toEqual({});
  });

  it("tolerates 30 s of clock skew on exp", async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await expectResult(await send(await accessToken(key, { exp: now - 10 })))).toEqual({});
  });
});

describe("refused with 401 invalid_token", () => {
  it("a token for another resource", async () => {
    await expectRefused(await send(await accessToken(key, { aud: "https://other.example.com/mcp" })), /not issued for this resource/);
  });

  it("a token for another path on the same host", async () => {
    await expectRefused(await send(await accessToken(key, { aud: "https://mcp.example.com/other" })), /not issued for this resource/);
  });

  it("a token whose audience differs only in path case", async () => {
    await expectRefused(await send(await accessToken(key, { aud: "https://mcp.example.com/MCP" })), /not issued for this resource/);
  });

  it("a token without an audience", async () => {
    await expectRefused(await send(await accessToken(key, { aud: undefined })), /not issued for this resource/);
  });

  it("a token from another issuer", async () => {
    await expectRefused(
      await send(await accessToken(key, { iss: "https://evil.example.com" })),
      /authorization server this resource does not trust/,
    );
  });

  it("an expired token", async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectRefused(await send(await accessToken(key, { iat: now - 3600, exp: now - 600 })), /expired/);
  });

  it("a token that is not valid yet", async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectRefused(await send(await accessToken(key, { nbf: now + 600 })), /not valid yet/);
  });

  it("a token without exp", async () => {
    await expectRefused(await send(await accessToken(key, { exp: undefined })), /lacks the exp claim/);
  });

  it("a token without a subject", async () => {
    await expectRefused(await send(await accessToken(key, { sub: undefined })), /lacks the sub claim/);
  });

  it("a token with a bad signature", async () => {
    await expectRefused(await send(await accessToken(stranger)), /signature does not verify/);
  });

  it("a tampered payload", async () => {
    const [h, , s] = (await accessToken(key)).split(".");
    const other = (await accessToken(key, { sub: "mallory" })).split(".")[1];
    await expectRefused(await send(`${h}.${other}.${s}`), /signature does not verify/);
  });

  it("a token signed with an unknown kid", async () => {
    const unknown = await signingKey("k-unknown");
    await expectRefused(await send(await accessToken(unknown)), /key this resource does not know/);
  });

  it("an unsecured token (alg: none)", async () => {
    await expectRefused(await send(unsecuredToken()), /algorithm is not accepted|not a well-formed/);
  });

  it("an HS256 token using the public key's id (algorithm confusion)", async () => {
    const token = await new SignJWT({ iss: ISSUER, aud: RESOURCE, sub: "alice", scope: "mcp", exp: Math.floor(Date.now() / 1000) + 300 })
      .setProtectedHeader({ alg: "HS256", kid: "k1" })
      .sign(new TextEncoder().encode("a-shared-secret-that-nobody-should-accept"));
    await expectRefused(await send(token), /algorithm is not accepted/);
  });

  it("a token naming a known kid but signed with another algorithm's key", async () => {
    await expectRefused(await send(await accessToken(rsaKey, {}, { kid: "k1" })), /key this resource does not know/);
  });
});

describe("jwtVerifier configuration", () => {
  it("refuses none and HMAC algorithms", () => {
    expect(() => jwtVerifier({ issuer: ISSUER, jwks: { keys: [] }, algorithms: ["none"] })).toThrow(TypeError);
    expect(() => jwtVerifier({ issuer: ISSUER, jwks: { keys: [] }, algorithms: ["HS256"] })).toThrow(TypeError);
  });

  it("needs exactly one key source", () => {
    expect(() => jwtVerifier({ issuer: ISSUER })).toThrow(TypeError);
    expect(() => jwtVerifier({ issuer: ISSUER, jwks: { keys: [] }, jwksUri: "https://auth.example.com/jwks" })).toThrow(TypeError);
  });

  it("checks the typ header when asked (RFC 9068 at+jwt)", async () => {
    const verify = jwtVerifier({ issuer: ISSUER, jwks: jwksOf(key), typ: "at+jwt" });
    const plain = await new SignJWT({ iss: ISSUER, aud: RESOURCE, sub: "alice", exp: Math.floor(Date.now() / 1000) + 300 })
      .setProtectedHeader({ alg: "ES256", kid: "k1", typ: "JWT" })
      .sign(key.privateKey);
    await expect(verify(plain, { resource: RESOURCE, env: {} })).rejects.toThrow(/typ/);
    await expect(verify(await accessToken(key), { resource: RESOURCE, env: {} })).resolves.toMatchObject({ subject: "alice" });
  });
});

describe("remote key set", () => {
  const JWKS_URI = "https://auth.example.com/.well-known/jwks.json";

  function servedKeys(initial: SigningKey[]) {
    const state = { keys: initial, fetches: 0, urls: [] as string[] };
    const fakeFetch = async (url: string) => {
      state.fetches++;
      state.urls.push(url);
      return new Response(JSON.stringify(jwksOf(...state.keys)), { headers: { "Content-Type": "application/json" } });
    };
    return { state, fakeFetch };
  }

  it("fetches the key set once and serves later tokens from the cache", async () => {
    const { state, fakeFetch } = servedKeys([key]);
    const f = edgeFetch({
      sessions: false,
      path: "/stateless/mcp",
      auth: authOptions({ keys: [] }, { verify: jwtVerifier({ issuer: ISSUER, jwksUri: JWKS_URI, fetch: fakeFetch }) }),
    });
    for (let i = 0; i < 3; i++) expect((await postTo(f, PING, bearer(await accessToken(key)), STATELESS)).status).toBe(200);
    expect(state.fetches).toBe(1);
    expect(state.urls).toEqual([JWKS_URI]);
  });

  it("picks up a rotated key: an unknown kid refetches the set (after the cooldown)", async () => {
    const { state, fakeFetch } = servedKeys([key]);
    const verify = jwtVerifier({ issuer: ISSUER, jwksUri: JWKS_URI, fetch: fakeFetch, cooldownMs: 0 });
    const f = edgeFetch({ sessions: false, path: "/stateless/mcp", auth: authOptions({ keys: [] }, { verify }) });
    expect((await postTo(f, PING, bearer(await accessToken(key)), STATELESS)).status).toBe(200);
    const rotated = await signingKey("k-next");
    state.keys = [rotated];
    expect((await postTo(f, PING, bearer(await accessToken(rotated)), STATELESS)).status).toBe(200);
    expect(state.fetches).toBe(2);
    // The retired key is gone from the set: its tokens are refused now.
    await expectRefused(await postTo(f, PING, bearer(await accessToken(key)), STATELESS), /key this resource does not know/);
  });

  it("does not refetch for unknown kids within the cooldown", async () => {
    const { state, fakeFetch } = servedKeys([key]);
    const verify = jwtVerifier({ issuer: ISSUER, jwksUri: JWKS_URI, fetch: fakeFetch });
    const f = edgeFetch({ sessions: false, path: "/stateless/mcp", auth: authOptions({ keys: [] }, { verify }) });
    expect((await postTo(f, PING, bearer(await accessToken(key)), STATELESS)).status).toBe(200);
    const forged = await signingKey("k-forged");
    for (let i = 0; i < 3; i++) expect((await postTo(f, PING, bearer(await accessToken(forged)), STATELESS)).status).toBe(401);
    expect(state.fetches).toBe(1);
  });

  it("answers 503 when the key set cannot be fetched", async () => {
    const failing = async () => new Response("down", { status: 500 });
    const f = edgeFetch({
      sessions: false,
      path: "/stateless/mcp",
      auth: authOptions({ keys: [] }, { verify: jwtVerifier({ issuer: ISSUER, jwksUri: JWKS_URI, fetch: failing }) }),
    });
    const logged = console.error;
    console.error = () => undefined;
    try {
      expect((await postTo(f, PING, bearer(await accessToken(key)), STATELESS)).status).toBe(503);
    } finally {
      console.error = logged;
    }
  });
});
