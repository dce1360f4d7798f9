// Types of webhook-receiver.mjs ("mcp-edge/testing/receiver"): a webhook receiver for tests, in Node.
import type { ReceivedWebhook, ReceiverScript, WebhookReceiverHandle } from "./webhooks";

export type { ReceivedWebhook, ReceiverScript, WebhookReceiverHandle };

export interface WebhookReceiverOptions {
  /** Path prefixes published in /.well-known/mcp-webhook-receiver.json (default: none, so servers send a challenge). */
  wellKnownReceivers?: readonly string[];
  /** The port (default: a free one). */
  port?: number;
}

export interface WebhookReceiver extends WebhookReceiverHandle {
  /** Everything received so far, oldest first. */
  readonly deliveries: readonly ReceivedWebhook[];
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 that trusts a fresh secret (`receiver.secret`). */
export function startWebhookReceiver(options?: WebhookReceiverOptions): Promise<WebhookReceiver>;
/** A Standard Webhooks secret: whsec_ and the base64 of 32 random bytes. */
export function newWebhookSecret(): string;
/** Whether a `v1,` entry of `header` is the HMAC-SHA256 of `id.timestamp.body` under `secret`. */
export function verifySignature(secret: string, header: string, id: string, timestamp: string, body: string): boolean;
