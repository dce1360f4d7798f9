/**
 * What the webhook tests share: a 2026-07-28 test client on the webhooks server (test/servers/webhooks) that
 * declared the Events extension and is signed in as a subject, the receiver the project's globalSetup started
 * (mcp-edge/testing/receiver), the server's emit and events objects, and the object holding only the webhook part.
 */
import { env, exports } from "cloudflare:workers";
import { inject } from "vitest";
import { createTestClient, mintTestToken, type Fetcher, type TestClient } from "../../src/testing/index";
import { connectWebhookReceiver, type WebhookReceiverHandle } from "../../src/testing/webhooks";
import type { WebhookSubscribeInput } from "../../durable-objects/events/webhooks-contract";
import { feature, type WebhookEvents } from "../servers/webhooks/entry";

declare module "vitest" {
  interface ProvidedContext {
    webhookReceiver: string;
  }
}

export const TYPE = "incident.created";
const DECLARED = { extensions: { "io.modelcontextprotocol/events": {} } };
const worker = (exports as unknown as { default: Fetcher }).default;
export const testEnv = env as unknown as {
  MCP_TEST_AUTH_SECRET: string;
  MCP_EVENTS: DurableObjectNamespace;
  WEBHOOK_EVENTS: DurableObjectNamespace<WebhookEvents>;
};

export async function clientAs(subject: string, url = "http://localhost/mcp"): Promise<TestClient> {
  const token = await mintTestToken({ subject, secret: testEnv.MCP_TEST_AUTH_SECRET });
  return createTestClient(worker, { token, url, protocolVersion: "2026-07-28", capabilities: DECLARED, timeoutMs: 20_000 });
}

export function anonymousClient(): TestClient {
  return createTestClient(worker, { protocolVersion: "2026-07-28", capabilities: DECLARED });
}

export function receiver(): Promise<WebhookReceiverHandle> {
  return connectWebhookReceiver(inject("webhookReceiver"));
}

/** Emits one incident.created through the feature, as the author's Worker code would. */
export function emitIncident(eventId: string, data: Record<string, unknown> = {}, args: Record<string, unknown> = {}) {
  return feature.emit(testEnv, TYPE, data, { eventId, arguments: args });
}

/** The McpEvents object of an event type. */
export function eventsObject(name: string = TYPE): DurableObjectStub {
  return testEnv.MCP_EVENTS.getByName(name);
}

/** The object holding only the webhook part (its own subscriptions, apart from the McpEvents ones). */
export function partObject(name: string): DurableObjectStub<WebhookEvents> {
  return testEnv.WEBHOOK_EVENTS.getByName(name);
}

/** A subscribe straight to a part object (what the Worker sends it once the request is checked). */
export function partInput(
  subject: string,
  url: string,
  name: string,
  secret: string,
  args: Record<string, unknown> = {},
): WebhookSubscribeInput {
  return {
    key: { subject, url, name, arguments: JSON.stringify(args) },
    secret,
    ttlMs: undefined,
    loopback: true,
    after: null,
    since: undefined,
  };
}

/** A unique hook path per test, so tests never read each other's deliveries. */
export function hookName(label: string): string {
  return `${label}-${crypto.randomUUID().slice(0, 8)}`;
}

export function occurrence(eventId: string, name: string, data: Record<string, unknown> = {}) {
  return { eventId, name, timestamp: new Date().toISOString(), data, cursor: null };
}
