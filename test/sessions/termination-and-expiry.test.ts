import { abortAllDurableObjects, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, post } from "../helpers/mcp";
import { isResponseTo } from "../helpers/sse";
import {
  callOnStream,
  deleteSession,
  getStream,
  postToolCall,
  sessionStub,
  sql,
  sseOf,
  startSession,
  streamOf,
  tableSizes,
  makeIdle,
  runTerminationAlarm,
  type Session,
} from "../helpers/session";

const notFound = { jsonrpc: "2.0", id: null, error: { code: -32001 } };

/** Every way a client can address a session, each returning the HTTP response. */
const paths: [string, (s: Session) => Promise<Response>][] = [
  ["a simple POST (ping)", (s) => post({ jsonrpc: "2.0", id: 1, method: "ping" }, { sessionId: s.sessionId, version: s.version })],
  [
    "notifications/initialized",
    (s) => post({ jsonrpc: "2.0", method: "notifications/initialized" }, { sessionId: s.sessionId, version: s.version }),
  ],
  ["an interactive POST (stream_progress)", (s) => postToolCall(s, 1, "stream_progress", { count: 1 })],
  ["a client response POST", (s) => post({ jsonrpc: "2.0", id: "s-x-1", result: {} }, { sessionId: s.sessionId, version: s.version })],
  ["a GET", (s) => getStream(s)],
  ["a DELETE", (s) => deleteSession(s)],
];

/** No rows in any table (the tables themselves are gone until the object runs its constructor again). */
async function expectAllStorageGone(s: Session): Promise<void> {
  for (const [table, rows] of Object.entries(await tableSizes(s.sessionId))) expect(rows, table).toBe(0);
}

describe("DELETE /mcp", () => {
  it("answers 204", async () => {
    const s = await startSession("2025-06-18");
    expect((await deleteSession(s)).status).toBe(204);
  });

  it.each(paths)("answers 404 to %s afterwards", async (_what, send) => {
    const s = await startSession("2025-06-18");
    await deleteSession(s);
    const res = await send(s);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject(notFound);
  });

  it("ends the stream of a call in flight without a response", async () => {
    const s = await startSession("2025-06-18");
    const stream = await callOnStream(s, 1, "slow_countdown", { seconds: 30 }, "tok");
    await stream.next();
    expect((await deleteSession(s)).status).toBe(204);
    const rest = await stream.all();
    expect(rest.some(isResponseTo(1))).toBe(false);
  });

  it("closes the standalone GET stream", async () => {
    const s = await startSession("2025-06-18");
    const standalone = sseOf(await getStream(s));
    expect((await deleteSession(s)).status).toBe(204);
    expect(await standalone.next()).toBeUndefined();
  });

  it("leaves nothing in storage once the termination alarm has run", async () => {
    const s = await startSession("2025-06-18");
    await (await callOnStream(s, 1, "stream_progress", { count: 3 }, "tok")).all();
    await call(s.sessionId, s.version, "resources/subscribe", { uri: "test://watched-resource" });
    await deleteSession(s);
    await runTerminationAlarm(s);

    await expectAllStorageGone(s);
    expect(await runInDurableObject(sessionStub(s.sessionId), (_i, state) => state.storage.getAlarm())).toBeNull();
  });

  it.each(paths)("still answers 404 to %s after the alarm and a restart: the session never comes back", async (_what, send) => {
    const s = await startSession("2025-06-18");
    await deleteSession(s);
    await runTerminationAlarm(s);
    await expectAllStorageGone(s);
    await abortAllDurableObjects();

    expect((await send(s)).status).toBe(404);
    expect(await sessionStub(s.sessionId).confirm()).toBeNull();
  });

  it("stays terminated across a restart right after DELETE, whether or not its alarm has run", async () => {
    const s = await startSession("2025-06-18");
    await deleteSession(s);
    await runInDurableObject(sessionStub(s.sessionId), () => undefined);
    await abortAllDurableObjects();

    expect((await post({ jsonrpc: "2.0", id: 1, method: "ping" }, { sessionId: s.sessionId, version: s.version })).status).toBe(404);
    expect(await sessionStub(s.sessionId).resourceUpdated("test://watched-resource")).toBe("gone");
  });
});

