/**
 * publish returns once the event is handed off (issue 20): publishes made one after another
 * are not a round trip each, yet every listener gets every event once, in publish order, on
 * every shard; a burst travels as a few batches, not one call per event; and what the caller
 * can get wrong still throws at once.
 */
import { disclosingEnv } from "../../src/platform/bindings";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { demoServer } from "../../src/demo/server";
import { publish, publishAndCount } from "../../src/features/hub/publish";
import { shardOf } from "../../src/platform/addresses";
import type { McpHub } from "../../durable-objects/hub/mcp-hub";
import { Outbox } from "../../src/platform/outbox";
import { edgeEnv, hubStubOf, openListen } from "../helpers/listen";
import { post, STATELESS } from "../helpers/mcp";
import type { SseReader } from "../helpers/sse";

const server = demoServer;
const SHARDS = 4;
const hubName = () => `handoff-${crypto.randomUUID()}`;

/** Clients whose streams land on the shards given (one each), so a test covers shard 0 and others. */
function clientsOn(indexes: number[]): string[] {
  return indexes.map((index) => {
    for (let i = 0; i < 1000; i++) {
      const client = `ip:10.7.${i >> 8}.${i & 255}`;
      if (shardOf(client, SHARDS) === index) return client;
    }
    throw new Error(`no client on shard ${index}`);
  });
}

/** The URIs the updates of a stream named, in the order it carried them. */
async function urisCarried(stream: SseReader, count: number): Promise<string[]> {
  const uris: string[] = [];
  while (uris.length < count) {
    const event = await stream.next();
    if (!event) break;
    if (event.json?.method === "notifications/resources/updated") uris.push((event.json.params as { uri: string }).uri);
  }
  return uris;
}

/** Counts the `deliver` calls a shard takes from now on (the RPC receiver takes methods from the prototype only). */
function countDeliveries(hub: string, index: number): Promise<() => Promise<number>> {
  type Counted = { deliver(events: unknown[]): Promise<unknown>; deliveries?: number };
  return runInDurableObject(hubStubOf(hub, index), (instance: McpHub) => {
    const proto = Object.getPrototypeOf(instance) as Counted & { countsDeliveries?: true };
    if (!proto.countsDeliveries) {
      const original = proto.deliver;
      proto.countsDeliveries = true;
      proto.deliver = function (this: Counted, events) {
        if (this.deliveries !== undefined) this.deliveries++;
        return original.call(this, events);
      };
    }
    (instance as unknown as Counted).deliveries = 0;
  }).then(() => () => runInDurableObject(hubStubOf(hub, index), (instance: McpHub) => (instance as unknown as Counted).deliveries ?? 0));
}

