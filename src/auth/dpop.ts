/**
 * DPoP in the resource server (RFC 9449; MCP SEP-1932): a sender-constrained access token comes
 * with `Authorization: DPoP <token>` and a `DPoP` proof, a JWT the client signs on every request
 * with the key the token is bound to. `dpopVerifier()` checks the proof (RFC 9449 §4.3): one
 * header, `typ` dpop+jwt, an asymmetric algorithm, the signature with the embedded public key,
 * `htm`/`htu` naming this request, `iat` inside the window (±5 minutes by default, SEP-1932),
 * `ath` the hash of the token, and a `jti` not seen before within the window. The runtime then
 * checks the token's `cnf.jkt` against the proof key's thumbprint (RFC 7638).
 *
 * Replay: SEP-1932 lets a server without global state rely on the `iat` window alone; by default
 * each isolate also remembers the `jti`s it accepted (a replay to the same isolate is refused).
 * Pass `replay: durableReplayStore((env) => env.DPOP_REPLAY)` for one store shared by every
 * isolate (a Durable Object per client key, `DpopReplayObject`, src/auth/dpop-replay.ts).
 */
import type { CryptoKey, JWK } from "jose";
import { decodeBase64url, encodeBase64url } from "./base64url";
import { loadJose, type Jose } from "./jose";
import type { DpopCheck, DpopProofResult } from "./options";

/** Proof algorithms accepted by default: asymmetric only (RFC 9449 §4.3 step 5). */
export const DEFAULT_DPOP_ALGORITHMS = ["ES256", "ES384", "EdDSA", "Ed25519", "RS256", "PS256"] as const;

/** Remembers proof ids (`jti`) until they leave the window. */
export interface DpopReplayStore<Env = unknown> {
  /** Records `key` until `expiresAt` (seconds since the epoch); false when it was already recorded: a replay. */
  use(key: string, expiresAt: number, env: Env): boolean | Promise<boolean>;
}

export interface DpopVerifierOptions<Env = unknown> {
  /** Accepted proof algorithms (default {@link DEFAULT_DPOP_ALGORITHMS}); `none` and HMAC are refused. */
  algorithms?: readonly string[];
  /** How far a proof's `iat` may be from now, either way, in seconds (default 300, SEP-1932). */
  windowSeconds?: number;
  /** Refuse plain Bearer tokens: every request must be DPoP (default false: both are accepted, bound tokens only with DPoP). */
  required?: boolean;
  /** Where used `jti`s are kept (default: this isolate's memory, at most `memoryEntries` of them). */
  replay?: DpopReplayStore<Env>;
  /** Bound of the default in-memory replay cache (default 10,000 proofs). */
  memoryEntries?: number;
  /**
   * Server-issued nonces (RFC 9449 §9; SEP-1932's stateless kind): every proof must carry a
   * `nonce` this server issued within `lifetimeSeconds` (default 300); otherwise the answer is
   * 401 `use_dpop_nonce` with a fresh one in `DPoP-Nonce`. A nonce is a timestamp with an HMAC
   * under `secret` (at least 32 characters; the same in every isolate), so nothing is stored.
   */
  nonce?: { secret: string; lifetimeSeconds?: number };
}

/** Stateless nonces: `<issued-at, base36>.<HMAC-SHA-256 of it, base64url>`. */
function nonceIssuer(secret: string, lifetime: number) {
  if (typeof secret !== "string" || secret.length < 32) throw new TypeError("dpopVerifier: nonce.secret needs at least 32 characters");
  const key = crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
  const mac = async (stamp: string) =>
    encodeBase64url(new Uint8Array(await crypto.subtle.sign("HMAC", await key, new TextEncoder().encode(`dpop-nonce:${stamp}`))));
  return {
    async issue(): Promise<string> {
      const stamp = Math.floor(Date.now() / 1000).toString(36);
      return `${stamp}.${await mac(stamp)}`;
    },
    async valid(nonce: unknown): Promise<boolean> {
      if (typeof nonce !== "string" || nonce.length > 64) return false;
      const [stamp, tag, extra] = nonce.split(".");
      if (!stamp || !tag || extra !== undefined || !/^[0-9a-z]{1,10}$/.test(stamp)) return false;
      const age = Math.floor(Date.now() / 1000) - Number.parseInt(stamp, 36);
      if (age < -5 || age > lifetime) return false;
      const bytes = decodeBase64url(tag);
      if (!bytes) return false;
      return crypto.subtle.verify("HMAC", await key, bytes as Uint8Array<ArrayBuffer>, new TextEncoder().encode(`dpop-nonce:${stamp}`));
    },
  };
}