describe("idle expiry", () => {
  it("deletes a session whose last activity is older than the idle timeout when its alarm runs", async () => {
    const s = await startSession("2025-06-18");
    await (await callOnStream(s, 1, "stream_progress", { count: 3 }, "tok")).all();
    await makeIdle(s);

    expect(await runDurableObjectAlarm(sessionStub(s.sessionId))).toBe(true);
    expect((await post({ jsonrpc: "2.0", id: 2, method: "ping" }, { sessionId: s.sessionId, version: s.version })).status).toBe(404);
    await expectAllStorageGone(s);
  });

  it("answers 404 to notifications/initialized once the session expired", async () => {
    const s = await startSession("2025-06-18");
    await makeIdle(s);
    expect(await runDurableObjectAlarm(sessionStub(s.sessionId))).toBe(true);

    const res = await post({ jsonrpc: "2.0", method: "notifications/initialized" }, { sessionId: s.sessionId, version: s.version });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject(notFound);
  });

  it("a session used only in its first 30 s outlives an alarm that runs after its object slept (its start is stored)", async () => {
    const s = await startSession("2025-06-18");
    expect(await call(s.sessionId, s.version, "ping")).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    // Asleep, the object forgets the activity it kept in memory. Then an alarm runs long before the
    // idle timeout (as the one that trims a finished stream does, its grace period after the call).
    await evictDurableObject(sessionStub(s.sessionId));
    expect(await runDurableObjectAlarm(sessionStub(s.sessionId))).toBe(true);

    expect(await call(s.sessionId, s.version, "ping")).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });

  it("a session stored before its start was (no start, no activity written) is not read as idle since 1970 after a restart", async () => {
    const s = await startSession("2025-06-18");
    await runInDurableObject(sessionStub(s.sessionId), (_instance, state) => {
      const { startedAt: _startedAt, ...older } = state.storage.kv.get<Record<string, unknown>>("state") ?? {};
      state.storage.kv.put("state", older);
    });
    await evictDurableObject(sessionStub(s.sessionId));
    expect(await runDurableObjectAlarm(sessionStub(s.sessionId))).toBe(true);

    expect(await call(s.sessionId, s.version, "ping")).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });

  it("keeps a recently active session when its alarm runs, and schedules the next check", async () => {
    const s = await startSession("2025-06-18");
    expect(await runDurableObjectAlarm(sessionStub(s.sessionId))).toBe(true);

    expect(await call(s.sessionId, s.version, "ping")).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(await runInDurableObject(sessionStub(s.sessionId), (_i, state) => state.storage.getAlarm())).toBeGreaterThan(Date.now());
  });

  it("does not expire a session while a client holds a stream open", async () => {
    const s = await startSession("2025-06-18");
    const standalone = await getStream(s);
    await makeIdle(s);

    expect(await runDurableObjectAlarm(sessionStub(s.sessionId))).toBe(true);
    expect(await call(s.sessionId, s.version, "ping")).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    await standalone.body?.cancel();
  });

  it("keeps a finished stream replayable when the alarm runs within its grace period", async () => {
    const s = await startSession("2025-06-18");
    const events = await (await callOnStream(s, 1, "stream_progress", { count: 3 }, "tok")).all();
    expect(await runDurableObjectAlarm(sessionStub(s.sessionId))).toBe(true);
    expect(await sseOf(await getStream(s, events[0]?.id)).all()).toEqual(events.slice(1));
  });

  it("forgets a finished stream once its grace period is over: resuming it is 400", async () => {
    const s = await startSession("2025-06-18");
    const events = await (await callOnStream(s, 1, "stream_progress", { count: 3 }, "tok")).all();
    await runInDurableObject(sessionStub(s.sessionId), (_instance, state) => {
      state.storage.sql.exec("UPDATE streams SET done_at = 1 WHERE id = ?", streamOf(events[0]?.id));
    });
    expect(await runDurableObjectAlarm(sessionStub(s.sessionId))).toBe(true);

    expect(await sql(s.sessionId, "SELECT * FROM events")).toEqual([]);
    expect((await getStream(s, events[0]?.id)).status).toBe(400);
    expect(await call(s.sessionId, s.version, "ping")).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });
});
