import { describe, expect, it } from "vitest";
import { call } from "../helpers/mcp";
import { callOnStream, isNotification, sessionState, startSession, type Session } from "../helpers/session";

async function setLevel(s: Session, level: string): Promise<Record<string, unknown>> {
  return call(s.sessionId, s.version, "logging/setLevel", { level }, `set-${level}`);
}

describe("logging/setLevel in a session", () => {
  it("is kept by the session object", async () => {
    const s = await startSession("2025-06-18");
    expect(await setLevel(s, "warning")).toEqual({ jsonrpc: "2.0", id: "set-warning", result: {} });
    expect((await sessionState(s.sessionId))?.logLevel).toBe("warning");
  });

  it("filters out a tool's info messages after the level is set to error", async () => {
    const s = await startSession("2025-06-18");
    await setLevel(s, "error");
    const events = await (await callOnStream(s, 1, "test_tool_with_logging")).all();
    expect(events.filter(isNotification("notifications/message"))).toEqual([]);
    expect(events.map((e) => e.json?.id)).toEqual([1]);
  });

  it("sends all three info messages after the level is lowered to debug", async () => {
    const s = await startSession("2025-06-18");
    await setLevel(s, "error");
    await setLevel(s, "debug");
    const events = await (await callOnStream(s, 1, "test_tool_with_logging")).all();
    expect(events.filter(isNotification("notifications/message")).map((e) => e.json?.params)).toEqual([
      { level: "info", data: "Tool execution started" },
      { level: "info", data: "Tool processing data" },
      { level: "info", data: "Tool execution completed" },
    ]);
    expect(events.at(-1)?.json?.id).toBe(1);
  });

  it("rejects an unknown level with -32602 and keeps the previous one", async () => {
    const s = await startSession("2025-06-18");
    await setLevel(s, "error");
    expect(await setLevel(s, "loud")).toMatchObject({ id: "set-loud", error: { code: -32602 } });
    expect((await sessionState(s.sessionId))?.logLevel).toBe("error");
  });
});
