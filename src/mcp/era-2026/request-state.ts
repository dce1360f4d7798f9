/**
 * MRTR `requestState` (2026-07-28 basic/patterns/mrtr.mdx "Server requirements"): an
 * integrity-protected token the client echoes on retry. Payload: the principal, method, name,
 * an expiry, a nonce, the answers of earlier rounds and a short fingerprint of the arguments;
 * the MAC (HMAC-SHA-256, WebCrypto, under the `MCP_STATE_SECRET` binding) covers the payload and
 * the canonical arguments, so a state binds the exact arguments without a separate digest (one
 * crypto operation per request). Format: `<payload>.<mac>`, both base64url. There is no
 * built-in key: without a secret no state is minted or accepted.
 */
import type { Params } from "../../jsonrpc/messages";

/** The binding that names the secret; `wrangler secret put MCP_STATE_SECRET` in production. */
export const STATE_SECRET_BINDING = "MCP_STATE_SECRET";
/** A shorter secret is refused: HMAC keys should carry at least 128 bits. */
const MIN_SECRET_LENGTH = 32;

/** What a state is bound to: the same call by the same principal, and nothing else. */
export interface StateBinding {
  subject: string;
  method: string;
  name: string;
  /** The arguments' canonical JSON (canonicalArguments). */
  args: string;
}

interface StatePayload extends Omit<StateBinding, "args"> {
  v: 2;
  exp: number;
  nonce: string;
  answers: Record<string, Params>;
  /** Only for the refusal's wording (the MAC is what binds the arguments): which check failed. */
  argsPrint: string;
}

export type StateCheck = { ok: true; answers: Record<string, Params> } | { ok: false; problem: string };

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const keys = new Map<string, Promise<CryptoKey>>();

/** The runtime's own base64 (V8's Uint8Array base64, in every workerd this package supports; not yet in TypeScript's lib). */
interface Base64Bytes {
  toBase64(options: { alphabet: "base64url"; omitPadding: boolean }): string;
}
interface Base64Decoder {
  fromBase64(text: string, options: { alphabet: "base64url" }): Uint8Array;
}

/** Also a deferred session's seal (durable-objects/sessions/deferred.ts). */
export function base64url(bytes: Uint8Array): string {
  return (bytes as unknown as Base64Bytes).toBase64({ alphabet: "base64url", omitPadding: true });
}

export function fromBase64url(text: string): Uint8Array | undefined {
  // fromBase64 would skip whitespace and accept padding: a state has neither.
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    return (Uint8Array as unknown as Base64Decoder).fromBase64(text, { alphabet: "base64url" });
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
function canonical(root: unknown): string {
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

/** A request's arguments as a state binds them: JSON with sorted keys, so key order does not matter. */
export function canonicalArguments(args: unknown): string {
  return canonical(args ?? {});
}

/** Length and FNV-1a of the canonical arguments: tells "other arguments" from "tampered" in a refusal. Not a security check. */
function argsPrint(args: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < args.length; i++) hash = Math.imul(hash ^ args.charCodeAt(i), 0x01000193);
  return `${args.length.toString(36)}.${(hash >>> 0).toString(36)}`;
}

/** What the MAC covers: the encoded payload and the canonical arguments (a payload never holds a "."). */
function signedBytes(body: string, args: string): Uint8Array {
  return encoder.encode(`${body}.${args}`);
}

/** Mints a state carrying `answers`, valid for `validity.ttlMs` from `validity.now` (default: now). */
export async function signState(
  secret: string,
  binding: StateBinding,
  answers: Record<string, Params>,
  validity: { ttlMs: number; now?: number },
): Promise<string> {
  const { ttlMs, now = Date.now() } = validity;
  const nonce = base64url(crypto.getRandomValues(new Uint8Array(12)));
  const { subject, method, name, args } = binding;
  // Named fields, not a rest copy of the binding: docs/engine-notes.md "Keyed stores, not computed keys"
  const payload: StatePayload = { v: 2, subject, method, name, exp: now + ttlMs, nonce, answers, argsPrint: argsPrint(args) };
  const body = base64url(encoder.encode(JSON.stringify(payload)));
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await keyFor(secret), signedBytes(body, args)));
  return `${body}.${base64url(mac)}`;
}

const OTHER_REQUEST = "requestState belongs to another request (method, name or arguments differ)";

function decodePayload(body: string): StatePayload | undefined {
  const bytes = fromBase64url(body);
  if (bytes === undefined) return undefined;
  try {
    const payload = JSON.parse(decoder.decode(bytes)) as unknown;
    return typeof payload === "object" && payload !== null && (payload as { v?: unknown }).v === 2 ? (payload as StatePayload) : undefined;
  } catch {
    return undefined;
  }
}

/** Verifies a state's MAC (constant time, by WebCrypto), expiry and binding; returns the answers it carries. */
export async function verifyState(secret: string, state: string, binding: StateBinding, now = Date.now()): Promise<StateCheck> {
  const [body, mac, extra] = state.split(".");
  const macBytes = mac === undefined ? undefined : fromBase64url(mac);
  if (body === undefined || macBytes === undefined || extra !== undefined) return { ok: false, problem: "requestState is malformed" };
  const valid = await crypto.subtle.verify("HMAC", await keyFor(secret), macBytes, signedBytes(body, binding.args));
  const payload = decodePayload(body);
  if (!valid) {
    // The payload is unverified here: it only chooses the refusal's wording.
    const otherArgs = payload !== undefined && payload.argsPrint !== argsPrint(binding.args);
    return { ok: false, problem: otherArgs ? OTHER_REQUEST : "requestState failed its integrity check" };
  }
  if (payload === undefined) return { ok: false, problem: "requestState is malformed" };
  if (!(payload.exp > now)) return { ok: false, problem: "requestState expired; send the request again without it" };
  if (payload.subject !== binding.subject) return { ok: false, problem: "requestState was issued to another principal" };
  if (payload.method !== binding.method || payload.name !== binding.name) return { ok: false, problem: OTHER_REQUEST };
  return { ok: true, answers: payload.answers };
}
