/**
 * DPoP in the resource server (RFC 9449 §4.3, §7; SEP-1932): with `auth.dpop = dpopVerifier()`,
 * a token bound to a key (`cnf.jkt`) is accepted only as `Authorization: DPoP` with a fresh proof
 * on every request. Each refusal of RFC 9449 §4.3's list gets its own test, answered 401 with a
 * `WWW-Authenticate: DPoP` challenge and the matching error.
 */
import { base64url, calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { dpopVerifier, memoryReplayStore, type DpopReplayStore } from "../../src/auth/dpop";
import type { AuthOptions } from "../../src/auth/options";
import { initializeParams } from "../helpers/mcp";
import { accessToken, authOptions, bearer, edgeFetch, jwksOf, MCP_URL, METADATA_URL, ORIGIN, postTo, signingKey } from "./fixtures";
import type { Fetch, SigningKey } from "./fixtures";

interface ProofKey {
  privateKey: CryptoKey;
  jwk: JWK;
  jkt: string;
}

async function proofKey(alg: "ES256" | "RS256" | "EdDSA" = "ES256"): Promise<ProofKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(publicKey);
  return { privateKey, jwk, jkt: await calculateJwkThumbprint(jwk, "sha256") };
}

const now = () => Math.floor(Date.now() / 1000);
const ath = async (token: string) =>
  base64url.encode(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token))));

interface ProofOverrides {
  nonce?: string;
  htm?: string;
  htu?: string;
  iat?: number;
  jti?: string | null;
  ath?: string | null;
  typ?: string;
  alg?: string;
  jwk?: JWK | null;
  signWith?: CryptoKey;
}

/** A DPoP proof for `token` on a POST to MCP_URL, signed with `key`, with any field overridden. */
async function proof(key: ProofKey, token: string, o: ProofOverrides = {}): Promise<string> {
  const payload: Record<string, unknown> = {
    htm: o.htm ?? "POST",
    htu: o.htu ?? MCP_URL,
    iat: o.iat ?? now(),
    jti: o.jti === undefined ? crypto.randomUUID() : o.jti,
    ath: o.ath === undefined ? await ath(token) : o.ath,
    ...(o.nonce === undefined ? {} : { nonce: o.nonce }),
  };
  for (const [k, v] of Object.entries(payload)) if (v === null) delete payload[k];
  const header: Record<string, unknown> = { typ: o.typ ?? "dpop+jwt", alg: o.alg ?? "ES256", jwk: o.jwk === undefined ? key.jwk : o.jwk };
  if (header.jwk === null) delete header.jwk;
  return new SignJWT(payload).setProtectedHeader(header as { alg: string }).sign(o.signWith ?? key.privateKey);
}

