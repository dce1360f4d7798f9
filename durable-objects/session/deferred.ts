/**
 * deferredSessionObject(edge): the session object class of an edge whose 2025-era sessions get
 * their Durable Object only when they first need state, and the Worker's half of that, which it
 * installs on the edge (docs/sessions.md "When a session gets its object").
 *
 * `initialize` makes no object: the Mcp-Session-Id is `<object id>.<seal>`, the object id minted
 * as for any session and the seal the negotiated state with the time it was issued, encrypted and
 * authenticated (AES-GCM, the object id as associated data) under a key derived from
 * `MCP_STATE_SECRET`. The Worker routes by the object id; the object, while it holds no state,
 * opens the seal of the id the request carries (`confirm`'s argument, or the forwarded
 * Mcp-Session-Id) and adopts the state. Until the session needs state, or its first activity interval has
 * passed, the object writes nothing. A tombstone then has to outlive the seal (SessionCore.rememberUntil):
 * an empty object is how a session whose object was never made looks.
 * A separate factory, so a Worker without deferred sessions bundles none of this.
 */
import type { SessionState } from "../../src/mcp/definition/context";
import { base64url, fromBase64url, secretProblem } from "../../src/mcp/era-2026/request-state";
import type { ResolvedSessionOptions } from "../../src/options";
import { bindingOf, type BoundEdge, type ObjectClass, type SessionSealer } from "../shared/edge-binding";
import { HEADER_SESSION_ID } from "../../src/wire/headers";
import { routeKey } from "../../src/wire/route-params";
import { decodePrincipal, decodeRoute, HEADER_PRINCIPAL, HEADER_ROUTE } from "./contract";
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

/** The Worker's half: `initialize` mints a deferred id (the object id bound as associated data). */
const sealer: SessionSealer = {
  async mint(env, objectId, state) {
    const secret = secretOf(env);
    if (!secret) return undefined;
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const plain = encoder.encode(JSON.stringify({ state, issuedAt: Date.now() } satisfies PendingSession));
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
 * object id (its first 64 characters), or when another principal or another route sent it.
 */
async function openSeal(env: unknown, sessionId: string, owner: Owner): Promise<PendingSession | undefined> {
  const secret = secretOf(env);
  const bytes = fromBase64url(sessionId.slice(65));
  if (!secret || !bytes || bytes.length <= IV_BYTES) return undefined;
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

/**
 * Until when a session whose object was never made lives on its seal alone: its idle timeout from
 * `initialize`, less the slack the alarm's idle expiry allows itself (lifecycle.ts runAlarm), so a
 * session the alarm expired never reads as one that was never made.
 */
function deferredUntil(issuedAt: number, options: ResolvedSessionOptions): number {
  return issuedAt + options.idleTimeoutMs - Math.min(30_000, options.idleTimeoutMs / 10);
}

/**
 * How long such a session may be used before its activity must be recorded (its object made): the
 * activity write interval, or half the idle timeout when that is shorter.
 */
function graceOf(options: ResolvedSessionOptions): number {
  return Math.min(30_000, options.idleTimeoutMs / 2);
}

/**
 * The session object class of an edge with deferred sessions: `export const McpSession =
 * deferredSessionObject(edge)` in place of `sessionObject(edge)`. It also makes the edge's Worker
 * mint deferred ids, when `MCP_STATE_SECRET` is set (without it every session gets its object at
 * `initialize`, as with sessionObject). Sessions created before keep working.
 */
export function deferredSessionObject<Env>(edge: BoundEdge<Env>): ObjectClass<McpSessionObject<Env>, Env> {
  const binding = bindingOf(edge, "deferredSessionObject");
  binding.sealer = sealer;
  return class McpSession extends McpSessionObject<Env> {
    constructor(ctx: DurableObjectState, env: Env) {
      super(ctx, env, binding);
    }

    /** `sessionId`: the client's, whose seal this object opens while it holds no state. */
    override async confirm(subject?: string, route = "", sessionId?: string): Promise<SessionState | null> {
      const adopted = await this.adopt(sessionId, { subject, route });
      if (adopted) {
        // Within its first activity interval a deferred session has nothing to record: no write.
        if (Date.now() - (adopted.issuedAt as number) < graceOf(this.core.options)) return adopted;
        await this.begin(adopted);
      }
      return super.confirm(subject, route);
    }

    /**
     * The first forwarded request of a deferred session makes this object the session's (a
     * DELETE's only in memory: the tombstone it writes is all it stores).
     */
    override async fetch(request: Request): Promise<Response> {
      const { headers } = request;
      const owner = {
        subject: decodePrincipal(headers.get(HEADER_PRINCIPAL))?.subject,
        route: routeKey(decodeRoute(headers.get(HEADER_ROUTE))),
      };
      const adopted = await this.adopt(headers.get(HEADER_SESSION_ID), owner);
      if (adopted && request.method === "DELETE") this.core.state = adopted;
      else if (adopted) await this.begin(adopted);
      return super.fetch(request);
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
      if (held !== undefined) core.rememberUntil = deferredUntil(held, core.options);
      if (core.state !== null || core.terminated || !sessionId?.startsWith(`${this.ctx.id}.`)) return null;
      const pending = await openSeal(this.env, sessionId, owner);
      if (!pending || Date.now() >= deferredUntil(pending.issuedAt, core.options)) return null;
      // The state may have come meanwhile (another request adopted it while this one opened the seal).
      if (core.state !== null || core.terminated) return null;
      core.rememberUntil = deferredUntil(pending.issuedAt, core.options);
      return { ...pending.state, issuedAt: pending.issuedAt };
    }
  };
}
