/**
 * The hub past one object (issue 20): listen streams spread over `listen.shards` objects by
 * client, publish reaches every shard once, a shard restart ends only its own streams, a reader
 * that falls behind is ended with the listen request's `complete` result (subscriptions.mdx
 * "Graceful Closure") instead of growing the hub, and one client holds at most
 * `listen.maxStreamsPerClient` streams (429 with Retry-After), a closed one freeing its slot at once.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { demoServer } from "../../src/demo/server";
import { publish, publishAndCount } from "../../src/publish";
import type { McpHub } from "../../durable-objects/hub/mcp-hub";
import { shardOf } from "../../src/platform/addresses";
import type { ListenOptions } from "../../src/kernel/options";
import { edgeEnv, hubStubOf, listen, openListen, SUBSCRIPTION_ID, updatesRead } from "../helpers/listen";
import type { SseReader } from "../helpers/sse";

const server = demoServer;
const fresh = () => `test://template/scale-${crypto.randomUUID()}/data`;
const hubName = () => `scale-${crypto.randomUUID()}`;
const updated = (uri: string, id: unknown) => ({
  jsonrpc: "2.0",
  method: "notifications/resources/updated",
  params: { _meta: { [SUBSCRIPTION_ID]: id }, uri },
});
const complete = (id: unknown) => ({
  jsonrpc: "2.0",
  id,
  result: { resultType: "complete", _meta: { [SUBSCRIPTION_ID]: id, "io.modelcontextprotocol/serverInfo": server.identity } },
});

/** Open listen streams on each shard of a hub, read inside the objects. */
function streamsPerShard(hub: string, shards: number): Promise<number[]> {
  return Promise.all(
    Array.from({ length: shards }, (_, i) =>
      runInDurableObject(hubStubOf(hub, i), (instance: McpHub) =>
        (instance as unknown as { listeners: { count(): number } }).listeners.count(),
      ),
    ),
  );
}

interface Opened {
  id: string;
  client: string;
  stream: SseReader;
}

async function openMany(hub: string, count: number, uris: string[], options: ListenOptions): Promise<Opened[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const client = `ip:10.0.${i >> 8}.${i & 255}`;
      const id = `s${i}`;
      const { stream } = await openListen({
        server,
        id,
        notifications: { resourceSubscriptions: uris },
        options,
        features: { shard: hub, client },
      });
      return { id, client, stream };
    }),
  );
}
describe("a sharded hub", () => {
  it("spreads clients over the shards and delivers each publish to every listener once, in order", async () => {
    const hub = hubName();
    const options = { shards: 4 };
    const [first, second] = [fresh(), fresh()];
    const opened = await openMany(hub, 40, [first, second], options);
    const perShard = await streamsPerShard(hub, 4);
    expect(perShard.reduce((a, b) => a + b, 0)).toBe(40);
    expect(perShard.filter((n) => n > 0).length).toBeGreaterThan(1);

    expect(await publishAndCount(edgeEnv, { type: "resourceUpdated", uri: first }, { shard: hub, shards: 4 })).toEqual({
      listenStreams: 40,
      sessions: 0,
    });
    expect(await publishAndCount(edgeEnv, { type: "resourceUpdated", uri: second }, { shard: hub, shards: 4 })).toEqual({
      listenStreams: 40,
      sessions: 0,
    });
    for (const { id, stream } of opened) {
      // Each publish once, in publish order: the second update follows the first, no copy between.
      expect((await stream.next())?.json).toEqual(updated(first, id));
      expect((await stream.next())?.json).toEqual(updated(second, id));
    }
    await Promise.all(opened.map((o) => o.stream.cancel()));
  });

  it("ends only the restarted shard's streams; their clients listen again and get the next publish once", async () => {
    const hub = hubName();
    const options = { shards: 4 };
    const uri = fresh();
    const opened = await openMany(hub, 24, [uri], options);
    const perShard = await streamsPerShard(hub, 4);
    const restarted = perShard.findIndex((n) => n > 0);
    await runInDurableObject(hubStubOf(hub, restarted), (_instance, state) => state.abort("shard restart")).catch(() => undefined);

    const onRestarted = (await streamsPerShard(hub, 4))[restarted];
    expect(onRestarted).toBe(0);
    expect(await publishAndCount(edgeEnv, { type: "resourceUpdated", uri }, { shard: hub, shards: 4 })).toEqual({
      listenStreams: 24 - (perShard[restarted] as number),
      sessions: 0,
    });
    let cut = 0;
    for (const o of opened) {
      const next = await o.stream.next();
      if (next?.json?.result !== undefined) {
        // The socket between the Worker and the shard broke: the Worker holding the stream ends
        // it with the complete result, the client's cue to listen again (subscriptions.mdx).
        expect(next.json).toEqual(complete(o.id));
        expect(await o.stream.next()).toBeUndefined();
        cut++;
        o.stream = (
          await openListen({
            server,
            id: o.id,
            notifications: { resourceSubscriptions: [uri] },
            options,
            features: { shard: hub, client: o.client },
          })
        ).stream;
      } else {
        expect(next?.json).toEqual(updated(uri, o.id));
      }
    }
    expect(cut).toBe(perShard[restarted]);

    expect(await publishAndCount(edgeEnv, { type: "resourceUpdated", uri }, { shard: hub, shards: 4 })).toEqual({
      listenStreams: 24,
      sessions: 0,
    });
    for (const o of opened) expect((await o.stream.next())?.json).toEqual(updated(uri, o.id));
    await Promise.all(opened.map((o) => o.stream.cancel()));
  });
});

