/**
 * Idle streams cost nothing (issue 32, docs/operating.md "What sleeps"): the Worker holds each
 * long-lived stream and the object (a session, a hub shard) is reached over a hibernatable
 * WebSocket. What a sleep must not change: an object built again from nothing (its constructor
 * run anew on the same storage and sockets, as after an eviction) delivers to the streams it
 * holds and counts its caps from its sockets; a broken socket ends the client's stream cleanly
 * and it resumes with Last-Event-ID, nothing twice; a departed client frees its slot; and a
 * publish nobody listens to costs one object request whatever `listen.shards` is.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { demoServer } from "../../src/demo/server";
import { publishAndCount } from "../../src/publish";
import type { McpHub } from "../../durable-objects/hub/mcp-hub";
import type { McpSessionObject } from "../../durable-objects/sessions/mcp-session";
import type { ListenOpen } from "../../durable-objects/hub/contract";
import { shardOf } from "../../src/platform/addresses";
import { call } from "../helpers/mcp";
import { getStream, sessionStub, sseOf, startSession, streamOf } from "../helpers/session";
import { edgeEnv, hubStubOf, listen, openListen, SUBSCRIPTION_ID } from "../helpers/listen";

const fresh = () => `test://template/held-${crypto.randomUUID()}/data`;
const hubName = () => `held-${crypto.randomUUID()}`;
const updated = (uri: string) => ({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri } });

type Ctor<T> = new (ctx: DurableObjectState, env: unknown) => T;

/** A second instance of the object's class on the same state: nothing of the first one's memory. */
function rebuilt<T extends object>(instance: T, state: DurableObjectState): T {
  return new (instance.constructor as Ctor<T>)(state, env);
}

describe("an object that slept delivers to the streams the Worker holds", () => {
  it("a session rebuilt from nothing sends on the GET stream its socket carries, after what was sent before", async () => {
    const s = await startSession("2025-06-18");
    const uri = fresh();
    expect(await call(s.sessionId, s.version, "resources/subscribe", { uri }, "sub")).toMatchObject({ result: {} });
    const standalone = sseOf(await getStream(s));
    expect(await sessionStub(s.sessionId).resourceUpdated(uri)).toBe("sent");
    expect((await standalone.next())?.json).toEqual(updated(uri));

    const delivery = await runInDurableObject(sessionStub(s.sessionId), async (instance: McpSessionObject, state) => {
      const woken = rebuilt(instance, state);
      // The rebuilt object restores the session from storage before it serves anything.
      await state.blockConcurrencyWhile(async () => undefined);
      return woken.resourceUpdated(uri);
    });
    expect(delivery).toBe("sent");
    const next = await standalone.next();
    expect(next?.json).toEqual(updated(uri));
    await standalone.cancel();
  });

  it("a shard rebuilt from nothing delivers by the filters its sockets carry, and counts a client's cap from them", async () => {
    const hub = hubName();
    const uri = fresh();
    const other = fresh();
    const call1 = {
      server: demoServer,
      id: "a",
      notifications: { resourceSubscriptions: [uri] },
      options: { shards: 1, maxStreamsPerClient: 2 },
      features: { shard: hub, client: "ip:198.51.100.1" },
    };
    const a = await openListen(call1);
    const b = await openListen({ ...call1, id: "b", notifications: { resourceSubscriptions: [other] } });

    const outcome = await runInDurableObject(hubStubOf(hub), async (instance: McpHub, state) => {
      const woken = rebuilt(instance, state) as unknown as {
        deliver(events: unknown[]): Promise<{ listenStreams: number[] }>;
        listeners: { count(): number; countOf(client: string): number; open(o: ListenOpen): Promise<{ ok: boolean }> };
      };
      const report = await woken.deliver([{ type: "resourceUpdated", uri }]);
      const third = await woken.listeners.open({
        id: "c",
        filter: {},
        keepAliveMs: 15_000,
        maxStreams: 100,
        client: "ip:198.51.100.1",
        maxPerClient: 2,
      });
      return {
        delivered: report.listenStreams,
        count: woken.listeners.count(),
        mine: woken.listeners.countOf("ip:198.51.100.1"),
        third: third.ok,
      };
    });
    // Only the stream that subscribed to the URI got it; the cap (2) counted from the sockets refuses a third.
    expect(outcome).toEqual({ delivered: [1], count: 2, mine: 2, third: false });
    expect((await a.stream.next())?.json).toEqual({
      jsonrpc: "2.0",
      method: "notifications/resources/updated",
      params: { _meta: { [SUBSCRIPTION_ID]: "a" }, uri },
    });
    // Through the front door too: the third stream of that client is refused (429).
    expect((await listen({ ...call1, id: "c" })).status).toBe(429);
    await Promise.all([a.stream.cancel(), b.stream.cancel()]);
  });
});

