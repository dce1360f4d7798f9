/**
 * One publish reaches both eras: a 2026-07-28 listen stream and a 2025-era session's GET stream
 * that subscribed, from a Worker invocation (the demo's touch_resource tool, in a session and on
 * the stateless endpoint). And the hub stores only real subscriptions, deleting them when empty.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { demoServer } from "../../src/demo/server";
import { publishAndCount } from "../../src/features/hub/publish";
import { call, STATELESS, post } from "../helpers/mcp";
import { deleteSession, getStream, sessionStub, sseOf, startSession, type Session } from "../helpers/session";
import { edgeEnv, hubRegistrations, hubStubOf, hubTables, openListen, SUBSCRIPTION_ID } from "../helpers/listen";

const fresh = () => `test://template/fan-out-${crypto.randomUUID()}/data`;
const shard = () => `test-${crypto.randomUUID()}`;
const subscribe = async (s: Session, uri: string) =>
  expect(await call(s.sessionId, s.version, "resources/subscribe", { uri }, "sub")).toEqual({ jsonrpc: "2.0", id: "sub", result: {} });
const rowsFor = async (predicate: (row: { topic: string; session_id: string }) => boolean) => (await hubRegistrations()).filter(predicate);

describe("publish fans out to both eras", () => {
  it("a tool's publish in a 2025 session reaches a listen stream and the subscribed session's GET stream", async () => {
    const uri = fresh();
    const s = await startSession("2025-06-18");
    await subscribe(s, uri);
    const standalone = sseOf(await getStream(s));
    const { stream } = await openListen({ server: demoServer, id: "listen-1", notifications: { resourceSubscriptions: [uri] } });

    const touched = await call(s.sessionId, s.version, "tools/call", { name: "touch_resource", arguments: { uri } }, "touch");
    expect(touched).toMatchObject({ result: { content: [{ type: "text", text: "notified 1 session(s)" }] } });
    expect((await stream.next())?.json).toEqual({
      jsonrpc: "2.0",
      method: "notifications/resources/updated",
      params: { _meta: { [SUBSCRIPTION_ID]: "listen-1" }, uri },
    });
    // The 2025 session gets the 2025 shape: no subscription id.
    expect((await standalone.next())?.json).toEqual({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri } });
    await Promise.all([stream.cancel(), standalone.cancel()]);
  });

  it("a publish from the stateless endpoint (no session object involved) reaches both as well", async () => {
    const uri = fresh();
    const s = await startSession("2025-11-25");
    await subscribe(s, uri);
    const standalone = sseOf(await getStream(s));
    expect((await standalone.next())?.data).toBe(""); // 2025-11-25 priming event
    const { stream } = await openListen({ server: demoServer, id: 5, notifications: { resourceSubscriptions: [uri] } });

    const res = await post(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "touch_resource", arguments: { uri } } },
      { url: STATELESS, version: "2025-06-18" },
    );
    expect(await res.json()).toMatchObject({ result: { content: [{ text: "notified 1 session(s)" }] } });
    expect((await stream.next())?.json).toMatchObject({
      method: "notifications/resources/updated",
      params: { _meta: { [SUBSCRIPTION_ID]: 5 }, uri },
    });
    expect((await standalone.next())?.json).toMatchObject({ method: "notifications/resources/updated", params: { uri } });
    await Promise.all([stream.cancel(), standalone.cancel()]);
  });

  it("reports listen streams and sessions separately", async () => {
    const uri = fresh();
    const a = await startSession("2025-06-18");
    const b = await startSession("2025-06-18");
    await subscribe(a, uri);
    await subscribe(b, uri);
    const streams = [sseOf(await getStream(a)), sseOf(await getStream(b))];
    const listens = [await openListen({ server: demoServer, notifications: { resourceSubscriptions: [uri] } })];
    expect(await publishAndCount(edgeEnv, { type: "resourceUpdated", uri })).toEqual({ listenStreams: 1, sessions: 2 });
    await Promise.all([...streams.map((r) => r.cancel()), ...listens.map((l) => l.stream.cancel())]);
  });
});

describe("the hub stores only real subscriptions", () => {
  it("creates no storage for a publish nobody subscribed to, nor for removing an unknown registration", async () => {
    const hub = shard();
    expect(await publishAndCount(edgeEnv, { type: "resourceUpdated", uri: fresh() }, { shard: hub })).toEqual({
      listenStreams: 0,
      sessions: 0,
    });
    expect(await publishAndCount(edgeEnv, { type: "listChanged", list: "tools" }, { shard: hub })).toEqual({
      listenStreams: 0,
      sessions: 0,
    });
    await hubStubOf(hub).unregister("0".repeat(64), { uri: fresh() });
    await hubStubOf(hub).forget("0".repeat(64));
    expect(await hubTables(hub)).toEqual({});
  });

  it("creates no storage for a listen stream: it lives in memory only", async () => {
    const hub = shard();
    const { stream } = await openListen({
      server: demoServer,
      notifications: { resourceSubscriptions: [fresh()] },
      features: { shard: hub },
    });
    expect(await hubTables(hub)).toEqual({});
    await stream.cancel();
  });

  it("deletes its storage when the last registration goes", async () => {
    const hub = shard();
    const stub = hubStubOf(hub);
    const [uri, other] = [fresh(), fresh()];
    await stub.register("a", { uri });
    await stub.register("b", { uri });
    await stub.register("a", { lists: true });
    expect((await hubTables(hub)).hub_registrations).toHaveLength(3);
    await stub.unregister("b", { uri });
    await stub.unregister("b", { uri: other });
    await stub.forget("a");
    expect(await hubTables(hub)).toEqual({});
  });

  it("keeps no row for a URI a session unsubscribed from without subscribing, or subscribed to and left", async () => {
    const [never, left] = [fresh(), fresh()];
    const s = await startSession("2025-06-18");
    expect(await call(s.sessionId, s.version, "resources/unsubscribe", { uri: never }, "u1")).toMatchObject({ result: {} });
    await subscribe(s, left);
    expect(await rowsFor((r) => r.topic === `uri:${left}`)).toEqual([{ topic: `uri:${left}`, session_id: s.sessionId }]);
    expect(await call(s.sessionId, s.version, "resources/unsubscribe", { uri: left }, "u2")).toMatchObject({ result: {} });
    expect(await rowsFor((r) => r.topic === `uri:${never}` || r.topic === `uri:${left}`)).toEqual([]);
  });

  it("keeps no row for a URI touched on the stateless endpoint", async () => {
    const uri = fresh();
    await post(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "touch_resource", arguments: { uri } } },
      { url: STATELESS, version: "2025-06-18" },
    );
    expect(await rowsFor((r) => r.topic === `uri:${uri}`)).toEqual([]);
  });

  it("forgets a session's registrations as soon as it is deleted", async () => {
    const s = await startSession("2025-06-18");
    await subscribe(s, fresh());
    await subscribe(s, fresh());
    expect(await rowsFor((r) => r.session_id === s.sessionId)).toHaveLength(2);
    expect((await deleteSession(s)).status).toBe(204);
    expect(await rowsFor((r) => r.session_id === s.sessionId)).toEqual([]);
  });

  it("keeps 2025 registrations across a restart of the hub (they are stored), while listen streams end", async () => {
    const hub = shard();
    const uri = fresh();
    const s = await startSession("2025-06-18");
    await subscribe(s, uri);
    const standalone = sseOf(await getStream(s));
    await hubStubOf(hub).register(s.sessionId, { uri });
    const { stream } = await openListen({ server: demoServer, notifications: { resourceSubscriptions: [uri] }, features: { shard: hub } });

    // ctx.abort() resets the object: memory is gone, storage stays.
    await runInDurableObject(hubStubOf(hub), (_instance, state) => state.abort("test restart")).catch(() => undefined);
    // The socket to the shard broke: the Worker holding the stream ends it with the complete result, the client's cue to listen again.
    expect((await stream.next())?.json).toMatchObject({ id: "listen-1", result: { resultType: "complete" } });
    expect(await stream.next()).toBeUndefined();
    expect(await publishAndCount(edgeEnv, { type: "resourceUpdated", uri }, { shard: hub })).toEqual({ listenStreams: 0, sessions: 1 });
    expect((await standalone.next())?.json).toEqual({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri } });
    await standalone.cancel();
  });

  it("forgets a session's registrations when it expires", async () => {
    const s = await startSession("2025-06-18");
    await subscribe(s, fresh());
    await runInDurableObject(sessionStub(s.sessionId), (_instance, state) => {
      // Last active longer ago than the demo's idle timeout (30 minutes): the next alarm expires it.
      state.storage.kv.put("last_active", Date.now() - 31 * 60_000);
    });
    expect(await runDurableObjectAlarm(sessionStub(s.sessionId))).toBe(true);
    expect(await rowsFor((r) => r.session_id === s.sessionId)).toEqual([]);
  });
});