describe("publish hands off", () => {
  it("keeps publish order on every stream, on shard 0 and on the others, for a burst published one after another", async () => {
    const hub = hubName();
    const uris = Array.from({ length: 20 }, (_, i) => `test://template/handoff-${i}-${crypto.randomUUID()}/data`);
    const clients = clientsOn([0, 1, 2, 3]);
    const opened = await Promise.all(
      clients.map((client, i) =>
        openListen({
          server,
          id: `h${i}`,
          notifications: { resourceSubscriptions: uris },
          options: { shards: SHARDS },
          features: { shard: hub, client },
        }),
      ),
    );
    const count = 600;
    const sent = Array.from({ length: count }, (_, i) => uris[i % uris.length] as string);
    for (const uri of sent) await publish(edgeEnv, { type: "resourceUpdated", uri }, { shard: hub, shards: SHARDS });
    for (const { stream } of opened) {
      // Exactly the published sequence: none lost, none twice, none out of order.
      expect(await urisCarried(stream, count)).toEqual(sent);
    }
    // One the caller waits for, in a call of its own: every stream, counted.
    const last = uris[0] as string;
    expect(await publishAndCount(edgeEnv, { type: "resourceUpdated", uri: last }, { shard: hub, shards: SHARDS })).toEqual({
      listenStreams: clients.length,
      sessions: 0,
    });
    for (const { stream } of opened) expect(await urisCarried(stream, 1)).toEqual([last]);
    await Promise.all(opened.map((o) => o.stream.cancel()));
  });

  it("carries a burst to another shard in a few calls, not one per event", async () => {
    const hub = hubName();
    const uri = `test://template/handoff-burst-${crypto.randomUUID()}/data`;
    const [client] = clientsOn([2]);
    const { stream } = await openListen({
      server,
      id: "burst",
      notifications: { resourceSubscriptions: [uri] },
      options: { shards: SHARDS },
      features: { shard: hub, client: client as string },
    });
    // Shard 0 learns which shards hold anyone first, so the burst goes only where it must.
    await publishAndCount(edgeEnv, { type: "resourceUpdated", uri }, { shard: hub, shards: SHARDS });
    const deliveries = await countDeliveries(hub, 2);
    const count = 500;
    for (let i = 0; i < count; i++) await publish(edgeEnv, { type: "resourceUpdated", uri }, { shard: hub, shards: SHARDS });
    expect(await urisCarried(stream, count + 1)).toHaveLength(count + 1);
    expect(await deliveries()).toBeLessThanOrEqual(10);
    await stream.cancel();
  });

  it("counts for requests served at once, each waiting only for its own call", async () => {
    // Each tools/call is its own request to the Worker (touch_resource: publishAndCount). A
    // request that waited on a batch another request sent would fail ("Cannot perform I/O on
    // behalf of a different request") and never answer.
    const uri = `test://template/concurrent-${crypto.randomUUID()}/data`;
    const { stream } = await openListen({ server, id: "concurrent", notifications: { resourceSubscriptions: [uri] } });
    const count = 40;
    const answers = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const body = { jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "touch_resource", arguments: { uri } } };
        const res = await post(body, { url: STATELESS, version: "2025-06-18" });
        return ((await res.json()) as { result?: { content?: { text?: string }[] } }).result?.content?.[0]?.text;
      }),
    );
    expect(answers).toEqual(Array.from({ length: count }, () => "notified 0 session(s)"));
    expect(await urisCarried(stream, count)).toEqual(Array.from({ length: count }, () => uri));
    await stream.cancel();
  });

  it("still throws at once for what the caller got wrong, before anything is queued", async () => {
    const noHub = { ...edgeEnv, MCP_HUB: undefined };
    // The local development's message names the binding; a deployed Worker's names only the log's reference.
    await expect(publish(disclosingEnv(noHub), { type: "resourceUpdated", uri: "test://x" })).rejects.toThrow(/MCP_HUB/);
    await expect(publish(noHub, { type: "resourceUpdated", uri: "test://x" })).rejects.toThrow(/reference misconfigured-/);
    await expect(publishAndCount(edgeEnv, { type: "resourceUpdated", uri: "" })).rejects.toThrow(TypeError);
  });

  it("works from inside a Durable Object too (the task object publishes task status this way)", async () => {
    const hub = hubName();
    const uri = `test://template/handoff-object-${crypto.randomUUID()}/data`;
    const [client] = clientsOn([1]);
    const { stream } = await openListen({
      server,
      notifications: { resourceSubscriptions: [uri] },
      options: { shards: SHARDS },
      features: { shard: hub, client: client as string },
    });
    // Another object than the hub's: its request ends before the event has left.
    const elsewhere = hubStubOf(`${hub}-other`);
    await runInDurableObject(elsewhere, async () => {
      for (let i = 0; i < 3; i++) await publish(edgeEnv, { type: "resourceUpdated", uri }, { shard: hub, shards: SHARDS });
    });
    expect(await urisCarried(stream, 3)).toEqual([uri, uri, uri]);
    await stream.cancel();
  });
  it("surfaces a shard that fails a batch: publishAndCount rejects, it is logged, and the next publish reaches the shard", async () => {
    const hub = hubName();
    const [lost, next] = [0, 1].map((i) => `test://template/handoff-fail-${i}-${crypto.randomUUID()}/data`) as [string, string];
    const [client] = clientsOn([2]);
    const { stream } = await openListen({
      server,
      notifications: { resourceSubscriptions: [lost, next] },
      options: { shards: SHARDS },
      features: { shard: hub, client: client as string },
    });
    const on = { shard: hub, shards: SHARDS };
    // Shard 2 fails its next delivery (as a shard that restarts mid-call would).
    await runInDurableObject(hubStubOf(hub, 2), (instance: McpHub) => {
      type Failing = { deliver(events: unknown[]): Promise<unknown>; failNext?: boolean };
      const proto = Object.getPrototypeOf(instance) as Failing & { fails?: true };
      if (!proto.fails) {
        const original = proto.deliver;
        proto.fails = true;
        proto.deliver = function (this: Failing, events) {
          if (this.failNext) {
            this.failNext = false;
            return Promise.reject(new Error("test restart of shard 2"));
          }
          return original.call(this, events);
        };
      }
      (instance as unknown as Failing).failNext = true;
    });
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      await expect(publishAndCount(edgeEnv, { type: "resourceUpdated", uri: lost }, on)).rejects.toThrow(/test restart of shard 2/);
      expect(logged.mock.calls.some(([message]) => /hub shard 2 did not take 1 published event/.test(String(message)))).toBe(true);
    } finally {
      logged.mockRestore();
    }
    expect(await publishAndCount(edgeEnv, { type: "resourceUpdated", uri: next }, on)).toEqual({ listenStreams: 1, sessions: 0 });
    expect(await urisCarried(stream, 1)).toEqual([next]);
    await stream.cancel();
  });
});

describe("the ordered outbox under publish", () => {
  it("sends what is pushed during a send as one batch after it, in push order", async () => {
    const batches: number[][] = [];
    const box = new Outbox<number, number>(async (items) => {
      batches.push(items);
      await new Promise((r) => setTimeout(r, 5));
      return items.length;
    });
    const pushed = Array.from({ length: 7 }, (_, i) => box.push(i));
    await Promise.all(pushed.map((p) => p.sent));
    const more = [box.push(7), box.push(8)];
    await Promise.all(more.map((p) => p.sent));
    expect(batches).toEqual([
      [0, 1, 2, 3, 4, 5, 6],
      [7, 8],
    ]);
    expect(pushed.map((p) => p.at)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("keeps a batch below its weight (a completed task's status carries its result), a heavier item going alone", async () => {
    const batches: number[][] = [];
    const box = new Outbox<number, void>(
      async (items) => {
        batches.push(items);
      },
      { weigh: (n) => n, maxWeight: 1000 },
    );
    await Promise.all([600, 300, 600, 2000, 10].map((n) => box.push(n).sent));
    expect(batches).toEqual([[600, 300], [600], [2000], [10]]);
  });

  it("does not let a send that never answers hold the next batch for ever", async () => {
    const sent: number[][] = [];
    const box = new Outbox<number, void>(
      (items) => {
        sent.push(items);
        // The first receiver never answers.
        return sent.length === 1 ? new Promise<void>(() => undefined) : Promise.resolve();
      },
      { stallMs: 20 },
    );
    box.push(1);
    await new Promise((r) => setTimeout(r, 0));
    await box.push(2).sent;
    expect(sent).toEqual([[1], [2]]);
  });
});
