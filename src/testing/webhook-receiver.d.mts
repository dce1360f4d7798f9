// Types of webhook-receiver.mjs ("mcp-edge/testing/receiver"): a webhook receiver for tests, in Node. Self-contained
// (this subpath ships no compiled TypeScript); the same shapes as src/testing/webhooks.ts, which a type test holds
// equal (test/events/webhooks-helpers.ts).

/** One POST the receiver got, with its signature verified against the secrets it trusts. */
export interface ReceivedWebhook {
  readonly path: string;
  readonly webhookId: string | null;
  readonly timestamp: string | null;
  readonly signature: string | null;
  readonly subscriptionId: string | null;
  readonly contentType: string | null;
  readonly body: string;
  readonly verified: boolean;
  readonly signedBy: readonly string[];
  readonly type: string | null;
  readonly status: number;
}

/** How the receiver answers the next POSTs to one path. */
export interface ReceiverScript {
  readonly path: string;
  readonly statuses?: readonly number[];
  readonly wrongChallenge?: boolean;
  readonly redirectTo?: string;
}

export interface WebhookReceiverOptions {
  /** Path prefixes published in /.well-known/mcp-webhook-receiver.json (default: none, so servers send a challenge). */
  wellKnownReceivers?: readonly string[];
  /** The port (default: a free one). */
  port?: number;
}

export interface WebhookReceiver {
  /** Its base URL (`http://127.0.0.1:<port>`); deliveries go to `hookUrl(name)`. */
  readonly url: string;
  /** A secret it trusts, for subscriptions made in the test. */
  readonly secret: string;
  /** Everything received so far, oldest first. */
  readonly deliveries: readonly ReceivedWebhook[];
  hookUrl(name: string): string;
  /** The POSTs received on `path` (every path when omitted), once at least `count` have arrived (bounded wait). */
  received(options?: { path?: string; count?: number; timeoutMs?: number }): Promise<ReceivedWebhook[]>;
  script(script: ReceiverScript): Promise<void>;
  /** Trusts one more secret (a rotation's new one). */
  trust(secret: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 that trusts a fresh secret (`receiver.secret`). */
export function startWebhookReceiver(options?: WebhookReceiverOptions): Promise<WebhookReceiver>;
/** A Standard Webhooks secret: whsec_ and the base64 of 32 random bytes. */
export function newWebhookSecret(): string;
/** Whether a `v1,` entry of `header` is the HMAC-SHA256 of `id.timestamp.body` under `secret`. */
export function verifySignature(secret: string, header: string, id: string, timestamp: string, body: string): boolean;
