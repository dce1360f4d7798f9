import { describe, expect, it } from "vitest";
import { isResponseTo } from "../helpers/sse";
import { callOnStream, expectOrderedIds, isNotification, startSession, toolText } from "../helpers/session";

const COUNT = 5;

describe("an interactive call's POST stream", () => {
  it("starts with a priming event (an id, a retry hint, empty data) in a 2025-11-25 session", async () => {
    const s = await startSession("2025-11-25");
    const events = await (await callOnStream(s, 1, "stream_progress", { count: COUNT }, "tok")).all();
    const priming = events[0];
    expect(priming?.id).toMatch(/^\d+_0$/);
    expect(priming?.retry).toBeGreaterThan(0);
    expect(priming?.data).toBe("");
  });

  it("carries the progress notifications, then the response, in a 2025-11-25 session", async () => {
    const s = await startSession("2025-11-25");
    const events = await (await callOnStream(s, 1, "stream_progress", { count: COUNT }, "tok")).all();
    expect(events).toHaveLength(1 + COUNT + 1);
    const progress = events.slice(1, -1);
    expect(progress.every(isNotification("notifications/progress"))).toBe(true);
    expect(progress.map((e) => e.json?.params)).toEqual(
      Array.from({ length: COUNT }, (_, i) => ({ progressToken: "tok", progress: i + 1, total: COUNT })),
    );
    expect(events.at(-1)?.json).toMatchObject({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: `done ${COUNT}` }] } });
  });

  it("sends no priming event in a 2025-06-18 session: the first event is the first progress notification", async () => {
    const s = await startSession("2025-06-18");
    const events = await (await callOnStream(s, 1, "stream_progress", { count: COUNT }, 42)).all();
    expect(events).toHaveLength(COUNT + 1);
    expect(events[0]?.json?.params).toEqual({ progressToken: 42, progress: 1, total: COUNT });
    expect(events.every((e) => e.data !== "")).toBe(true);
    expect(toolText(events.at(-1))).toBe(`done ${COUNT}`);
  });

  it.each(["2025-11-25", "2025-06-18"])("gives every event an id, unique and increasing within the stream (%s)", async (version) => {
    const s = await startSession(version);
    const events = await (await callOnStream(s, 1, "stream_progress", { count: 20 }, "tok")).all();
    expect(events.length).toBeGreaterThan(20);
    expectOrderedIds(events);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
  });

  it("closes right after the response", async () => {
    const s = await startSession("2025-06-18");
    const reader = await callOnStream(s, "call-1", "stream_progress", { count: 3 }, "tok");
    await reader.until(isResponseTo("call-1"));
    expect(await reader.next()).toBeUndefined();
  });

  it("carries only the response when the call has no progressToken", async () => {
    const s = await startSession("2025-06-18");
    const events = await (await callOnStream(s, 1, "stream_progress", { count: 3 })).all();
    expect(events).toHaveLength(1);
    expect(toolText(events[0])).toBe("done 3");
  });
});
