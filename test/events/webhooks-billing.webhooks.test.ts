/**
 * What a server observed with `onEvent` is told of its events objects: each request one serves and each alarm
 * is its own event (place "events"), with the rows it wrote, its webhook part's included (subscriptions, the
 * deliveries an emit queues, what the alarm's attempts record).
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { EmitOutcome } from "../../durable-objects/events/contract";
import type { WebhookSubscribeOutcome } from "../../durable-objects/events/webhooks-contract";
import { createMcpEdge, defineServer, type OperationEvent } from "../../src/index";
import { defineEvent, events, webhooks } from "../../src/features/events/index";
import { observe } from "../../src/features/observe/index";
import { hookName, partInput, receiver, testEnv } from "./webhooks-helpers";

const NAME = "invoice.paid";

interface EventsObject {
  emit(name: string, input: { data: unknown; arguments: Record<string, unknown> }): Promise<EmitOutcome>;
  webhookSubscribe(input: ReturnType<typeof partInput>): Promise<WebhookSubscribeOutcome>;
  alarm(): Promise<void>;
}

/** An edge observed with onEvent, serving one emitted type with webhooks; what onEvent was told. */
function observedEdge() {
  const told: OperationEvent[] = [];
  const feature = events({
    types: [defineEvent(NAME, { description: "An invoice was paid" })],
    webhooks: webhooks({ allowLoopback: true }),
  });
  const edge = createMcpEdge(defineServer({ name: "billed-events", version: "1.0.0" }), {
    features: [feature, observe({ onEvent: (event) => told.push(event) })],
  });
  return { McpEvents: edge.objects.McpEvents as new (ctx: DurableObjectState, env: unknown) => EventsObject, told };
}

describe("an events object of a server observed with onEvent", () => {
  it("reports each request and alarm as its own event, place events, with the rows its webhook part wrote", async () => {
    const { McpEvents, told } = observedEdge();
    const hooks = await receiver();
    const stub = testEnv.MCP_EVENTS.getByName(`${NAME}-${crypto.randomUUID()}`);
    await runInDurableObject(stub, async (_object, state) => {
      const object = new McpEvents(state, testEnv);
      for (const label of ["one", "two"]) {
        const outcome = await object.webhookSubscribe(partInput("ada", hooks.hookUrl(hookName(label)), NAME, hooks.secret));
        expect(outcome.ok).toBe(true);
      }
      await object.emit(NAME, { data: { total: 12 }, arguments: {} });
      await object.alarm();
    });
    // Each event is told once the request's own work settled.
    await vi.waitFor(() => expect(told.map((event) => event.method)).toEqual(["webhookSubscribe", "webhookSubscribe", "emit", "alarm"]));
    for (const event of told) expect(event).toMatchObject({ place: "events", outcome: "ok", doRequests: 1 });
    const [, secondSubscribe, emit, alarm] = told as [OperationEvent, OperationEvent, OperationEvent, OperationEvent];
    // A subscription's row and its endpoint's verification.
    expect(secondSubscribe.rowsWritten).toBeGreaterThanOrEqual(2);
    // The log's rows, then a queued delivery per subscription and the alarm set for them.
    expect(emit.rowsWritten).toBeGreaterThanOrEqual(2 + 2 + 1);
    // Each attempt records its outcome on its delivery and its subscription's status.
    expect(alarm.rowsWritten).toBeGreaterThanOrEqual(2 * 2);
  });
});
