/**
 * Test-only Worker: events/subscribe and events/unsubscribe (webhookMethods) behind the test verifier, with
 * loopback delivery allowed (the tests' receiver listens on 127.0.0.1), over a small events object standing in
 * for the events feature's: it holds the webhook part, takes emits from the tests, and runs the part's alarm.
 * The first retry waits 2 s here (so a retry is signed in a later second than its first attempt, and a test can
 * restart the object between the two), the others 10 ms, so a test sees all five attempts in about 2 s.
 */
import { DurableObject } from "cloudflare:workers";
import { defineServer } from "../../../src/index";
import { testEntry } from "../../../src/testing/test-entry";
import { webhookMethods, webhookSettingsOf, type WebhookEventType, type WebhookOptions } from "../../../src/features/events/webhooks";
import type {
  WebhookKey,
  WebhookSubscribeInput,
  WebhookSubscribeOutcome,
  WebhooksRpc,
} from "../../../durable-objects/events/webhooks-contract";
import { WebhookSubscriptions, type ArgumentsMatch, type WebhookOccurrence } from "../../../durable-objects/events/webhooks";

interface Env {
  WEBHOOK_EVENTS: DurableObjectNamespace<WebhookEvents>;
}

export const WEBHOOK_OPTIONS: WebhookOptions = { allowLoopback: true, retryDelaysMs: [2_000, 10, 10, 10], minTtlMs: 1_000 };

/** The types the tests subscribe to: one offering webhooks (arguments: an optional severity), one poll-only. */
const TYPES: Record<string, WebhookEventType> = {
  "incident.created": {
    delivery: ["poll", "push", "webhook"],
    async checkArguments(args) {
      if (typeof args !== "object" || args === null || Array.isArray(args)) return { ok: false, message: "must be an object" };
      const severity = (args as { severity?: unknown }).severity;
      if (severity !== undefined && severity !== "P1" && severity !== "P2") return { ok: false, message: 'severity must be "P1" or "P2"' };
      return { ok: true, value: args };
    },
  },
  "build.finished": { delivery: ["poll"], checkArguments: async (args) => ({ ok: true, value: args }) },
};

const server = defineServer<Env>({ name: "webhooks-test", version: "1.0.0" });
for (const method of webhookMethods<Env>(
  { eventType: (name) => TYPES[name], objectFor: (env, name) => env.WEBHOOK_EVENTS.getByName(name) },
  WEBHOOK_OPTIONS,
)) {
  server.add(method);
}

// Non-loopback hosts too: a test shows a deployed host never gets loopback delivery, whatever the option says.
const entry = testEntry(server, { testAuth: { allowNonLoopbackHosts: true } });
export default entry.worker;
export const { McpSession } = entry;

/**
 * What callback names resolve to at delivery time here (the part's resolver; in production, DNS over HTTPS):
 * one name rebound to a private address after it was subscribed.
 */
const RESOLVED: Readonly<Record<string, string[]>> = { "rebound.example.com": ["10.0.0.7"] };

/** One object per event type, as the events feature keys its object. */
export class WebhookEvents extends DurableObject implements WebhooksRpc {
  readonly webhooks = new WebhookSubscriptions({
    sql: this.ctx.storage.sql,
    settings: webhookSettingsOf(WEBHOOK_OPTIONS),
    wakeAt: (at) => this.#wakeAt(at),
    resolve: async (host) => RESOLVED[host],
  });

  async webhookSubscribe(input: WebhookSubscribeInput): Promise<WebhookSubscribeOutcome> {
    return this.webhooks.subscribe(input, { cursor: input.cursor, truncated: false });
  }

  async webhookUnsubscribe(key: WebhookKey): Promise<boolean> {
    return this.webhooks.unsubscribe(key);
  }

  /** What the events feature's emit does once it has logged the occurrence. */
  async emit(occurrence: WebhookOccurrence, severity?: string): Promise<boolean> {
    const matches: ArgumentsMatch | undefined =
      severity === undefined ? undefined : (args) => (args as { severity?: string }).severity === severity;
    return this.webhooks.deliver(occurrence, matches);
  }

  async gap(name: string, cursor: string): Promise<void> {
    await this.webhooks.gap(name, cursor);
  }

  async terminate(name: string): Promise<void> {
    await this.webhooks.terminate(name, { code: -32023, message: "Event type removed", data: { kind: "event" } });
  }

  override async alarm(): Promise<void> {
    await this.webhooks.alarm(Date.now());
  }

  async #wakeAt(at: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || at < current) await this.ctx.storage.setAlarm(at);
  }
}