/** A per-isolate replay cache: a Map in insertion (≈ expiry) order, pruned as it is used. */
export function memoryReplayStore(maxEntries = 10_000): DpopReplayStore {
  const seen = new Map<string, number>();
  return {
    use(key, expiresAt) {
      const now = Math.floor(Date.now() / 1000);
      if ((seen.get(key) ?? 0) > now) return false;
      for (const [k, until] of seen) {
        if (until > now && seen.size < maxEntries) break;
        seen.delete(k);
      }
      seen.set(key, expiresAt);
      return true;
    },
  };
}

/** The request URI as `htu` compares it: scheme, host and path; no query, no fragment (RFC 9449 §4.3 step 9). */
function htuOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return undefined;
  }
}

const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "k"];

/** What jose says went wrong, as a reason the client may read. */
function describe({ errors }: Jose, error: unknown): string {
  if (error instanceof errors.JWSSignatureVerificationFailed) return "the DPoP proof's signature does not verify with its jwk";
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported)
    return "the DPoP proof's algorithm is not accepted";
  if (error instanceof errors.JWTClaimValidationFailed) return `the DPoP proof's "${error.claim}" is invalid`;
  if (error instanceof errors.JOSEError) return `the DPoP proof is malformed: ${error.message}`;
  return "the DPoP proof is malformed";
}

const refused = (description: string) => ({ ok: false as const, description });

type KeyFor = (jose: Jose, jwk: JWK, alg: string) => Promise<{ key: CryptoKey; jkt: string } | string>;

/** The members that make a public key what it is (RFC 7638 §3.2): the same key always gives the same id. */
const keyId = (jwk: JWK, alg: string) => [alg, jwk.kty, jwk.crv, jwk.x, jwk.y, jwk.n, jwk.e].join("|");

/**
 * A client signs every proof with the same key: importing it and hashing its thumbprint once per
 * isolate, not per request, is most of what a proof costs beyond its signature
 * (bench/dpop.mjs). Bounded; the oldest key goes first. The key and its thumbprint, or
 * why the jwk is refused.
 */
function keyCache(limit = 1000): KeyFor {
  const keys = new Map<string, { key: CryptoKey; jkt: string }>();
  return async (jose, jwk, alg) => {
    if (jwk.use !== undefined && jwk.use !== "sig") return 'the DPoP proof\'s jwk must have use "sig" when it has one';
    if (jwk.alg !== undefined && jwk.alg !== alg) return "the DPoP proof's jwk names another algorithm than its header";
    const id = keyId(jwk, alg);
    const cached = keys.get(id);
    if (cached) return cached;
    let key: CryptoKey | Uint8Array;
    let jkt: string;
    try {
      key = await jose.importJWK(jwk, alg);
      jkt = await jose.calculateJwkThumbprint(jwk, "sha256");
    } catch {
      return "the DPoP proof's jwk is not a usable public key for its algorithm";
    }
    if (key instanceof Uint8Array || key.type !== "public") return "the DPoP proof's jwk must be a public key";
    if (keys.size >= limit) keys.delete(keys.keys().next().value as string);
    const entry = { key, jkt };
    keys.set(id, entry);
    return entry;
  };
}

/** `ath` of a token (RFC 9449 §4.2). Not cached: a token is kept no longer than its request. */
async function athOf(token: string): Promise<string> {
  return encodeBase64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token))));
}

type ReadProof = { ok: true; payload: Record<string, unknown>; jkt: string } | { ok: false; description: string };

