/**
 * One `webhooks()` value passed to two `events()` features (two edges in one isolate, as two Workers or a test
 * make them): each edge's events objects drive their own feature's upstream-backed types for webhooks, never
 * the other edge's type of the same name.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { WebhookSubscribeOutcome } from "../../durable-objects/events/webhooks-contract";
import { createMcpEdge, defineServer } from "../../src/index";
import { defineEvent, events, webhooks } from "../../src/features/events/index";
import { hookName, partInput, receiver, testEnv } from "./webhooks-helpers";

const NAME = "feed.changed";

/** An upstream-backed type whose upstream is at `position` (what a subscription's cursor starts at). */
function feedAt(position: string) {
  return defineEvent(NAME, {
    description: "A feed changed upstream",
    nextPollMs: 60_000,
    poll: () => ({ events: [], cursor: position }),
  });
}

describe("one webhooks() value shared by two edges", () => {
  it("lets each edge's events objects poll their own upstream-backed types", async () => {
    const shared = webhooks({ allowLoopback: true });
    const server = defineServer({ name: "two-edges", version: "1.0.0" });
    const first = createMcpEdge(server, { features: [events({ types: [feedAt("first-upstream")], webhooks: shared })] });
    const second = createMcpEdge(server, { features: [events({ types: [feedAt("second-upstream")], webhooks: shared })] });
    const hooks = await receiver();
    const cursors: unknown[] = [];
    for (const edge of [first, second]) {
      const McpEvents = edge.objects.McpEvents as new (
        ctx: DurableObjectState,
        env: unknown,
      ) => {
        webhookSubscribe(input: ReturnType<typeof partInput>): Promise<WebhookSubscribeOutcome>;
      };
      const input = partInput("ada", hooks.hookUrl(hookName("edges")), NAME, hooks.secret);
      const stub = testEnv.MCP_EVENTS.getByName(`${NAME}-${crypto.randomUUID()}`);
      // The edge's own class over a fresh object's state: what that edge's binding would run.
      const outcome = await runInDurableObject(stub, (_object, state) => new McpEvents(state, testEnv).webhookSubscribe(input));
      cursors.push(outcome.ok ? outcome.result.cursor : outcome);
    }
    expect(cursors).toEqual(["first-upstream", "second-upstream"]);
  });
});