describe("publish through shard 0", () => {
  /** Shard 0's list of the other shards a publish calls (after it has learned them). */
  const targets = (hub: string, shards: number) =>
    runInDurableObject(hubStubOf(hub, 0), (instance: McpHub) =>
      (instance as unknown as { coordinator: { active: { targets(n: number): number[] } } }).coordinator.active.targets(shards),
    );

  it("calls only the shards that hold anyone, forgets one that emptied, and reaches it again when it holds a stream", async () => {
    const hub = hubName();
    const options = { shards: 8 };
    const uri = fresh();
    // A client whose shard is not 0.
    const client = Array.from({ length: 50 }, (_, i) => `ip:10.9.0.${i}`).find((c) => shardOf(c, 8) !== 0) as string;
    const index = shardOf(client, 8);
    const open = () => openListen({ server, notifications: { resourceSubscriptions: [uri] }, options, features: { shard: hub, client } });
    const publishHere = () => publishAndCount(edgeEnv, { type: "resourceUpdated", uri }, { shard: hub, shards: 8 });

    const first = await open();
    expect(await publishHere()).toEqual({ listenStreams: 1, sessions: 0 });
    expect(await targets(hub, 8)).toEqual([index]);
    await first.stream.cancel();
    // The first write to the gone client fails (that is when a Durable Object learns of it); at
    // the next publish the shard answers empty and is forgotten.
    expect((await publishHere()).listenStreams).toBeLessThanOrEqual(1);
    expect(await publishHere()).toEqual({ listenStreams: 0, sessions: 0 });
    expect(await targets(hub, 8)).toEqual([]);

    const second = await open();
    expect(await targets(hub, 8)).toEqual([index]);
    expect(await publishHere()).toEqual({ listenStreams: 1, sessions: 0 });
    expect((await second.stream.next())?.json).toEqual(updated(uri, "listen-1"));

    // Shard 0 restarts (memory only): it asks every shard once and learns again.
    await runInDurableObject(hubStubOf(hub, 0), (_instance, state) => state.abort("coordinator restart")).catch(() => undefined);
    expect(await publishHere()).toEqual({ listenStreams: 1, sessions: 0 });
    expect((await second.stream.next())?.json).toEqual(updated(uri, "listen-1"));
    expect(await targets(hub, 8)).toEqual([index]);
    await second.stream.cancel();
  });
});

