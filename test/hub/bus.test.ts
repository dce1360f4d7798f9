/**
 * mcp-edge/bus inside workerd, on the demo's hub: a subscriber hears what the bus publishes,
 * stops hearing when it unsubscribes, an mcp-edge client's listen stream cannot name the bus's
 * events, and events the SDK could not have sent are TypeErrors. (Across two Workers:
 * test/e2e/bus/bus.test.ts.)
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type BusEvent, hubBus } from "../../src/features/hub/bus";
import { post2026 } from "../helpers/era-2026";
import { SseReader } from "../helpers/sse";

const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };

/** A subscriber whose events arrive as awaited promises (no sleeps). */
function subscriber(bus: ReturnType<typeof hubBus>): { next(): Promise<BusEvent>; stop(): void } {
  const waiting: ((event: BusEvent) => void)[] = [];
  const queued: BusEvent[] = [];
  const stop = bus.subscribe((event) => {
    const take = waiting.shift();
    if (take) take(event);
    else queued.push(event);
  });
  return {
    next: () => {
      const event = queued.shift();
      return event ? Promise.resolve(event) : new Promise((resolve) => waiting.push(resolve));
    },
    stop,
  };
}

/** Publishes probes until the hub counts `n` bus streams of the topic (a stream joins one round trip after subscribe). */
async function untilStreams(bus: ReturnType<typeof hubBus>, n: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const seen = await bus.publishAndCount({ kind: "resource_updated", uri: "probe://streams" });
    if (seen === n) return;
    await scheduler.wait(10);
  }
  throw new Error(`the hub never counted ${n} bus stream(s)`);
}

// A hub's first publishes reach all 16 shards (each wakes once): seconds on a busy machine.
describe("hubBus on one hub", { timeout: 30_000 }, () => {
  it("delivers published events to a subscriber, params included, and none after it unsubscribes", async () => {
    const bus = hubBus(env, { topic: `t-${crypto.randomUUID()}` });
    const sub = subscriber(bus);
    await untilStreams(bus, 1);
    bus.publish({ kind: "tools_list_changed", params: { reason: "added" } });
    let event = await sub.next();
    while (event.kind === "resource_updated") event = await sub.next(); // probes of untilStreams
    expect(event).toEqual({ kind: "tools_list_changed", params: { reason: "added" } });
    sub.stop();
    sub.stop(); // idempotent
    await untilStreams(bus, 0);
  });

  it("keeps topics apart: a bus of another topic does not hear it", async () => {
    const a = hubBus(env, { topic: `a-${crypto.randomUUID()}` });
    const b = hubBus(env, { topic: `b-${crypto.randomUUID()}` });
    const sub = subscriber(a);
    await untilStreams(a, 1);
    expect(await b.publishAndCount({ kind: "prompts_list_changed" })).toBe(0);
    sub.stop();
    await untilStreams(a, 0);
  });

  it("is out of reach of an mcp-edge client: a listen naming the bus's carrier id is acknowledged without it", async () => {
    const bus = hubBus(env);
    const sub = subscriber(bus);
    await untilStreams(bus, 1);
    const res = await post2026(
      "subscriptions/listen",
      { notifications: { taskIds: ["mcp-edge-bus:default"] } },
      { id: "spy", capabilities: TASKS },
    );
    const stream = new SseReader(res);
    const ack = await stream.next();
    expect(ack?.json).toMatchObject({ method: "notifications/subscriptions/acknowledged", params: { notifications: { taskIds: [] } } });
    // The client's stream is open, yet the hub gives the bus's event to the bus stream alone.
    expect(await bus.publishAndCount({ kind: "resources_list_changed" })).toBe(1);
    await stream.cancel();
    sub.stop();
    await untilStreams(bus, 0);
  });

  it("refuses what the SDK could not have sent with a TypeError naming the mistake", () => {
    const bus = hubBus(env);
    expect(() => bus.publish({ kind: "everything" } as never)).toThrow(/unknown event kind "everything"/);
    expect(() => bus.publish({ kind: "resource_updated", uri: "" })).toThrow(/resource_updated needs a uri/);
    expect(() => bus.publish({ kind: "resource_updated", uri: `x://${"a".repeat(8192)}` })).toThrow(/longer than 8192 characters/);
    expect(() => bus.publish({ kind: "tools_list_changed", params: { blob: "a".repeat(70_000) } })).toThrow(/at most 65536/);
    expect(() => hubBus(env, { shards: 0 })).toThrow(/shards must be a positive whole number/);
    expect(() => hubBus(env, { topic: "" })).toThrow(/topic must be a string of 1-128 characters/);
  });

  it("throws the misconfiguration error when the MCP_HUB binding is missing, its reference finding the log line with the fix", () => {
    const bus = hubBus({});
    // Outside local development the error names no binding (docs/errors.md "Misconfiguration"); the log line does.
    expect(() => bus.publish({ kind: "tools_list_changed" })).toThrow(/Server misconfigured: .* under reference misconfigured-[0-9a-f]{8}/);
  });
});
