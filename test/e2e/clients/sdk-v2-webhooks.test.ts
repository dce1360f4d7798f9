// Webhook delivery of the Events extension over real HTTP: the official SDK v2 client (pinned to 2026-07-28,
// custom requests through client.request) subscribes a webhook on the webhooks test Worker (started in-process,
// its test verifier signing the client in), a real receiver in this process (mcp-edge/testing/receiver) checks
// every signature with its own code, and the Worker is restarted between a failed attempt and its retry: the
// retry still comes, with the same id and body (the queued delivery and the alarm were in the object's storage).
import type { Client } from "@modelcontextprotocol/client";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withSdkV2Client } from "../helpers/sdk-v2-client";
import { useWorker } from "../helpers/server";
import { startWebhookReceiver, type WebhookReceiver } from "../../../src/testing/webhook-receiver.mjs";
import { mintTestToken } from "../../../src/testing/test-auth";

const EVENTS = "io.modelcontextprotocol/events";
const AUTH_SECRET = "e2e-only-test-auth-secret-0123456789abcdef";
let receiver: WebhookReceiver | undefined;

// Registered before the Worker's hooks: the receiver starts first and closes last.
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver?.close();
});

const worker = useWorker({ configPath: "test/servers/webhooks/wrangler.toml", vars: { MCP_TEST_AUTH_SECRET: AUTH_SECRET } });

const SubscribeResult = z.looseObject({
  id: z.string(),
  refreshBefore: z.string().nullable(),
  cursor: z.string().nullable(),
  truncated: z.boolean(),
});

async function connected<T>(use: (client: Client) => Promise<T>): Promise<T> {
  const token = await mintTestToken({ subject: "e2e-ada", secret: AUTH_SECRET });
  const headers = { Authorization: `Bearer ${token}` };
  return withSdkV2Client(worker.mcpUrl, { name: "e2e-sdk-v2-webhooks", mode: { pin: "2026-07-28" }, extensions: [EVENTS], headers }, use);
}

describe("webhooks with the SDK v2 client and a real receiver", () => {
  it("subscribes, gets a signed delivery after the verification, and loses nothing when the Worker restarts between two attempts", {
    timeout: 120_000,
  }, async () => {
    const hooks = receiver!;
    const name = `e2e-${crypto.randomUUID().slice(0, 8)}`;
    const path = `/hooks/${name}`;
    await connected(async (client) => {
      const subscription = await client.request(
        {
          method: "events/subscribe",
          params: {
            name: "incident.created",
            arguments: {},
            delivery: { mode: "webhook", url: hooks.hookUrl(name), secret: hooks.secret },
            cursor: null,
          },
        } as never,
        SubscribeResult,
      );
      expect(subscription.id).toMatch(/^sub_[0-9a-f]{32}$/);
      const [challenge] = await hooks.received({ path, count: 1 });
      expect(challenge).toMatchObject({ type: "verification", verified: true, subscriptionId: subscription.id });

      await client.callTool({ name: "emit_incident", arguments: { eventId: `${name}-1`, title: "first" } });
      const [, first] = await hooks.received({ path, count: 2, timeoutMs: 20_000 });
      expect(first).toMatchObject({ webhookId: `${name}-1`, verified: true, subscriptionId: subscription.id, status: 200 });
      expect(JSON.parse(first!.body)).toMatchObject({ eventId: `${name}-1`, name: "incident.created", data: { title: "first" } });

      await hooks.script({ path, statuses: [503] });
      await client.callTool({ name: "emit_incident", arguments: { eventId: `${name}-2`, title: "second" } });
      const [, , failed] = await hooks.received({ path, count: 3, timeoutMs: 20_000 });
      expect(failed).toMatchObject({ webhookId: `${name}-2`, status: 503 });
    });
    // The retry is due 2 s after the failed attempt: the runtime goes down before it, and comes back with its storage.
    expect(hooks.deliveries.filter((record) => record.webhookId === `${name}-2`)).toHaveLength(1);
    await worker.server.restart();
    const [, , failed, retried] = await hooks.received({ path, count: 4, timeoutMs: 60_000 });
    expect(retried).toMatchObject({ webhookId: `${name}-2`, status: 200, verified: true, body: failed!.body });
    expect(Number(retried!.timestamp)).toBeGreaterThan(Number(failed!.timestamp));
  });
});
