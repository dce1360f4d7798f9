// What a DPoP check costs next to the plain access-token check it is added to: `node bench/dpop.mjs [--n 2000]`.
// Bundles the library's own jwtVerifier and dpopVerifier (esbuild, as a user's Worker would) and
// times, on this Node's WebCrypto (V8 + BoringSSL/OpenSSL, like workerd's), per request:
//   bearer: jwtVerifier on an ES256 access token (local JWKS)
//   dpop:   dpopVerifier.check on a fresh ES256 proof for that token (every check of RFC 9449 §4.3,
//           the in-memory replay cache included), then the same jwtVerifier
//   nonce:  the same with server nonces on (one HMAC check more per request)
// Proofs are signed before timing starts (that is the client's cost). Prints the median of 5
// rounds of n requests each, per request, and the ratio. Time is this process's CPU time
// (process.cpuUsage), not wall time, so other load on the machine inflates it less.
// Numbers only: it never fails on a slow result.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { base64url, calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from "jose";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({ options: { n: { type: "string", default: "2000" }, rounds: { type: "string", default: "5" } } });
const N = Number(values.n);
const ROUNDS = Number(values.rounds);

const bundle = await build({
  stdin: {
    contents: 'export { jwtVerifier } from "./src/auth/jwt"; export { dpopVerifier } from "./src/auth/dpop";',
    resolveDir: REPO_ROOT,
    loader: "ts",
  },
  bundle: true,
  write: false,
  format: "esm",
  platform: "neutral",
  external: ["jose"],
});
// A data: module cannot resolve the bare "jose" (imported, or loaded on first use): point it at the installed one.
const text = bundle.outputFiles[0].text.replace(/(from |import\()"jose"/g, (_, before) => `${before}"${import.meta.resolve("jose")}"`);
const { jwtVerifier, dpopVerifier } = await import(`data:text/javascript;base64,${Buffer.from(text).toString("base64")}`);

const ISSUER = "https://auth.example.com";
const RESOURCE = "https://mcp.example.com/mcp";
const URL_ = "https://mcp.example.com/mcp";

const as = await generateKeyPair("ES256", { extractable: true });
const asJwk = { ...(await exportJWK(as.publicKey)), kid: "k1", alg: "ES256", use: "sig" };
const client = await generateKeyPair("ES256", { extractable: true });
const clientJwk = await exportJWK(client.publicKey);
const jkt = await calculateJwkThumbprint(clientJwk, "sha256");
const now = () => Math.floor(Date.now() / 1000);
const token = await new SignJWT({ scope: "mcp", cnf: { jkt } })
  .setProtectedHeader({ alg: "ES256", kid: "k1", typ: "at+jwt" })
  .setIssuer(ISSUER)
  .setAudience(RESOURCE)
  .setSubject("alice")
  .setIssuedAt()
  .setExpirationTime("1h")
  .sign(as.privateKey);
const ath = base64url.encode(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token))));

const verify = jwtVerifier({ issuer: ISSUER, jwks: { keys: [asJwk] } });
const dpop = dpopVerifier({ memoryEntries: N * ROUNDS * 2 + 10 });
const withNonce = dpopVerifier({ memoryEntries: N * ROUNDS * 2 + 10, nonce: { secret: "bench-only-nonce-secret-0123456789abcdef" } });

async function proofs(count, nonce) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const jwt = await new SignJWT({ htm: "POST", htu: URL_, iat: now(), jti: crypto.randomUUID(), ath, ...(nonce ? { nonce } : {}) })
      .setProtectedHeader({ typ: "dpop+jwt", alg: "ES256", jwk: clientJwk })
      .sign(client.privateKey);
    out.push(new Request(URL_, { method: "POST", headers: { Authorization: `DPoP ${token}`, DPoP: jwt } }));
  }
  return out;
}

/** CPU milliseconds (user + system) this process spent since `start`. */
const cpuMs = (start) => {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
};

async function timeBearer() {
  const start = process.cpuUsage();
  for (let i = 0; i < N; i++) if (!(await verify(token, { resource: RESOURCE, env: {} }))) throw new Error("token refused");
  return cpuMs(start) / N;
}

async function timeDpop(verifier = dpop, nonce = undefined) {
  const requests = await proofs(N, nonce);
  const start = process.cpuUsage();
  for (const request of requests) {
    const proof = await verifier.check(request, token, {});
    if (!proof.ok) throw new Error(proof.description);
    if (!(await verify(token, { resource: RESOURCE, env: {} }))) throw new Error("token refused");
  }
  return cpuMs(start) / N;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const [first] = await proofs(1);
const { nonce } = await withNonce.check(first, token, {}); // the use_dpop_nonce answer carries one
await timeBearer();
await timeDpop(); // warm-up
const bearer = [];
const both = [];
const nonced = [];
for (let r = 0; r < ROUNDS; r++) {
  bearer.push(await timeBearer());
  both.push(await timeDpop());
  nonced.push(await timeDpop(withNonce, nonce));
}
const b = median(bearer);
const d = median(both);
const n = median(nonced);
console.log(`node ${process.version}, ${N} requests x ${ROUNDS} rounds, ES256 token and ES256 proofs (median round, CPU time)`);
console.log(`bearer (jwtVerifier):             ${(b * 1000).toFixed(1)} µs/request`);
console.log(`DPoP (proof check + jwtVerifier): ${(d * 1000).toFixed(1)} µs/request, ${(d / b).toFixed(2)}x the bearer request`);
console.log(`the proof check alone:            ${((d - b) * 1000).toFixed(1)} µs/request, ${((d - b) / b).toFixed(2)}x the JWT check`);
console.log(`DPoP with server nonces:          ${(n * 1000).toFixed(1)} µs/request (${((n - d) * 1000).toFixed(1)} µs for the nonce)`);
