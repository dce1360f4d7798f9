/**
 * Standard Webhooks signatures as MCP webhook delivery profiles them (SEP-3415 "Signature scheme"): the
 * client's `whsec_` secret checked and decoded, `v1,<base64 HMAC-SHA256(id.timestamp.body)>` made with one
 * key or several (dual-signing during a rotation). Pure Web Crypto. The test kit's receiver verifies with its
 * own code (node:crypto), so a test checks this against an independent implementation.
 */

const SECRET_PREFIX = "whsec_";
/** SEP-3415: "base64 that decodes to 24 to 64 bytes". */
const MIN_SECRET_BYTES = 24;
const MAX_SECRET_BYTES = 64;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A checked secret: the string as given (what the subscription keeps) and the key it decodes to. */
export type SecretCheck = { ok: true; secret: string; key: Uint8Array<ArrayBuffer> } | { ok: false; reason: string };

/** The signing key of a `delivery.secret`, or why the value is not a Standard Webhooks symmetric secret. */
export function parseWebhookSecret(value: unknown): SecretCheck {
  if (typeof value !== "string")
    return { ok: false, reason: "delivery.secret is required: a string whsec_<base64 of 24 to 64 random bytes>" };
  if (!value.startsWith(SECRET_PREFIX))
    return { ok: false, reason: 'delivery.secret must start with "whsec_" (a Standard Webhooks secret)' };
  const encoded = value.slice(SECRET_PREFIX.length);
  if (encoded.length === 0 || !BASE64.test(encoded)) return { ok: false, reason: "delivery.secret: the part after whsec_ is not base64" };
  const key = decodeBase64(encoded);
  if (key.length < MIN_SECRET_BYTES || key.length > MAX_SECRET_BYTES)
    return {
      ok: false,
      reason: `delivery.secret decodes to ${key.length} bytes; it must be ${MIN_SECRET_BYTES} to ${MAX_SECRET_BYTES} random bytes`,
    };
  return { ok: true, secret: value, key };
}

/** A fresh secret for a client or a test: `whsec_` and the base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + encodeBase64(crypto.getRandomValues(new Uint8Array(32)));
}

/** What a delivery's three Standard Webhooks headers sign. */
export interface SignedContent {
  /** `webhook-id`: the event's `eventId`, or `msg_<type>_<random>` for a control envelope. */
  readonly id: string;
  /** `webhook-timestamp`: Unix seconds of this attempt. */
  readonly timestamp: number;
  /** The raw request body, exactly as sent. */
  readonly body: string;
}

/** The `webhook-signature` value: one `v1,<base64>` per key, space-separated (the newest key first). */
export async function signWebhook(keys: readonly Uint8Array<ArrayBuffer>[], content: SignedContent): Promise<string> {
  const message = new Uint8Array(new TextEncoder().encode(`${content.id}.${content.timestamp}.${content.body}`));
  const signatures = await Promise.all(keys.map(async (key) => `v1,${encodeBase64(await hmac(key, message))}`));
  return signatures.join(" ");
}

/** String equality whose time depends on the lengths only, not on where the texts differ (a challenge echo, a signature). */
export function equalInConstantTime(a: string, b: string): boolean {
  const left = new TextEncoder().encode(a);
  const right = new TextEncoder().encode(b);
  let difference = left.length ^ right.length;
  for (let i = 0; i < left.length; i++) difference |= left[i]! ^ (right[i % Math.max(right.length, 1)] ?? 0);
  return difference === 0;
}

async function hmac(key: Uint8Array<ArrayBuffer>, message: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const cryptoKey = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, message));
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