describe("a reader that falls behind", () => {
  it("has its stream ended with the complete result once its buffer is full, while a reading stream gets everything", async () => {
    const hub = hubName();
    const options = { shards: 1, maxBufferedBytes: 16 * 1024 };
    // Long URIs: each notification is about 4 KiB, so the transport's own buffers fill quickly too.
    const uri = `test://template/${"x".repeat(4000)}-${crypto.randomUUID()}/data`;
    const slow = await openListen({
      server,
      id: "slow",
      notifications: { resourceSubscriptions: [uri] },
      options,
      features: { shard: hub, client: "ip:10.1.0.1" },
    });
    const fast = await openListen({
      server,
      id: "fast",
      notifications: { resourceSubscriptions: [uri] },
      options,
      features: { shard: hub, client: "ip:10.1.0.2" },
    });
    const count = 400; // 1.6 MB published: 100 × the buffer
    const reading = updatesRead(fast.stream, count);
    let reached = 0;
    for (let i = 0; i < count; i++)
      reached += (await publishAndCount(edgeEnv, { type: "resourceUpdated", uri }, { shard: hub, shards: 1 })).listenStreams;
    expect(await reading).toBe(count);
    // The slow stream was counted until it fell behind, then no more.
    expect(reached).toBeGreaterThanOrEqual(count);
    expect(reached).toBeLessThan(2 * count);
    expect(await streamsPerShard(hub, 1)).toEqual([1]);

    // What it still holds is what was in flight, then the graceful end: its memory was let go.
    const events = await slow.stream.all();
    const updates = events.filter((e) => e.json?.method === "notifications/resources/updated");
    expect(updates.length).toBeLessThanOrEqual(reached - count);
    expect(events.at(-1)?.json).toEqual(complete("slow"));
    await fast.stream.cancel();
  });
  it("the same under a burst publish hands off at once: the reading stream keeps up with 100 × its buffer, the other is ended", async () => {
    const hub = hubName();
    const options = { shards: 1, maxBufferedBytes: 16 * 1024 };
    const uri = `test://template/${"y".repeat(4000)}-${crypto.randomUUID()}/data`;
    const open = (id: string, client: string) =>
      openListen({ server, id, notifications: { resourceSubscriptions: [uri] }, options, features: { shard: hub, client } });
    const slow = await open("slow", "ip:10.1.1.1");
    const fast = await open("fast", "ip:10.1.1.2");
    const count = 400;
    const reading = updatesRead(fast.stream, count);
    // Handed off: the hub gets the 400 events in a few batches, written faster than anyone reads.
    for (let i = 0; i < count; i++) await publish(edgeEnv, { type: "resourceUpdated", uri }, { shard: hub, shards: 1 });
    expect(await reading).toBe(count);
    // The Worker holding the slow stream ended it and closed its socket: the shard frees the slot when the close arrives.
    await vi.waitFor(async () => expect(await streamsPerShard(hub, 1)).toEqual([1]));
    const events = await slow.stream.all();
    expect(events.filter((e) => e.json?.method === "notifications/resources/updated").length).toBeLessThan(count);
    expect(events.at(-1)?.json).toEqual(complete("slow"));
    await fast.stream.cancel();
  });
});

describe("listen streams per client", () => {
  it("refuses one more than listen.maxStreamsPerClient with 429, Retry-After and the request's id; other clients still get theirs", async () => {
    const hub = hubName();
    const call = { server, notifications: { resourceSubscriptions: [fresh()] }, options: { maxStreamsPerClient: 2, shards: 4 } };
    const mine = { shard: hub, client: "ip:192.0.2.7" };
    const open = [await openListen({ ...call, features: mine }), await openListen({ ...call, features: mine })];
    const refused = await listen({ ...call, id: "third", features: mine });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe("1");
    expect(await refused.json()).toEqual({
      jsonrpc: "2.0",
      id: "third",
      error: { code: -31003, message: "Too many listen streams for this client (limit 2); close one, or retry later" },
    });
    const other = await openListen({ ...call, features: { shard: hub, client: "sub:alice" } });
    await Promise.all([...open, other].map((o) => o.stream.cancel()));
  });

  it("gives a closed stream's slot back at once", async () => {
    const hub = hubName();
    const call = {
      server,
      notifications: { resourceSubscriptions: [fresh()] },
      options: { maxStreamsPerClient: 1, shards: 4 },
      features: { shard: hub, client: "ip:192.0.2.8" },
    };
    for (let i = 0; i < 5; i++) {
      const { stream } = await openListen(call);
      // The client goes away without a word: the next listen must not wait for a keep-alive to notice.
      await stream.cancel();
    }
    const last = await openListen(call);
    expect((await listen(call)).status).toBe(429);
    await last.stream.cancel();
  });

  it("counts a server-wide cap per shard the same way: a stream closed by its client frees the shard's slot", async () => {
    const hub = hubName();
    const call = {
      server,
      notifications: { resourceSubscriptions: [fresh()] },
      options: { maxStreams: 1, shards: 1 },
      features: { shard: hub, client: "ip:192.0.2.9" },
    };
    const first = await openListen(call);
    const refused = await listen({ ...call, features: { shard: hub, client: "ip:192.0.2.10" } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe("1");
    await first.stream.cancel();
    const second = await openListen({ ...call, features: { shard: hub, client: "ip:192.0.2.10" } });
    await second.stream.cancel();
  });
});
