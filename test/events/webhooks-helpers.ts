/**
 * What the webhook tests share: a 2026-07-28 test client on the webhooks server (test/servers/webhooks) signed in
 * as a subject, the receiver the project's globalSetup started (mcp-edge/testing/receiver), and the server's
 * events object for a type (emits, a peek at its rows).
 */
import { env, exports } from "cloudflare:workers";
import { inject } from "vitest";
import { createTestClient, mintTestToken, type Fetcher, type TestClient } from "../../src/testing/index";
import { connectWebhookReceiver, type WebhookReceiverHandle } from "../../src/testing/webhooks";
import type { WebhookEvents } from "../servers/webhooks/entry";

declare module "vitest" {
  interface ProvidedContext {
    webhookReceiver: string;
  }
}

const worker = (exports as unknown as { default: Fetcher }).default;
const testEnv = env as unknown as { MCP_TEST_AUTH_SECRET: string; WEBHOOK_EVENTS: DurableObjectNamespace<WebhookEvents> };

export async function clientAs(subject: string, url = "http://localhost/mcp"): Promise<TestClient> {
  const token = await mintTestToken({ subject, secret: testEnv.MCP_TEST_AUTH_SECRET });
  return createTestClient(worker, { token, url, protocolVersion: "2026-07-28", timeoutMs: 20_000 });
}

export function anonymousClient(): TestClient {
  return createTestClient(worker, { protocolVersion: "2026-07-28" });
}

export function receiver(): Promise<WebhookReceiverHandle> {
  return connectWebhookReceiver(inject("webhookReceiver"));
}

export function eventsObject(name: string): DurableObjectStub<WebhookEvents> {
  return testEnv.WEBHOOK_EVENTS.getByName(name);
}

/** A unique hook path per test, so tests never read each other's deliveries. */
export function hookName(label: string): string {
  return `${label}-${crypto.randomUUID().slice(0, 8)}`;
}

export function occurrence(eventId: string, data: Record<string, unknown> = {}) {
  return { eventId, name: "incident.created", timestamp: new Date().toISOString(), data, cursor: null };
}
