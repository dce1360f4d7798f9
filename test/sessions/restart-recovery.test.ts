import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call } from "../helpers/mcp";
import {
  answer,
  callOnStream,
  getStream,
  isAnyResponse,
  isRequest,
  sessionStub,
  sseOf,
  startSession,
  toolText,
  type Session,
} from "../helpers/session";

const SESSION_RESTARTED = -32005;

/** Starts slow_countdown, reads its first event, disconnects, and restarts every session object. */
async function restartDuringCountdown(s: Session, id: number): Promise<string> {
  const stream = await callOnStream(s, id, "slow_countdown", { seconds: 30 }, "tok");
  const first = await stream.next();
  await stream.cancel();
  await abortAllDurableObjects();
  return first?.id as string;
}

describe("a session object that restarts", () => {
  it("answers the call that was in flight with a -32005 error, on the call's stream", async () => {
    const s = await startSession("2025-06-18");
    const lastSeen = await restartDuringCountdown(s, 7);

    const resumed = await sseOf(await getStream(s, lastSeen)).all();
    const responses = resumed.filter(isAnyResponse);
    expect(responses).toHaveLength(1);
    expect(responses[0]?.json).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: SESSION_RESTARTED } });
    expect(resumed.at(-1)).toBe(responses[0]);
  });

  it("stores that error: resuming again replays it identically", async () => {
    const s = await startSession("2025-06-18");
    const lastSeen = await restartDuringCountdown(s, 7);

    const once = await sseOf(await getStream(s, lastSeen)).all();
    await abortAllDurableObjects();
    const twice = await sseOf(await getStream(s, lastSeen)).all();
    expect(once.at(-1)?.json).toMatchObject({ id: 7, error: { code: SESSION_RESTARTED } });
    expect(twice).toEqual(once);
  });

  it("keeps the session usable: ping and a new interactive call succeed", async () => {
    const s = await startSession("2025-06-18");
    await restartDuringCountdown(s, 7);

    expect(await call(s.sessionId, s.version, "ping", {}, 8)).toEqual({ jsonrpc: "2.0", id: 8, result: {} });
    const events = await (await callOnStream(s, 9, "stream_progress", { count: 2 }, "tok")).all();
    expect(events.at(-1)?.json?.id).toBe(9);
    expect(toolText(events.at(-1))).toBe("done 2");
  });

  it("replays completed events identically after a restart", async () => {
    const s = await startSession("2025-11-25");
    const events = await (await callOnStream(s, 1, "stream_progress", { count: 5 }, "tok")).all();
    await abortAllDurableObjects();

    const replayed = await sseOf(await getStream(s, events[0]?.id)).all();
    expect(replayed).toEqual(events.slice(1));
  });

  it("fails a call waiting on the client's sampling answer with -32005, and ignores the late answer", async () => {
    const s = await startSession("2025-06-18", { sampling: {} });
    const stream = await callOnStream(s, 3, "test_sampling", { prompt: "hi" });
    const asked = (await stream.until(isRequest("sampling/createMessage"))).at(-1);
    await stream.cancel();
    await abortAllDurableObjects();

    const late = await answer(s, asked?.json?.id, { role: "assistant", content: { type: "text", text: "too late" }, model: "m" });
    expect(late.status).toBe(202);
    const resumed = await sseOf(await getStream(s, asked?.id)).all();
    expect(resumed).toHaveLength(1);
    expect(resumed[0]?.json).toMatchObject({ id: 3, error: { code: SESSION_RESTARTED } });
  });

  it("wakes up with the negotiated state unchanged and refuses to be initialised again", async () => {
    const s = await startSession("2025-11-25", { sampling: {} });
    const before = await sessionStub(s.sessionId).confirm();
    await abortAllDurableObjects();

    const stub = sessionStub(s.sessionId);
    expect(await stub.confirm()).toEqual(before);
    // Called on the instance: a throwing RPC call is reported by the test pool as an unhandled rejection.
    const second = await runInDurableObject(stub, (instance) =>
      instance.init({ protocolVersion: "2025-06-18", clientInfo: undefined, clientCapabilities: {}, logLevel: undefined }).then(
        () => "initialised",
        (e: Error) => e.message,
      ),
    );
    expect(second).toMatch(/initialised twice/);
    expect(await stub.confirm()).toEqual(before);
  });

  it("keeps the log level set before the restart", async () => {
    const s = await startSession("2025-06-18");
    expect(await call(s.sessionId, s.version, "logging/setLevel", { level: "error" })).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    await abortAllDurableObjects();

    const events = await (await callOnStream(s, 2, "test_tool_with_logging")).all();
    expect(events).toHaveLength(1);
    expect(events[0]?.json).toMatchObject({ id: 2, result: { content: [{ text: "Tool with logging executed successfully" }] } });
  });
});
