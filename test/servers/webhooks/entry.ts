/**
 * Test-only Worker: webhook delivery of the Events extension as a user passes it in, events({ types, webhooks:
 * webhooks({ allowLoopback: true }) }) behind the test verifier (the tests' receiver listens on 127.0.0.1), its
 * McpEvents objects; and a small object holding only the webhook part (WebhookEvents), for what no client request
 * reaches yet: control envelopes, a resolver that rebinds a name, a thousand subscriptions made at once.
 * The first retry waits 2 s here (so a retry is signed in a later second than its first attempt, and a test can
 * restart the object between the two), the others 10 ms, so a test sees all five attempts in about 2 s.
 */
import { DurableObject } from "cloudflare:workers";
import { z } from "zod";
import { defineServer } from "../../../src/index";
import { testEntry } from "../../../src/testing/test-entry";
import { defineEvent, events, webhooks, type WebhookOptions } from "../../../src/features/events/index";
import { webhookSettingsOf } from "../../../src/features/events/webhooks";
import type {
  WebhookKey,
  WebhookSubscribeInput,
  WebhookSubscribeOutcome,
  WebhooksRpc,
} from "../../../durable-objects/events/webhooks-contract";
import { WebhookSubscriptions, wakeObjectAt, type ArgumentsMatch, type WebhookOccurrence } from "../../../durable-objects/events/webhooks";

const OPTIONS: WebhookOptions = { allowLoopback: true, retryDelaysMs: [2_000, 10, 10, 10], minTtlMs: 1_000, maxSubscriptions: 1_000 };

const incidentCreated = defineEvent("incident.created", {
  description: "An incident was opened",
  input: { severity: z.enum(["P1", "P2"]).optional(), team: z.record(z.string(), z.number()).optional() },
  payload: z.record(z.string(), z.unknown()),
});
const buildFinished = defineEvent("build.finished", { description: "A build finished (poll only)", delivery: ["poll"] });
/** The fake upstream of `ticket.opened`: the tests append to it; its cursor is the index after the last one read. */
export const tickets: { id: string; queue: "support" | "sales"; title: string }[] = [];

/** Upstream-backed: the events object's alarm polls it for the webhook subscriptions, every 100 ms here. */
const ticketOpened = defineEvent("ticket.opened", {
  description: "A ticket was opened upstream",
  input: { queue: z.enum(["support", "sales"]) },
  nextPollMs: 100,
  poll: (args, cursor) => {
    const from = cursor === null ? tickets.length : Number(cursor);
    const events = tickets
      .slice(from)
      .filter((ticket) => ticket.queue === args.queue)
      .map((ticket) => ({ eventId: ticket.id, data: { title: ticket.title } }));
    return { events, cursor: String(tickets.length) };
  },
});

export const feature = events({ types: [incidentCreated, buildFinished, ticketOpened], webhooks: webhooks(OPTIONS) });

// A tool that emits, as the author's own code would (the end-to-end test calls it over HTTP).
const server = defineServer({ name: "webhooks-test", version: "1.0.0" }).tool(
  "emit_incident",
  { description: "Emits incident.created", input: { eventId: z.string(), title: z.string() } },
  async ({ eventId, title }, ctx) => {
    const outcome = await feature.emit(ctx.env, "incident.created", { title }, { eventId });
    return { content: [{ type: "text", text: outcome.duplicate ? "duplicate" : "emitted" }] };
  },
);
// Until createMcpEdge takes features (the kernel's wiring): the feature's methods and extension by hand.
for (const method of feature.methods ?? []) server.add(method as never);
for (const [id, settings] of Object.entries(feature.extensions ?? {})) server.extension(id, settings);

// Non-loopback hosts too: a test shows a deployed host never gets loopback delivery, whatever the option says.
const entry = testEntry(server, { testAuth: { allowNonLoopbackHosts: true } });
export default entry.worker;
export const { McpSession } = entry;
export const { McpEvents } = feature.objects!(undefined as never);

/**
 * What callback names resolve to at delivery time in WebhookEvents (in production, DNS over HTTPS): one name
 * rebound to a private address after it was subscribed.
 */
const RESOLVED: Readonly<Record<string, string[]>> = { "rebound.example.com": ["10.0.0.7"] };

/** The webhook part alone in an object, driven by the tests over RPC. */
export class WebhookEvents extends DurableObject implements WebhooksRpc {
  readonly webhooks = new WebhookSubscriptions({
    sql: this.ctx.storage.sql,
    settings: webhookSettingsOf(OPTIONS),
    wakeAt: (at) => wakeObjectAt(this.ctx.storage, at),
    resolve: async (host) => RESOLVED[host],
  });

  async webhookSubscribe(input: WebhookSubscribeInput): Promise<WebhookSubscribeOutcome> {
    return this.webhooks.subscribe(input);
  }

  async webhookUnsubscribe(key: WebhookKey): Promise<boolean> {
    return this.webhooks.unsubscribe(key);
  }

  /** An occurrence to every subscription, or to those whose `severity` argument is the one given. */
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
    await this.webhooks.alarm();
  }
}
