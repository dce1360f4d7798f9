/**
 * DPoP replay across isolates (RFC 9449 §11.1): with `durableReplayStore`, a proof one isolate
 * accepted is refused by every other, since the client key's Durable Object records and checks
 * it in one step; the object forgets proof ids once their window has passed.
 */
import { listDurableObjectIds, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { base64url, calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { dpopVerifier } from "../../src/auth/dpop";
import { durableReplayStore, type DpopReplayObject } from "../../src/auth/dpop-replay";
import { initializeParams } from "../helpers/mcp";
import { accessToken, authOptions, edgeFetch, jwksOf, MCP_URL, postTo, signingKey, type Fetch } from "./fixtures";

type Env = { DPOP_REPLAY: DurableObjectNamespace<DpopReplayObject> };
const replayObjects = (env as unknown as Env).DPOP_REPLAY;
const INIT = { jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2025-06-18") };

let key: { privateKey: CryptoKey; jwk: JWK; jkt: string };
let token: string;
let isolateA: Fetch;
let isolateB: Fetch;

async function proof(jti: string): Promise<string> {
  const ath = base64url.encode(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token))));
  return new SignJWT({ htm: "POST", htu: MCP_URL, iat: Math.floor(Date.now() / 1000), jti, ath })
    .setProtectedHeader({ typ: "dpop+jwt", alg: "ES256", jwk: key.jwk })
    .sign(key.privateKey);
}

beforeAll(async () => {
  const issuer = await signingKey("as-1");
  const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = await exportJWK(publicKey);
  key = { privateKey, jwk, jkt: await calculateJwkThumbprint(jwk, "sha256") };
  token = await accessToken(issuer, { cnf: { jkt: key.jkt } });
  // Two verifiers, two in-memory caches: as two isolates would have. Only the store is shared.
  const shared = () => dpopVerifier<Env>({ replay: durableReplayStore((e) => e.DPOP_REPLAY) });
  isolateA = edgeFetch({ auth: authOptions(jwksOf(issuer), { dpop: shared() }) });
  isolateB = edgeFetch({ auth: authOptions(jwksOf(issuer), { dpop: shared() }) });
});

describe("the Durable Object replay store", () => {
  it("refuses in one isolate a proof another isolate accepted", async () => {
    const once = await proof("shared-1");
    const first = await postTo(isolateA, INIT, { Authorization: `DPoP ${token}`, DPoP: once });
    expect(first.status).toBe(200);
    await first.body?.cancel();
    const replay = await postTo(isolateB, INIT, { Authorization: `DPoP ${token}`, DPoP: once });
    expect(replay.status).toBe(401);
    expect(replay.headers.get("WWW-Authenticate")).toMatch(/^DPoP .*error="invalid_dpop_proof".*already used/);
    const fresh = await postTo(isolateB, INIT, { Authorization: `DPoP ${token}`, DPoP: await proof("shared-2") });
    expect(fresh.status).toBe(200);
    await fresh.body?.cancel();
  });

  it("keeps one object per client key, and forgets proof ids whose window has passed", async () => {
    const stub = replayObjects.get(replayObjects.idFromName(key.jkt));
    const past = Math.floor(Date.now() / 1000) - 1;
    expect(await stub.use("old", past)).toBe(true);
    expect(await stub.use("old", past)).toBe(true); // already out of its window: not a replay
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const left = await runInDurableObject(stub, async (_object, state) => [...(await state.storage.list()).keys()]);
    expect(left).not.toContain("old");
    expect(left).toEqual(expect.arrayContaining(["shared-1", "shared-2"])); // still in their window
    const ids = await listDurableObjectIds(replayObjects);
    expect(ids.map((id) => id.toString())).toContain(replayObjects.idFromName(key.jkt).toString());
  });
});