/** A request the server answers 200 once it is let through: a 2025-era initialize. */
const INIT = { jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2025-06-18") };

const dpopAuth = (token: string, dpop: string) => ({ Authorization: `DPoP ${token}`, DPoP: dpop });

/** Parses one challenge of a WWW-Authenticate value into its scheme's parameters. */
function challengesOf(res: Response): Record<string, Record<string, string>> {
  const header = res.headers.get("WWW-Authenticate") ?? "";
  const out: Record<string, Record<string, string>> = {};
  for (const part of header.split(/,\s*(?=(?:Bearer|DPoP) )/)) {
    const [scheme, rest] = [part.slice(0, part.indexOf(" ")), part.slice(part.indexOf(" ") + 1)];
    const params: Record<string, string> = {};
    for (const m of rest.matchAll(/([a-z_]+)="([^"]*)"/g)) params[m[1] as string] = m[2] as string;
    out[scheme] = params;
  }
  return out;
}

async function expectDpopRefusal(res: Response, error: string, description: RegExp): Promise<void> {
  expect(res.status).toBe(401);
  const dpop = challengesOf(res).DPoP;
  expect(dpop, res.headers.get("WWW-Authenticate") ?? "").toBeDefined();
  expect(dpop?.error).toBe(error);
  expect(dpop?.error_description).toMatch(description);
  expect(dpop?.resource_metadata).toBe(METADATA_URL);
  expect(dpop?.algs).toContain("ES256");
  await res.body?.cancel();
}

let issuerKey: SigningKey;
let client: ProofKey;
let bound: string; // a token bound to client's key
let fetch: Fetch;

function withDpop(overrides: Partial<AuthOptions> = {}, dpop = dpopVerifier()): Fetch {
  return edgeFetch({ auth: authOptions(jwksOf(issuerKey), { dpop, ...overrides }) });
}

beforeAll(async () => {
  issuerKey = await signingKey("as-1");
  client = await proofKey();
  bound = await accessToken(issuerKey, { cnf: { jkt: client.jkt } });
  fetch = withDpop();
});

describe("a DPoP request that passes", () => {
  it("is served: the proof, the token and its binding all check out", async () => {
    const res = await postTo(fetch, INIT, dpopAuth(bound, await proof(client, bound)));
    expect(res.status).toBe(200);
  });

  it("is checked on every request: a second request needs a proof of its own", async () => {
    const first = await proof(client, bound);
    expect((await postTo(fetch, INIT, dpopAuth(bound, first))).status).toBe(200);
    expect((await postTo(fetch, INIT, dpopAuth(bound, await proof(client, bound)))).status).toBe(200);
    await expectDpopRefusal(await postTo(fetch, INIT, dpopAuth(bound, first)), "invalid_dpop_proof", /already used/);
  });

  it("works with an RSA and an Ed25519 key too, and with a different query string on htu (RFC 9449 §4.3 step 9)", async () => {
    for (const alg of ["RS256", "EdDSA"] as const) {
      const key = await proofKey(alg);
      const token = await accessToken(issuerKey, { cnf: { jkt: key.jkt } });
      const res = await postTo(fetch, INIT, dpopAuth(token, await proof(key, token, { alg, htu: `${MCP_URL}?x=1` })));
      expect(res.status, alg).toBe(200);
    }
  });

  it("still takes plain bearer tokens (not bound) unless DPoP is required", async () => {
    const plain = await accessToken(issuerKey);
    expect((await postTo(fetch, INIT, bearer(plain))).status).toBe(200);
  });

  it("publishes the proof algorithms in the protected resource metadata (RFC 9728 §2)", async () => {
    const res = await fetch(`${ORIGIN}/.well-known/oauth-protected-resource/mcp`);
    const metadata = (await res.json()) as Record<string, unknown>;
    expect(metadata.dpop_signing_alg_values_supported).toContain("ES256");
    expect(metadata.dpop_bound_access_tokens_required).toBeUndefined();
  });

  it("lets a browser send the DPoP header (CORS preflight)", async () => {
    const res = await fetch(MCP_URL, {
      method: "OPTIONS",
      headers: { Origin: ORIGIN, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, dpop" },
    });
    const allowed = (res.headers.get("Access-Control-Allow-Headers") ?? "").split(",").map((h) => h.trim().toLowerCase());
    expect(allowed).toContain("dpop");
  });

  it("offers both schemes to a request without credentials, DPoP with its algorithms", async () => {
    const res = await postTo(fetch, INIT);
    expect(res.status).toBe(401);
    const challenges = challengesOf(res);
    expect(challenges.Bearer).toEqual({ resource_metadata: METADATA_URL, scope: "mcp" });
    expect(challenges.DPoP).toMatchObject({ resource_metadata: METADATA_URL, scope: "mcp" });
    expect(challenges.DPoP?.algs?.split(" ")).toContain("ES256");
  });
});

describe("each refusal of a DPoP proof (RFC 9449 §4.3), 401 invalid_dpop_proof", () => {
  it("no DPoP header", async () => {
    await expectDpopRefusal(await postTo(fetch, INIT, { Authorization: `DPoP ${bound}` }), "invalid_dpop_proof", /needs a DPoP proof/);
  });

  it("two DPoP headers", async () => {
    const headers = new Headers({ "Content-Type": "application/json", Accept: "application/json, text/event-stream" });
    headers.set("Authorization", `DPoP ${bound}`);
    headers.append("DPoP", await proof(client, bound));
    headers.append("DPoP", await proof(client, bound));
    const res = await fetch(MCP_URL, { method: "POST", headers: Object.fromEntries(headers), body: JSON.stringify(INIT) });
    await expectDpopRefusal(res, "invalid_dpop_proof", /exactly one/);
  });

  it("not a JWT", async () => {
    await expectDpopRefusal(await postTo(fetch, INIT, dpopAuth(bound, "not-a-jwt")), "invalid_dpop_proof", /not a JWT/);
  });

  it("typ other than dpop+jwt", async () => {
    const res = await postTo(fetch, INIT, dpopAuth(bound, await proof(client, bound, { typ: "JWT" })));
    await expectDpopRefusal(res, "invalid_dpop_proof", /typ must be/);
  });

  it("a symmetric algorithm (HS256), signed with a shared secret", async () => {
    const secret = new TextEncoder().encode("a-shared-secret-of-at-least-32-bytes!!");
    const jwt = await new SignJWT({ htm: "POST", htu: MCP_URL, iat: now(), jti: "h1", ath: await ath(bound) })
      .setProtectedHeader({ typ: "dpop+jwt", alg: "HS256", jwk: { kty: "oct", k: base64url.encode(secret) } as JWK })
      .sign(secret);
    await expectDpopRefusal(await postTo(fetch, INIT, dpopAuth(bound, jwt)), "invalid_dpop_proof", /algorithm must be one of/);
  });

  it("alg none", async () => {
    const b64 = (v: unknown) => base64url.encode(JSON.stringify(v));
    const jwt = `${b64({ typ: "dpop+jwt", alg: "none", jwk: client.jwk })}.${b64({ htm: "POST", htu: MCP_URL, iat: now(), jti: "n1", ath: await ath(bound) })}.`;
    await expectDpopRefusal(await postTo(fetch, INIT, dpopAuth(bound, jwt)), "invalid_dpop_proof", /algorithm must be one of/);
  });

  it("no jwk in the header", async () => {
    const res = await postTo(fetch, INIT, dpopAuth(bound, await proof(client, bound, { jwk: null })));
    await expectDpopRefusal(res, "invalid_dpop_proof", /no jwk/);
  });

  it("a private key in the jwk", async () => {
    const privateJwk = await exportJWK(client.privateKey);
    const res = await postTo(fetch, INIT, dpopAuth(bound, await proof(client, bound, { jwk: privateJwk })));
    await expectDpopRefusal(res, "invalid_dpop_proof", /public key/);
  });

  it("a jwk for encryption, or naming another algorithm than the header", async () => {
    for (const jwk of [
      { ...client.jwk, use: "enc" },
      { ...client.jwk, alg: "ES384" },
    ]) {
      const res = await postTo(fetch, INIT, dpopAuth(bound, await proof(client, bound, { jwk })));
      await expectDpopRefusal(res, "invalid_dpop_proof", /jwk/);
    }
  });

  it("a signature that does not verify with the embedded jwk", async () => {
    const other = await proofKey();
    const res = await postTo(fetch, INIT, dpopAuth(bound, await proof(client, bound, { signWith: other.privateKey })));
    await expectDpopRefusal(res, "invalid_dpop_proof", /signature does not verify/);
  });

  it("no jti", async () => {
    const res = await postTo(fetch, INIT, dpopAuth(bound, await proof(client, bound, { jti: null })));
    await expectDpopRefusal(res, "invalid_dpop_proof", /jti/);
  });

  it("htm naming another method", async () => {
    const res = await postTo(fetch, INIT, dpopAuth(bound, await proof(client, bound, { htm: "GET" })));
    await expectDpopRefusal(res, "invalid_dpop_proof", /htm/);
  });

  it("htu naming another URI (path, host or scheme)", async () => {
    for (const htu of [`${ORIGIN}/other`, "http://127.0.0.2:8787/mcp", "https://127.0.0.1:8787/mcp"]) {
      const res = await postTo(fetch, INIT, dpopAuth(bound, await proof(client, bound, { htu })));
      await expectDpopRefusal(res, "invalid_dpop_proof", /htu/);
    }
  });

  it("iat too old, or too far ahead, for the ±5 minute window (SEP-1932)", async () => {
    for (const iat of [now() - 301, now() + 301]) {
      const res = await postTo(fetch, INIT, dpopAuth(bound, await proof(client, bound, { iat })));
      await expectDpopRefusal(res, "invalid_dpop_proof", /iat/);
    }
    // Inside the window either way is fine.
    expect((await postTo(fetch, INIT, dpopAuth(bound, await proof(client, bound, { iat: now() - 240 })))).status).toBe(200);
  });

  it("ath missing, or the hash of another token", async () => {
    for (const value of [null, await ath("another-token")]) {
      const res = await postTo(fetch, INIT, dpopAuth(bound, await proof(client, bound, { ath: value })));
      await expectDpopRefusal(res, "invalid_dpop_proof", /ath/);
    }
  });

  it("a replayed proof (same jti and key within the window)", async () => {
    const once = await proof(client, bound, { jti: "replay-me" });
    expect((await postTo(fetch, INIT, dpopAuth(bound, once))).status).toBe(200);
    await expectDpopRefusal(await postTo(fetch, INIT, dpopAuth(bound, once)), "invalid_dpop_proof", /already used/);
  });
});

describe("the token's binding, 401 invalid_token with a DPoP challenge", () => {
  it("a token bound to another key than the proof's (cnf.jkt ≠ thumbprint)", async () => {
    const thief = await proofKey();
    const res = await postTo(fetch, INIT, dpopAuth(bound, await proof(thief, bound)));
    await expectDpopRefusal(res, "invalid_token", /bound to a different key/);
  });

  it("a token bound to no key, sent as DPoP", async () => {
    const plain = await accessToken(issuerKey);
    const res = await postTo(fetch, INIT, dpopAuth(plain, await proof(client, plain)));
    await expectDpopRefusal(res, "invalid_token", /not bound/);
  });

  it("a bound token sent as a plain Bearer token (RFC 9449 §7.2)", async () => {
    const res = await postTo(fetch, INIT, bearer(bound));
    await expectDpopRefusal(res, "invalid_token", /DPoP-bound/);
  });

  it("an invalid token with a valid proof: the token's own refusal, on the DPoP scheme", async () => {
    const expired = await accessToken(issuerKey, { cnf: { jkt: client.jkt }, exp: now() - 3600 });
    const res = await postTo(fetch, INIT, dpopAuth(expired, await proof(client, expired)));
    await expectDpopRefusal(res, "invalid_token", /expired/);
  });

  it("a missing scope on a DPoP request: 403 insufficient_scope on the DPoP scheme", async () => {
    const narrow = await accessToken(issuerKey, { cnf: { jkt: client.jkt }, scope: "other" });
    const res = await postTo(fetch, INIT, dpopAuth(narrow, await proof(client, narrow)));
    expect(res.status).toBe(403);
    expect(challengesOf(res).DPoP).toMatchObject({ error: "insufficient_scope", scope: "mcp" });
  });
});

describe("options", () => {
  it("required: a plain bearer token is refused, the unauthenticated challenge is DPoP only, the metadata says so", async () => {
    const strict = withDpop({}, dpopVerifier({ required: true }));
    const plain = await accessToken(issuerKey);
    await expectDpopRefusal(await postTo(strict, INIT, bearer(plain)), "invalid_token", /only DPoP-bound/);
    const none = await postTo(strict, INIT);
    expect(Object.keys(challengesOf(none))).toEqual(["DPoP"]);
    const metadata = (await (await strict(`${ORIGIN}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    expect(metadata.dpop_bound_access_tokens_required).toBe(true);
    expect((await postTo(strict, INIT, dpopAuth(bound, await proof(client, bound)))).status).toBe(200);
  });

  it("windowSeconds narrows the iat window", async () => {
    const narrow = withDpop({}, dpopVerifier({ windowSeconds: 30 }));
    await expectDpopRefusal(
      await postTo(narrow, INIT, dpopAuth(bound, await proof(client, bound, { iat: now() - 60 }))),
      "invalid_dpop_proof",
      /iat/,
    );
  });

  it("algorithms limits the proof algorithms; none or HS* cannot be configured", async () => {
    const esOnly = withDpop({}, dpopVerifier({ algorithms: ["ES256"] }));
    const rsa = await proofKey("RS256");
    const token = await accessToken(issuerKey, { cnf: { jkt: rsa.jkt } });
    await expectDpopRefusal(
      await postTo(esOnly, INIT, dpopAuth(token, await proof(rsa, token, { alg: "RS256" }))),
      "invalid_dpop_proof",
      /algorithm/,
    );
    expect(() => dpopVerifier({ algorithms: ["HS256"] })).toThrow(TypeError);
    expect(() => dpopVerifier({ algorithms: ["none"] })).toThrow(TypeError);
  });

  it("replay: a store of your own sees every accepted proof's key and expiry, and its verdict stands", async () => {
    const calls: { key: string; expiresAt: number }[] = [];
    const store: DpopReplayStore = {
      use(key, expiresAt) {
        calls.push({ key, expiresAt });
        return calls.length === 1;
      },
    };
    const shared = withDpop({}, dpopVerifier({ replay: store }));
    const iat = now();
    expect((await postTo(shared, INIT, dpopAuth(bound, await proof(client, bound, { iat, jti: "j-1" })))).status).toBe(200);
    await expectDpopRefusal(
      await postTo(shared, INIT, dpopAuth(bound, await proof(client, bound, { jti: "j-2" }))),
      "invalid_dpop_proof",
      /already used/,
    );
    expect(calls[0]).toEqual({ key: `${client.jkt}:j-1`, expiresAt: iat + 300 });
  });

  it("the default per-isolate store stays bounded and forgets proofs once their window has passed", () => {
    const store = memoryReplayStore(2);
    const later = now() + 300;
    expect(store.use("a", later, undefined)).toBe(true);
    expect(store.use("a", later, undefined)).toBe(false);
    expect(store.use("b", now() - 1, undefined)).toBe(true); // already expired: forgotten on the next use
    expect(store.use("b", later, undefined)).toBe(true);
  });

  it("without auth.dpop, the DPoP scheme is not accepted: 401 as for no credentials", async () => {
    const plainServer = edgeFetch({ auth: authOptions(jwksOf(issuerKey)) });
    const res = await postTo(plainServer, INIT, dpopAuth(bound, await proof(client, bound)));
    expect(res.status).toBe(401);
    expect(Object.keys(challengesOf(res))).toEqual(["Bearer"]);
  });

  it("sessions: GET and DELETE on a session need proofs naming their own method", async () => {
    const init = await postTo(
      fetch,
      { jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2025-06-18") },
      dpopAuth(bound, await proof(client, bound)),
    );
    expect(init.status).toBe(200);
    const session = { "Mcp-Session-Id": init.headers.get("Mcp-Session-Id") as string, "MCP-Protocol-Version": "2025-06-18" };
    await init.body?.cancel();
    const postProof = await proof(client, bound, { htm: "POST" });
    const wrong = await fetch(MCP_URL, { method: "DELETE", headers: { ...session, ...dpopAuth(bound, postProof) } });
    await expectDpopRefusal(wrong, "invalid_dpop_proof", /htm/);
    const right = await fetch(MCP_URL, {
      method: "DELETE",
      headers: { ...session, ...dpopAuth(bound, await proof(client, bound, { htm: "DELETE" })) },
    });
    expect(right.status).toBe(204);
  });
});

describe("server-issued nonces (RFC 9449 §9, SEP-1932's stateless kind)", () => {
  const SECRET = "a-nonce-secret-of-at-least-32-characters";
  afterEach(() => {
    vi.useRealTimers();
  });

  async function nonceFrom(server: Fetch): Promise<string> {
    const res = await postTo(server, INIT, dpopAuth(bound, await proof(client, bound)));
    expect(res.status).toBe(401);
    expect(challengesOf(res).DPoP).toMatchObject({ error: "use_dpop_nonce" });
    await res.body?.cancel();
    return res.headers.get("DPoP-Nonce") as string;
  }

  it("asks for a nonce (401 use_dpop_nonce with DPoP-Nonce), then takes the proof that carries it", async () => {
    const server = withDpop({}, dpopVerifier({ nonce: { secret: SECRET } }));
    const nonce = await nonceFrom(server);
    expect(nonce).toMatch(/^[0-9a-z]+\.[A-Za-z0-9_-]+$/);
    const res = await postTo(server, INIT, dpopAuth(bound, await proof(client, bound, { nonce })));
    expect(res.status).toBe(200);
  });

  it("keeps no state: another isolate with the same secret accepts the nonce; another secret does not", async () => {
    const nonce = await nonceFrom(withDpop({}, dpopVerifier({ nonce: { secret: SECRET } })));
    const sibling = withDpop({}, dpopVerifier({ nonce: { secret: SECRET } }));
    expect((await postTo(sibling, INIT, dpopAuth(bound, await proof(client, bound, { nonce })))).status).toBe(200);
    const stranger = withDpop({}, dpopVerifier({ nonce: { secret: `${SECRET}-other` } }));
    const res = await postTo(stranger, INIT, dpopAuth(bound, await proof(client, bound, { nonce })));
    expect(challengesOf(res).DPoP).toMatchObject({ error: "use_dpop_nonce", error_description: "the DPoP nonce is not current" });
    expect(res.headers.get("DPoP-Nonce")).not.toBe(nonce);
  });

  it("refuses a nonce older than lifetimeSeconds, or tampered with", async () => {
    const server = withDpop({}, dpopVerifier({ nonce: { secret: SECRET, lifetimeSeconds: 60 } }));
    const nonce = await nonceFrom(server);
    const [stamp, tag] = nonce.split(".") as [string, string];
    const forged = `${(Number.parseInt(stamp, 36) + 1000).toString(36)}.${tag}`;
    let res = await postTo(server, INIT, dpopAuth(bound, await proof(client, bound, { nonce: forged })));
    expect(challengesOf(res).DPoP?.error).toBe("use_dpop_nonce");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 61_000);
    res = await postTo(server, INIT, dpopAuth(bound, await proof(client, bound, { nonce })));
    expect(challengesOf(res).DPoP?.error).toBe("use_dpop_nonce");
  });

  it("lets a browser read DPoP-Nonce (exposed through CORS), and refuses a short secret", async () => {
    const server = withDpop({}, dpopVerifier({ nonce: { secret: SECRET } }));
    const res = await postTo(server, INIT, { ...dpopAuth(bound, await proof(client, bound)), Origin: ORIGIN });
    expect(res.headers.get("Access-Control-Expose-Headers")).toContain("DPoP-Nonce");
    expect(() => dpopVerifier({ nonce: { secret: "short" } })).toThrow(TypeError);
  });
});
