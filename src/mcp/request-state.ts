/**
 * MRTR `requestState` (2026-07-28 basic/patterns/mrtr.mdx "Server requirements"): an
 * integrity-protected token the client echoes on retry. Payload: the principal, method, name,
 * a digest of the arguments, an expiry, a nonce and the answers of earlier rounds; signed with
 * HMAC-SHA-256 (WebCrypto) under the `MCP_STATE_SECRET` binding. Format: `<payload>.<mac>`,
 * both base64url. There is no built-in key: without a secret no state is minted or accepted.
 */
import type { Params } from "../jsonrpc/messages";

/** The binding that names the secret; `wrangler secret put MCP_STATE_SECRET` in production. */
export const STATE_SECRET_BINDING = "MCP_STATE_SECRET";
/** A shorter secret is refused: HMAC keys should carry at least 128 bits. */
export const MIN_SECRET_LENGTH = 32;

/** What a state is bound to: the same call by the same principal, and nothing else. */
export interface StateBinding {
  subject: string;
  method: string;
  name: string;
  argsDigest: string;
}

interface StatePayload extends StateBinding {
  v: 1;
  exp: number;
  nonce: string;
  answers: Record<string, Params>;
}

export type StateCheck = { ok: true; answers: Record<string, Params> } | { ok: false; problem: string };

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    return Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** How to set the secret, for every message that reports it missing or too short. */
const SECRET_FIX =
  `Generate one with \`openssl rand -hex 32\`. Locally: put ${STATE_SECRET_BINDING}=<that value> in .dev.vars beside wrangler.toml ` +
  `and restart \`wrangler dev\` (it reads .dev.vars only when it starts). Deployed: \`wrangler secret put ${STATE_SECRET_BINDING}\`.`;

/** Why a secret cannot sign states (with how to fix it), or undefined when it can. Never echoes the value. */
export function secretProblem(secret: unknown): string | undefined {
  if (typeof secret !== "string" || secret.length === 0) {
    return `the ${STATE_SECRET_BINDING} secret is not set (it needs at least ${MIN_SECRET_LENGTH} characters). ${SECRET_FIX}`;
  }
  if (secret.length < MIN_SECRET_LENGTH) {
    return `the ${STATE_SECRET_BINDING} secret is too short: it needs at least ${MIN_SECRET_LENGTH} characters. ${SECRET_FIX}`;
  }
  return undefined;
}

function keyFor(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    keys.set(secret, key);
  }
  return key;
}

/** Literal text in canonical()'s work list (anything else on it is a value still to write). */
class Text {
  constructor(readonly text: string) {}
}

/**
 * JSON with object keys sorted, so equal arguments digest equally whatever their key order.
 * Iterative (an explicit work list, not one stack frame per level): the arguments are the
 * client's, and their depth must not decide whether the Worker's stack holds.
 */
export function canonical(root: unknown): string {
  const out: string[] = [];
  const work: unknown[] = [root];
  while (work.length > 0) {
    const value = work.pop();
    if (value instanceof Text) {
      out.push(value.text);
    } else if (Array.isArray(value)) {
      work.push(new Text("]"));
      for (let i = value.length - 1; i >= 0; i--) {
        work.push(value[i]);
        if (i > 0) work.push(new Text(","));
      }
      out.push("[");
    } else if (typeof value === "object" && value !== null) {
      const keys = Object.keys(value).sort();
      work.push(new Text("}"));
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        work.push((value as Record<string, unknown>)[key]);
        work.push(new Text(`${i > 0 ? "," : ""}${JSON.stringify(key)}:`));
      }
      out.push("{");
    } else {
      out.push(JSON.stringify(value) ?? "null");
    }
  }
  return out.join("");
}

/** SHA-256 of the canonical JSON of a request's arguments. */
export async function digestArguments(args: unknown): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(canonical(args ?? {})))));
}

/** Mints a state carrying `answers`, valid for `ttlMs`. */
export async function signState(
  secret: string,
  binding: StateBinding,
  answers: Record<string, Params>,
  ttlMs: number,
  now = Date.now(),
): Promise<string> {
  const nonce = base64url(crypto.getRandomValues(new Uint8Array(12)));
  const payload: StatePayload = { v: 1, ...binding, exp: now + ttlMs, nonce, answers };
  const body = base64url(encoder.encode(JSON.stringify(payload)));
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await keyFor(secret), encoder.encode(body)));
  return `${body}.${base64url(mac)}`;
}

/** Verifies a state's MAC (constant time, by WebCrypto), expiry and binding; returns the answers it carries. */
export async function verifyState(secret: string, state: string, binding: StateBinding, now = Date.now()): Promise<StateCheck> {
  const [body, mac, extra] = state.split(".");
  const macBytes = mac === undefined ? undefined : fromBase64url(mac);
  if (body === undefined || macBytes === undefined || extra !== undefined) return { ok: false, problem: "requestState is malformed" };
  const valid = await crypto.subtle.verify("HMAC", await keyFor(secret), macBytes, encoder.encode(body));
  if (!valid) return { ok: false, problem: "requestState failed its integrity check" };
  let payload: StatePayload;
  try {
    payload = JSON.parse(new TextDecoder().decode(fromBase64url(body))) as StatePayload;
  } catch {
    return { ok: false, problem: "requestState is malformed" };
  }
  if (!(payload.exp > now)) return { ok: false, problem: "requestState expired; send the request again without it" };
  if (payload.subject !== binding.subject) return { ok: false, problem: "requestState was issued to another principal" };
  if (payload.method !== binding.method || payload.name !== binding.name || payload.argsDigest !== binding.argsDigest) {
    return { ok: false, problem: "requestState belongs to another request (method, name or arguments differ)" };
  }
  return { ok: true, answers: payload.answers };
}
