/**
 * mcp-edge/testing's side of webhook delivery, for a test inside workerd or in Node: subscribe a webhook
 * through a test client, and read what a webhook receiver got (`startWebhookReceiver` from
 * mcp-edge/testing/receiver runs it in Node; a workerd test reaches it over HTTP with
 * `connectWebhookReceiver(url)`). What the receiver records is the same record either way.
 */
import type { TestClient } from "./index";

/** One POST the receiver got, with its signature verified against the secrets it trusts. */
export interface ReceivedWebhook {
  /** The URL path it was POSTed to (`/hooks/…`). */
  readonly path: string;
  readonly webhookId: string | null;
  readonly timestamp: string | null;
  readonly signature: string | null;
  /** `X-MCP-Subscription-Id`. */
  readonly subscriptionId: string | null;
  readonly contentType: string | null;
  /** The raw body, exactly as received. */
  readonly body: string;
  /** Whether a `v1,` signature in `webhook-signature` verifies under any trusted secret, over the raw body. */
  readonly verified: boolean;
  /** The trusted secrets whose signature is in the header (two during a rotation). */
  readonly signedBy: readonly string[];
  /** A control envelope's `type` ("verification", "gap", "terminated"), or null for an event. */
  readonly type: string | null;
  /** The status the receiver answered. */
  readonly status: number;
}

/** How the receiver answers the next POSTs to one path: statuses in order (then 200), or a wrong challenge echo. */
export interface ReceiverScript {
  readonly path: string;
  /** Statuses for the next POSTs (events and envelopes alike, the verification excepted), in order. */
  readonly statuses?: readonly number[];
  /** Answer the verification challenge with something else than the challenge. */
  readonly wrongChallenge?: boolean;
  /** The `Location` of a scripted 3xx (a server must not follow it). */
  readonly redirectTo?: string;
}

/** A running receiver, as a test reads and steers it. */
export interface WebhookReceiverHandle {
  /** Its base URL (`http://127.0.0.1:<port>`); deliveries go to `hookUrl(name)`. */
  readonly url: string;
  /** A secret it trusts, for subscriptions made in the test. */
  readonly secret: string;
  hookUrl(name: string): string;
  /** The POSTs received on `path` (every path when omitted), once at least `count` have arrived (bounded wait). */
  received(options?: { path?: string; count?: number; timeoutMs?: number }): Promise<ReceivedWebhook[]>;
  /** Scripts the answers to the next POSTs on a path. */
  script(script: ReceiverScript): Promise<void>;
  /** Trusts one more secret (a rotation's new one). */
  trust(secret: string): Promise<void>;
}

/** The receiver's control routes (under its own origin, never a hook path). */
const RECEIVER_CONTROL = "/__mcp-edge-receiver";

/** A receiver started in Node (a vitest globalSetup, an e2e test), driven from a workerd test over HTTP. */
export async function connectWebhookReceiver(url: string): Promise<WebhookReceiverHandle> {
  const base = url.replace(/\/$/, "");
  const info = (await (await fetch(`${base}${RECEIVER_CONTROL}/info`)).json()) as { secret: string };
  return {
    url: base,
    secret: info.secret,
    hookUrl: (name) => `${base}/hooks/${name}`,
    async received(options = {}) {
      const query = new URLSearchParams();
      if (options.path !== undefined) query.set("path", options.path);
      query.set("count", String(options.count ?? 0));
      query.set("timeoutMs", String(options.timeoutMs ?? 10_000));
      const response = await fetch(`${base}${RECEIVER_CONTROL}/received?${query}`);
      if (!response.ok) throw new Error(`webhook receiver: ${await response.text()}`);
      return (await response.json()) as ReceivedWebhook[];
    },
    async script(script) {
      await post(`${base}${RECEIVER_CONTROL}/script`, script);
    },
    async trust(secret) {
      await post(`${base}${RECEIVER_CONTROL}/trust`, { secret });
    },
  };
}

async function post(url: string, body: unknown): Promise<void> {
  const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`webhook receiver: ${url} answered ${response.status}`);
}

/** What `subscribeWebhook` sends: SEP-3415's `events/subscribe` params (mode "webhook" is added). */
export interface WebhookSubscription {
  name: string;
  arguments?: Record<string, unknown>;
  url: string;
  secret: string;
  cursor?: string | null;
  maxAgeMs?: number;
  ttlMs?: number | null;
}

/** `events/subscribe` through a test client: the result (`id`, `refreshBefore`, `cursor`, `truncated`, `deliveryStatus`). */
export async function subscribeWebhook(client: TestClient, subscription: WebhookSubscription): Promise<Record<string, unknown>> {
  const { url, secret, ...rest } = subscription;
  return client.request("events/subscribe", { arguments: {}, cursor: null, ...rest, delivery: { mode: "webhook", url, secret } });
}

/** `events/unsubscribe` through a test client, by the subscription's key. */
export async function unsubscribeWebhook(
  client: TestClient,
  subscription: Pick<WebhookSubscription, "name" | "arguments" | "url">,
): Promise<void> {
  await client.request("events/unsubscribe", {
    name: subscription.name,
    arguments: subscription.arguments ?? {},
    delivery: { url: subscription.url },
  });
}
