/**
 * deferredSessionObject(edge): the session object class of an edge whose 2025-era sessions get
 * their Durable Object only when they first need state, and the Worker's half of that, which it
 * installs on the edge (docs/sessions.md "When a session gets its object").
 *
 * `initialize` makes no object: the Mcp-Session-Id is `<object id>.<seal>`, the object id minted
 * as for any session and the seal the negotiated state with the time it was issued, encrypted and
 * authenticated (AES-GCM, the object id as associated data) under a key derived from
 * `MCP_STATE_SECRET`. The Worker opens the seal on every request (a forged one wakes nothing) and
 * hands the state to `confirm`; a forwarded request carries the id, whose seal the object opens
 * itself. The object adopts the state when it holds none. Until the session needs state, or its first activity interval has
 * passed, the object writes nothing. A tombstone then has to outlive the seal (SessionCore.rememberUntil):
 * an empty object is how a session whose object was never made looks.
 * A separate factory, so a Worker without deferred sessions bundles none of this.
 */
import type { SessionState } from "../../src/mcp/definition/context";
import { base64url, fromBase64url, secretProblem } from "../../src/mcp/era-2026/request-state";
import type { ResolvedSessionOptions } from "../../src/options";
import { bindingOf, type BoundEdge, type ObjectClass, type PendingSession, type SessionSealer } from "../shared/edge-binding";
import { HEADER_SESSION_ID } from "../../src/wire/headers";
import { routeKey } from "../../src/wire/route-params";
import { decodePrincipal, decodeRoute, HEADER_PRINCIPAL, HEADER_ROUTE } from "./contract";
import { McpSessionObject } from "./mcp-session";

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

const sealer: SessionSealer = {
  async mint(env, objectId, state) {
    const secret = secretOf(env);
    if (!secret) return undefined;
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const plain = encoder.encode(JSON.stringify({ state, issuedAt: Date.now() } satisfies PendingSession));
    const cipher = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: encoder.encode(objectId) },
      await keyFor(secret),
      plain,
    );
    const bytes = new Uint8Array(IV_BYTES + cipher.byteLength);
    bytes.set(iv);
    bytes.set(new Uint8Array(cipher), IV_BYTES);
    return `${objectId}.${base64url(bytes)}`;
  },
  async open(env, sessionId, owner) {
    const secret = secretOf(env);
    const objectId = sessionId.slice(0, 64);
    const bytes = sessionId[64] === "." ? fromBase64url(sessionId.slice(65)) : undefined;
    if (!secret || !bytes || bytes.length <= IV_BYTES) return undefined;
    let pending: PendingSession;
    try {
      const iv = bytes.subarray(0, IV_BYTES);
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv, additionalData: encoder.encode(objectId) },
        await keyFor(secret),
        bytes.subarray(IV_BYTES),
      );
      // Authenticated: only this code under this secret wrote it.
      pending = JSON.parse(decoder.decode(plain)) as PendingSession;
    } catch {
      // Altered, another secret's, or sealed for another object.
      return undefined;
    }
    const { subject, route = "" } = pending.state;
    return !owner || (subject === owner.subject && route === owner.route) ? pending : undefined;
  },
};

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

    /** A deferred session's state as this object should take it: null when it holds one, the session ended, or the seal outlived the idle timeout. */
    private adoptable(pending: PendingSession | undefined): SessionState | null {
      const core = this.core;
      const state = core.state;
      // A deferred session this object already holds: its tombstone will have to outlive its seal.
      if (state?.issuedAt !== undefined) core.rememberUntil = deferredUntil(state.issuedAt, core.options);
      if (!pending || state !== null || core.terminated || Date.now() >= deferredUntil(pending.issuedAt, core.options)) return null;
      core.rememberUntil = deferredUntil(pending.issuedAt, core.options);
      return { ...pending.state, issuedAt: pending.issuedAt };
    }

    override async confirm(subject?: string, route = "", pending?: PendingSession): Promise<SessionState | null> {
      const adopted = this.adoptable(pending);
      if (adopted) {
        // Within its first activity interval a deferred session has nothing to record: no write.
        if (Date.now() - pending!.issuedAt < graceOf(this.core.options)) {
          return adopted.subject === subject && (adopted.route ?? "") === route ? adopted : null;
        }
        await this.begin(adopted);
      }
      return super.confirm(subject, route);
    }

    /**
     * The first forwarded request of a deferred session makes this object the session's (a
     * DELETE's only in memory: its tombstone is all it stores). The object opens the seal of the
     * forwarded Mcp-Session-Id itself, for the principal and route the Worker forwarded.
     */
    override async fetch(request: Request): Promise<Response> {
      const sessionId = request.headers.get(HEADER_SESSION_ID);
      if (this.core.state === null && !this.core.terminated && sessionId?.startsWith(`${this.ctx.id}.`)) {
        const owner = {
          subject: decodePrincipal(request.headers.get(HEADER_PRINCIPAL))?.subject,
          route: routeKey(decodeRoute(request.headers.get(HEADER_ROUTE))),
        };
        const adopted = this.adoptable(await sealer.open(this.env, sessionId, owner));
        if (adopted && request.method === "DELETE") this.core.state = adopted;
        else if (adopted) await this.begin(adopted);
      }
      return super.fetch(request);
    }
  };
}
