/**
 * The alarm schedule over a session's whole life, with a 4 s idle timeout: one alarm at its
 * expiry, never set in the past (an alarm in the past fires at once, again and again, each one a
 * billed request and a billed row), a session held by an open stream kept past its timeout, and
 * deleted once the stream is gone.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { McpSessionObject } from "../../durable-objects/sessions/mcp-session";
import { call } from "../helpers/mcp";
import { getStream, sessionStub, startSession, type Session } from "../helpers/session";
import { requestsOf, resetMeter } from "../servers/costs/meter";

const IDLE_TIMEOUT_MS = 4000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The alarm set now, and whether the session object still holds a live session (read without a request to it). */
async function look(s: Session): Promise<{ alarm: number | null; live: boolean; now: number }> {
  return runInDurableObject(sessionStub(s.sessionId), async (instance: McpSessionObject, state) => {
    const core = (instance as unknown as { core: { state: unknown } }).core;
    return { alarm: await state.storage.getAlarm(), live: core.state !== null, now: Date.now() };
  });
}

const alarmsOf = (s: Session) => requestsOf(s.sessionId).filter((r) => r === "session.alarm").length;

describe("the alarm schedule", () => {
  it("sets one alarm, at the session's expiry, when the session starts", async () => {
    const before = Date.now();
    const s = await startSession("2025-11-25");
    const { alarm } = await look(s);
    expect(alarm).toBeGreaterThanOrEqual(before + IDLE_TIMEOUT_MS);
    expect(alarm).toBeLessThanOrEqual(Date.now() + IDLE_TIMEOUT_MS);
  });

  it("over a life with a stream held open past the timeout: every next alarm is in the future, and the end deletes all", async () => {
    const s = await startSession("2025-11-25");
    const stream = await getStream(s);
    expect(stream.status).toBe(200);
    resetMeter();

    // Idle past the timeout while the stream stays open: the alarm fires on its own (at most once
    // per timeout), keeps the session and sets the next one in the future.
    await sleep(IDLE_TIMEOUT_MS + 700);
    expect(alarmsOf(s)).toBeGreaterThanOrEqual(1);
    expect(alarmsOf(s)).toBeLessThanOrEqual(2);
    for (let i = 0; i < 3; i++) {
      expect(await runDurableObjectAlarm(sessionStub(s.sessionId))).toBe(true);
      const seen = await look(s);
      expect(seen.live).toBe(true);
      expect(seen.alarm).toBeGreaterThan(seen.now);
    }

    // The stream closes: the next alarm finds the session idle and free, and deletes it.
    await stream.body?.cancel();
    // The object notices at its next keep-alive write (every 0.1 s here).
    await sleep(400);
    expect(await runDurableObjectAlarm(sessionStub(s.sessionId))).toBe(true);
    const end = await look(s);
    expect(end.live).toBe(false);
    expect(end.alarm).toBeNull();
    const gone = await call(s.sessionId, s.version, "ping");
    expect(gone).toMatchObject({ error: { code: -32001 } });
  });

  it("a session in use is not expired: its alarm moves to the last activity's expiry, in the future", async () => {
    const s = await startSession("2025-11-25");
    await sleep(IDLE_TIMEOUT_MS - 500);
    expect(await call(s.sessionId, s.version, "ping")).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    await sleep(600);
    // The alarm set at the start has fired (or fires now): the ping 0.6 s ago keeps the session.
    await runDurableObjectAlarm(sessionStub(s.sessionId));
    const seen = await look(s);
    expect(seen.live).toBe(true);
    expect(seen.alarm).toBeGreaterThan(seen.now);
    expect(seen.alarm).toBeLessThanOrEqual(seen.now + IDLE_TIMEOUT_MS);
  });
});
