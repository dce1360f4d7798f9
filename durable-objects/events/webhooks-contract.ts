/**
 * The contract between the Worker's `events/subscribe` / `events/unsubscribe` (src/features/events) and the
 * object that holds an event type's webhook subscriptions (the events object, whose part webhooks.ts keeps
 * them): the calls it answers over Workers RPC and the values they carry. Both sides import this file;
 * neither imports the other. Pure: the subscription key and its derived id live here (canonical JSON of the
 * arguments is the events contract's, contract.ts).
 */

/** The subscription key: who asked, where deliveries go, what they listen for. Immutable for a subscription's life. */
export interface WebhookKey {
  /** The principal's subject (an OAuth `sub`), or the single tenant's name on a server without auth. */
  readonly subject: string;
  /** The callback URL, normalized (`new URL(url).href`). */
  readonly url: string;
  readonly name: string;
  /** The arguments as canonical JSON (keys sorted at every depth), so equal arguments are one key. */
  readonly arguments: string;
}

/** Where delivery starts, as the event type's log tells it (SEP-3415: the subscribe response's `cursor` and `truncated`). */
export interface WebhookPosition {
  readonly cursor: string | null;
  readonly truncated: boolean;
}

export interface WebhookSubscribeInput {
  readonly key: WebhookKey;
  /** The client's `whsec_` secret, already checked (webhooks-signing.ts). */
  readonly secret: string;
  /** The client's suggestion: a number of ms, null to ask for no expiry, undefined for the server's default. */
  readonly ttlMs: number | null | undefined;
  /**
   * Whether deliveries may go to a loopback receiver: only when the server allows it and the subscribe
   * request itself arrived on a loopback host (tests, `wrangler dev`), never on a deployed host.
   */
  readonly loopback: boolean;
  /** The log position the client's cursor names (null: from now); replayed to a new subscription. */
  readonly after: number | null;
  /** No replayed event older than this (ms since the epoch: now − maxAgeMs). */
  readonly since: number | undefined;
  /** An upstream-backed type: the client's upstream cursor (null: from now), where the object's polls start. */
  readonly upstreamCursor?: string | null;
}

/** Why a delivery or a verification failed: the only words a client learns about its endpoint (never its output). */
export type WebhookErrorCategory = "connection_refused" | "timeout" | "tls_error" | "http_4xx" | "http_5xx" | "challenge_failed";

/** SEP-3415's `deliveryStatus` on a refresh. */
interface WebhookDeliveryStatus {
  active: boolean;
  lastDeliveryAt: string | null;
  lastError: WebhookErrorCategory | null;
  failedSince?: string;
}

/** SEP-3415's `events/subscribe` result. */
export interface WebhookSubscribeResult {
  id: string;
  /** ISO 8601 expiry, or null (no expiry: only when the client asked with `ttlMs: null`). */
  refreshBefore: string | null;
  cursor: string | null;
  truncated: boolean;
  /** Present when the call refreshed a subscription that existed. */
  deliveryStatus?: WebhookDeliveryStatus;
}

/** A subscribe either holds, or is refused: the URL (invalid params) or the endpoint's verification (CallbackEndpointError). */
export type WebhookSubscribeOutcome =
  | { ok: true; result: WebhookSubscribeResult }
  | { ok: false; refusal: "invalid-url"; detail: string }
  | { ok: false; refusal: "callback-endpoint"; reason: WebhookErrorCategory }
  | { ok: false; refusal: "limit"; max: number };

/** What the Worker calls on the object holding an event type's webhook subscriptions. */
export interface WebhooksRpc {
  webhookSubscribe(input: WebhookSubscribeInput): Promise<WebhookSubscribeOutcome>;
  /** Removes the subscription under `key`; whether there was one. */
  webhookUnsubscribe(key: WebhookKey): Promise<boolean>;
}

/** Hex digits of the SHA-256 kept in an id: 128 bits, so two keys never meet by chance. */
const ID_HEX_DIGITS = 32;

/** The subscription's id, derived from its key (a truncated SHA-256): a routing handle, never accepted as input. */
export async function subscriptionIdOf(key: WebhookKey): Promise<string> {
  const text = JSON.stringify([key.subject, key.url, key.name, key.arguments]);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  const hex = Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `sub_${hex.slice(0, ID_HEX_DIGITS)}`;
}

/** How an edge's webhook deliveries behave (the `webhooks` option of the events feature, resolved). */
export interface WebhookSettings {
  /** The grant when the client suggests none. */
  readonly defaultTtlMs: number;
  /** The floor a shorter suggestion is clamped up to (SEP-3415's one sanctioned exception). */
  readonly minTtlMs: number;
  /** The longest finite grant. */
  readonly maxTtlMs: number;
  /** Whether `ttlMs: null` is granted no expiry (else it gets `maxTtlMs`). */
  readonly allowNoExpiry: boolean;
  /** The wait before each retry: its length + 1 is the number of attempts. */
  readonly retryDelaysMs: readonly number[];
  /** How long deliveries are signed with the old secret too after a refresh replaced it. */
  readonly rotationGraceMs: number;
  /** The most subscriptions one principal holds to one event type (a refresh of one it holds always passes). */
  readonly maxSubscriptions: number;
}

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  defaultTtlMs: 60 * 60_000,
  minTtlMs: 60_000,
  maxTtlMs: 24 * 60 * 60_000,
  allowNoExpiry: true,
  // Five attempts within about 14 minutes (SEP-3415: "3 to 5 attempts spread over no more than 10 to 15 minutes").
  retryDelaysMs: [30_000, 90_000, 240_000, 480_000],
  rotationGraceMs: 60 * 60_000,
  maxSubscriptions: 100,
};