describe("a broken socket between the Worker and the object", () => {
  it("ends the client's GET stream cleanly; resuming with Last-Event-ID gives what was missed once, then live", async () => {
    const s = await startSession("2025-11-25");
    const uri = fresh();
    expect(await call(s.sessionId, s.version, "resources/subscribe", { uri }, "sub")).toMatchObject({ result: {} });
    const first = sseOf(await getStream(s));
    const priming = await first.next(); // 2025-11-25: the priming event carries the stream's first id
    expect(await sessionStub(s.sessionId).resourceUpdated(uri)).toBe("sent");
    const seen = await first.next();
    expect(seen?.json).toEqual(updated(uri));

    // A deploy or a restart breaks the socket: the client's stream ends (no error), its events stay in the log.
    await runInDurableObject(sessionStub(s.sessionId), (_i, state) => state.abort("restart")).catch(() => undefined);
    expect(await first.next()).toBeUndefined();
    // Sent while nobody held the stream: stored, replayed on resumption.
    expect(await sessionStub(s.sessionId).resourceUpdated(uri)).toBe("sent");

    const resumed = sseOf(await getStream(s, seen?.id));
    const missed = await resumed.next();
    expect(missed?.json).toEqual(updated(uri));
    expect(streamOf(missed?.id)).toBe(streamOf(priming?.id));
    expect(missed?.id).not.toBe(seen?.id);
    expect(await sessionStub(s.sessionId).resourceUpdated(uri)).toBe("sent");
    const live = await resumed.next();
    expect(live?.json).toEqual(updated(uri));
    expect(new Set([seen?.id, missed?.id, live?.id]).size).toBe(3);
    await resumed.cancel();
  });
});

describe("a client that leaves", () => {
  it("frees its listen slot within one keep-alive interval: the Worker notices and closes the socket", async () => {
    const hub = hubName();
    const call1 = {
      server: demoServer,
      notifications: { resourceSubscriptions: [fresh()] },
      options: { shards: 1, maxStreamsPerClient: 1, keepAliveMs: 100 },
      features: { shard: hub, client: "ip:198.51.100.2" },
    };
    const { stream } = await openListen(call1);
    const count = () =>
      runInDurableObject(hubStubOf(hub), (instance: McpHub) =>
        (instance as unknown as { listeners: { count(): number } }).listeners.count(),
      );
    expect(await count()).toBe(1);
    await stream.cancel();
    await vi.waitFor(async () => expect(await count()).toBe(0), { timeout: 1_000, interval: 20 });
    const again = await openListen(call1);
    await again.stream.cancel();
  });

  it("frees its session's stream slot the same way (session.keepAliveMs: 15 s here)", { timeout: 20_000 }, async () => {
    const s = await startSession("2025-06-18");
    const standalone = sseOf(await getStream(s));
    const open = () => runInDurableObject(sessionStub(s.sessionId), (_i, state) => state.getWebSockets("get").length);
    expect(await open()).toBe(1);
    await standalone.cancel();
    await vi.waitFor(async () => expect(await open()).toBe(0), { timeout: 16_000, interval: 50 });
  });
});

describe("fan-out only where someone listens", () => {
  /** Counts `deliver` calls on every hub shard (the RPC receiver takes its methods from the prototype). */
  async function countDeliveries(): Promise<() => number> {
    const counter = { calls: 0 };
    await runInDurableObject(hubStubOf(hubName()), (instance: McpHub) => {
      type Proto = { deliver(this: unknown, ...args: unknown[]): Promise<unknown>; heldCounter?: { calls: number } };
      const proto = Object.getPrototypeOf(instance) as Proto;
      if (!proto.heldCounter) {
        const original = proto.deliver;
        proto.deliver = function (this: unknown, ...args: unknown[]) {
          if (proto.heldCounter) proto.heldCounter.calls++;
          return original.apply(this, args);
        };
      }
      proto.heldCounter = counter;
    });
    return () => counter.calls;
  }

  it("with nobody listening, a publish reaches shard 0 only, whatever listen.shards is; with one listener, that shard too", async () => {
    const calls = await countDeliveries();
    for (const shards of [4, 64]) {
      const hub = hubName();
      const before = calls();
      expect(await publishAndCount(edgeEnv, { type: "resourceUpdated", uri: fresh() }, { shard: hub, shards })).toEqual({
        listenStreams: 0,
        sessions: 0,
      });
      expect(calls() - before).toBe(0);
    }
    const hub = hubName();
    const uri = fresh();
    const client = Array.from({ length: 64 }, (_, i) => `ip:10.8.0.${i}`).find((c) => shardOf(c, 64) !== 0) as string;
    const { stream } = await openListen({
      server: demoServer,
      notifications: { resourceSubscriptions: [uri] },
      options: { shards: 64 },
      features: { shard: hub, client },
    });
    // Shard 0 sleeps (or restarts): what it knows of the active shards is stored, so it still calls only that one.
    await runInDurableObject(hubStubOf(hub), (_i, state) => state.abort("sleep")).catch(() => undefined);
    const before = calls();
    expect(await publishAndCount(edgeEnv, { type: "resourceUpdated", uri }, { shard: hub, shards: 64 })).toEqual({
      listenStreams: 1,
      sessions: 0,
    });
    expect(calls() - before).toBe(1);
    await stream.cancel();
  });
});
