/**
 * Deferred sessions (`deferredSessions()`): the session object class of an edge whose 2025-era
 * sessions get their Durable Object only when they first need state (`deferredSessionClass(kernel)`), and
 * the Worker's half of that, the sealer the feature puts in the kernel's `sealer` seam
 * (docs/sessions.md "When a session gets its object"). The deprecated `deferredSessionObject(edge)` is in
 * src/features/sessions/session-object.ts.
 *
 * `initialize` makes no object: the Mcp-Session-Id is `<object id>.<seal>`, the object id minted
 * as for any session and the seal the negotiated state with the time it was issued, encrypted and
 * authenticated (AES-GCM, the object id as associated data) under a key derived from
 * `MCP_STATE_SECRET`. The Worker routes by the object id; the object, while it holds no state,
 * opens the seal of the id the request carries (`confirm`'s argument, or the forwarded
 * Mcp-Session-Id) and adopts the state. Until the session needs state, or its first activity interval has
 * passed, the object writes nothing. A tombstone then has to outlive the seal (SessionCore.rememberUntil):
 * an empty object is how a session whose object was never made looks. Once adopted, the object keeps
 * the SHA-256 of the id (SessionCore.sealHash), and every later request must carry that id.
 * A state too large to seal (a client that declares kilobytes of capabilities) is not deferred: its
 * session gets its object at `initialize`, and its id is the object id.
 * A separate factory, so a Worker without deferred sessions bundles none of this.
 */
import type { SessionState } from "../../src/mcp/definition/context";
import { base64url, fromBase64url, secretProblem } from "../../src/mcp/era-2026/request-state";
import type { ResolvedSessionOptions } from "../../src/kernel/options";
import type { EdgeBinding, ObjectClass, SessionSealer } from "../shared/edge-binding";
import { HEADER_SESSION_ID } from "../../src/wire/headers";
import { refuse } from "../../src/wire/refusals";
import { routeKey } from "../../src/wire/route-params";
import { decodePrincipal, decodeRoute, HEADER_PRINCIPAL, HEADER_ROUTE, LEGACY_OPEN_URL, LEGACY_POST_URL } from "./contract";
import { sealedUntil } from "./lifecycle";
import { McpSessionObject } from "./mcp-session";

/** What a deferred session id's seal holds: the state `initialize` negotiated, and when. */
interface PendingSession {
  state: SessionState;
  issuedAt: number;
}

/** Who a request comes from: the principal's subject (none without auth) and the route key. */
interface Owner {
  subject: string | undefined;
  route: string;
}

const IV_BYTES = 12;
/** AES-GCM's authentication tag, after the ciphertext. */
const TAG_BYTES = 16;
/**
 * The most a seal holds (the JSON of the state and its time). Ordinary clients need 100 to 300
 * bytes; what can grow is the client's declared capabilities and info, and a session whose state is
 * larger gets its object at `initialize` (docs/sessions.md), so no id outgrows a header.
 */
const MAX_SEALED_BYTES = 1024;
/** The longest id mint makes (1,468 characters): the object id, ".", and the base64url of IV, sealed state and tag. */
const MAX_SEALED_ID_LENGTH = 65 + Math.ceil(((IV_BYTES + MAX_SEALED_BYTES + TAG_BYTES) * 4) / 3);
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const keys = new Map<string, Promise<CryptoKey>>();

/** Its own key (a digest of a label and the secret): a session seal never opens as an MRTR state, nor the reverse. */
function keyFor(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle
      .digest("SHA-256", encoder.encode(`mcp-edge session seal\0${secret}`))
      .then((raw) => crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]));
    keys.set(secret, key);
  }
  return key;
}

/** The secret that seals ids, or undefined when none is usable (then sessions get their object at once). */
function secretOf(env: unknown): string | undefined {
  const secret = (env as { MCP_STATE_SECRET?: unknown } | undefined)?.MCP_STATE_SECRET;
  return secretProblem(secret) === undefined ? (secret as string) : undefined;
}

/**
 * The Worker's half: `initialize` mints a deferred id (the object id bound as associated data);
 * none without a usable secret, or for a state larger than MAX_SEALED_BYTES (either way the Worker
 * makes the session's object now).
 */
export const SESSION_SEALER: SessionSealer = {
  async mint(env, objectId, state) {
    const secret = secretOf(env);
    if (!secret) return undefined;
    const plain = encoder.encode(JSON.stringify({ state, issuedAt: Date.now() } satisfies PendingSession));
    if (plain.byteLength > MAX_SEALED_BYTES) return undefined;
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const algorithm = { name: "AES-GCM", iv, additionalData: encoder.encode(objectId) };
    const cipher = await crypto.subtle.encrypt(algorithm, await keyFor(secret), plain);
    const bytes = new Uint8Array(IV_BYTES + cipher.byteLength);
    bytes.set(iv);
    bytes.set(new Uint8Array(cipher), IV_BYTES);
    return `${objectId}.${base64url(bytes)}`;
  },
};

/**
 * What a deferred session id carries, or undefined when it is not one this secret sealed for its
 * object id (its first 64 characters), or when another principal or another route sent it. An id
 * longer than any mint makes is refused unread.
 */