/** RFC 9449 §4.3 steps 1-7: one header, a JWT of type dpop+jwt, an accepted algorithm, a public jwk that verifies it. */
async function readProof(request: Request, algorithms: readonly string[], keyFor: KeyFor): Promise<ReadProof> {
  const jose = await loadJose("dpopVerifier");
  const proofs = request.headers.get("DPoP");
  if (proofs === null) return refused("a DPoP-bound token needs a DPoP proof header");
  // Two headers arrive joined by ", "; a JWT has no comma or space (RFC 9449 §4.3 step 1).
  if (/[,\s]/.test(proofs.trim())) return refused("exactly one DPoP proof is allowed");
  const proof = proofs.trim();
  let header: ReturnType<Jose["decodeProtectedHeader"]>;
  try {
    header = jose.decodeProtectedHeader(proof);
  } catch {
    return refused("the DPoP proof is not a JWT");
  }
  if (header.typ !== "dpop+jwt") return refused('the DPoP proof\'s typ must be "dpop+jwt"');
  if (typeof header.alg !== "string" || !algorithms.includes(header.alg))
    return refused(`the DPoP proof's algorithm must be one of ${algorithms.join(" ")}`);
  const jwk = header.jwk as JWK | undefined;
  if (typeof jwk !== "object" || jwk === null) return refused("the DPoP proof carries no jwk");
  if (PRIVATE_MEMBERS.some((m) => m in jwk)) return refused("the DPoP proof's jwk must be a public key");
  const resolved = await keyFor(jose, jwk, header.alg);
  if (typeof resolved === "string") return refused(resolved);
  try {
    const { payload } = await jose.jwtVerify(proof, resolved.key, { typ: "dpop+jwt", algorithms: [...algorithms] });
    return { ok: true, payload, jkt: resolved.jkt };
  } catch (error) {
    return refused(describe(jose, error));
  }
}

/** The resource server's DPoP check, for `auth.dpop`. */
export function dpopVerifier<Env = unknown>(options: DpopVerifierOptions<Env> = {}): DpopCheck {
  const algorithms = [...(options.algorithms ?? DEFAULT_DPOP_ALGORITHMS)];
  if (algorithms.length === 0 || algorithms.some((a) => a === "none" || a.startsWith("HS"))) {
    throw new TypeError("dpopVerifier: proofs are signed with asymmetric keys only (no none, no HS*)");
  }
  const window = options.windowSeconds ?? 300;
  const keyFor = keyCache();
  const replay = (options.replay ?? memoryReplayStore(options.memoryEntries)) as DpopReplayStore<unknown>;
  const nonces = options.nonce ? nonceIssuer(options.nonce.secret, options.nonce.lifetimeSeconds ?? 300) : undefined;

  /** RFC 9449 §4.3 steps 8-12 and the replay check, on a proof whose signature verified. */
  async function check(request: Request, token: string, env: unknown): Promise<DpopProofResult> {
    const read = await readProof(request, algorithms, keyFor);
    if (!read.ok) return read;
    const { jti, htm, htu, iat, ath, nonce } = read.payload;
    if (typeof jti !== "string" || jti.length === 0 || jti.length > 256) return refused("the DPoP proof has no usable jti");
    if (htm !== request.method) return refused(`the DPoP proof's htm does not name this request's method (${request.method})`);
    if (typeof htu !== "string" || htuOf(htu) === undefined || htuOf(htu) !== htuOf(request.url))
      return refused("the DPoP proof's htu does not name this request's URI");
    const now = Math.floor(Date.now() / 1000);
    if (typeof iat !== "number" || Math.abs(now - iat) > window) return refused("the DPoP proof's iat is outside the accepted window");
    if (nonces && !(await nonces.valid(nonce))) {
      const description = nonce === undefined ? "this resource requires a DPoP nonce" : "the DPoP nonce is not current";
      return { ok: false, description, nonce: await nonces.issue() };
    }
    if (ath !== (await athOf(token))) return refused("the DPoP proof's ath is not the hash of this access token");
    // Last: a proof only counts as used once it is otherwise valid, so forged ones cannot fill the cache.
    if (!(await replay.use(`${read.jkt}:${jti}`, iat + window, env))) return refused("this DPoP proof was already used");
    return { ok: true, jkt: read.jkt };
  }

  return { check, algorithms, required: options.required ?? false };
}