async function openSeal(env: unknown, sessionId: string, owner: Owner): Promise<PendingSession | undefined> {
  const secret = secretOf(env);
  if (!secret || sessionId.length > MAX_SEALED_ID_LENGTH) return undefined;
  const bytes = fromBase64url(sessionId.slice(65));
  if (!bytes || bytes.length <= IV_BYTES) return undefined;
  let pending: PendingSession;
  try {
    const algorithm = { name: "AES-GCM", iv: bytes.subarray(0, IV_BYTES), additionalData: encoder.encode(sessionId.slice(0, 64)) };
    const plain = await crypto.subtle.decrypt(algorithm, await keyFor(secret), bytes.subarray(IV_BYTES));
    // Authenticated: only this code under this secret wrote it.
    pending = JSON.parse(decoder.decode(plain)) as PendingSession;
  } catch {
    // Altered, another secret's, or sealed for another object.
    return undefined;
  }
  const { subject, route = "" } = pending.state;
  return subject === owner.subject && route === owner.route ? pending : undefined;
}

/** The SHA-256 of a session id: what an object that adopted a deferred session keeps of its id. */
async function digestOf(sessionId: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(sessionId)));
}

/**
 * How long such a session may be used before its activity must be recorded (its object made): the
 * activity write interval, or half the idle timeout when that is shorter.
 */
function graceOf(options: ResolvedSessionOptions): number {
  return Math.min(30_000, options.idleTimeoutMs / 2);
}

/** The deferred session object class bound to `kernel` (`deferredSessions()`). */
export function deferredSessionClass<Env>(kernel: EdgeBinding<Env>): ObjectClass<McpSessionObject<Env>, Env> {
  return class McpSession extends DeferredSessionObject<Env> {
    constructor(ctx: DurableObjectState, env: Env) {
      super(ctx, env, kernel);
    }
  };
}

/** What the deferred sessions' class adds to a session object: adopting a sealed state, and the seal as the credential. */
class DeferredSessionObject<Env> extends McpSessionObject<Env> {
  /**
   * `sessionId`: the client's, whose seal this object opens while it holds no state, and which
   * must be the session's own id once it holds one.
   */
  override async confirm(subject?: string, route = "", sessionId?: string): Promise<SessionState | null> {
    const owner = { subject, route };
    const adopted = await this.adopt(sessionId, owner);
    if (adopted) {
      // Within its first activity interval a deferred session has nothing to record: no write.
      if (Date.now() - (adopted.issuedAt as number) < graceOf(this.core.options)) return adopted;
      await this.begin(adopted, base64url(await digestOf(sessionId as string)));
    } else if (!(await this.carriesItsId(sessionId, owner))) return null;
    return super.confirm(subject, route);
  }

  /**
   * The first forwarded request of a deferred session makes this object the session's (a
   * DELETE's only in memory: the tombstone it writes is all it stores); any later one must carry
   * the session's own id. (The 2024-11-05 transport's requests name their session otherwise.)
   */
  override async fetch(request: Request): Promise<Response> {
    if (request.url === LEGACY_OPEN_URL || request.url === LEGACY_POST_URL) return super.fetch(request);
    const { headers } = request;
    const owner = {
      subject: decodePrincipal(headers.get(HEADER_PRINCIPAL))?.subject,
      route: routeKey(decodeRoute(headers.get(HEADER_ROUTE))),
    };
    const sessionId = headers.get(HEADER_SESSION_ID);
    const adopted = await this.adopt(sessionId, owner);
    if (adopted && request.method === "DELETE") this.core.state = adopted;
    else if (adopted) await this.begin(adopted, base64url(await digestOf(sessionId as string)));
    else if (!(await this.carriesItsId(sessionId, owner))) return refuse({ reason: "session-not-found" });
    return super.fetch(request);
  }

  /**
   * Whether a request for the session this object holds carries the session's own id: for a
   * deferred session, the sealed id it was adopted with (its SHA-256 against the one stored, in
   * constant time), never the bare object id, another session's seal or an altered one; for any
   * other, the object id itself (no id at all: a call from the Worker's own code, such as a test's).
   */
  private async carriesItsId(sessionId: string | null | undefined, owner: Owner): Promise<boolean> {
    const { state, sealHash } = this.core;
    if (state === null) return true;
    if (sealHash !== undefined) {
      if (!sessionId) return false;
      const expected = fromBase64url(sealHash);
      // A stored hash that does not decode (never written so) matches nothing.
      return expected !== undefined && crypto.subtle.timingSafeEqual(await digestOf(sessionId), expected);
    }
    // Adopted by a version that kept no hash: the seal is opened instead.
    if (state.issuedAt !== undefined) return !!sessionId && (await openSeal(this.env, sessionId, owner)) !== undefined;
    return sessionId == null || sessionId === this.ctx.id.toString();
  }

  /**
   * A deferred session's state as this object should take it, from the seal of `sessionId` (an
   * id of this object's); null when the object holds a state, the session ended, the seal does not
   * open for `owner`, or it outlived the idle timeout. A deferred session this object holds gets
   * its tombstone's lifetime (SessionCore.rememberUntil) here too, after a restart as well.
   */
  private async adopt(sessionId: string | null | undefined, owner: Owner): Promise<SessionState | null> {
    const core = this.core;
    const held = core.state?.issuedAt;
    if (held !== undefined) core.rememberUntil = sealedUntil(held, core.options);
    if (core.state !== null || core.terminated || !sessionId?.startsWith(`${this.ctx.id}.`)) return null;
    const pending = await openSeal(this.env, sessionId, owner);
    if (!pending || Date.now() >= sealedUntil(pending.issuedAt, core.options)) return null;
    // The state may have come meanwhile (another request adopted it while this one opened the seal).
    if (core.state !== null || core.terminated) return null;
    core.rememberUntil = sealedUntil(pending.issuedAt, core.options);
    return { ...pending.state, issuedAt: pending.issuedAt };
  }
}
