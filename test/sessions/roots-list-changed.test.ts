/** 2025-06-18 "Roots": notifications/roots/list_changed from the client reaches server code. */
import { afterEach, describe, expect, it } from "vitest";
import { demoServer } from "../../src/demo/server";
import type { SessionInfo } from "../../src/mcp/definition/context";
import { openSession, post } from "../helpers/mcp";

describe("notifications/roots/list_changed", () => {
  afterEach(() => {
    demoServer.rootsChangedHandler = undefined;
  });

  it("runs the server's onRootsListChanged handler with the session that sent it", async () => {
    const seen: SessionInfo[] = [];
    let heard!: () => void;
    const called = new Promise<void>((resolve) => (heard = resolve));
    demoServer.onRootsListChanged((session) => {
      seen.push(session);
      heard();
    });
    const { sessionId, version } = await openSession("2025-06-18", { roots: { listChanged: true } });
    const res = await post({ jsonrpc: "2.0", method: "notifications/roots/list_changed" }, { sessionId, version });
    expect(res.status).toBe(202);
    await called;
    expect(seen.map((s) => s.id)).toEqual([sessionId]);
    expect(seen[0]?.clientCapabilities).toEqual({ roots: { listChanged: true } });
  });

  it("answers 202 and keeps the session working when the handler throws", async () => {
    let heard!: () => void;
    const called = new Promise<void>((resolve) => (heard = resolve));
    demoServer.onRootsListChanged(() => {
      heard();
      throw new Error("handler bug");
    });
    const { sessionId, version } = await openSession("2025-06-18", { roots: { listChanged: true } });
    const res = await post({ jsonrpc: "2.0", method: "notifications/roots/list_changed" }, { sessionId, version });
    expect(res.status).toBe(202);
    await called;
    const ping = await post({ jsonrpc: "2.0", id: 9, method: "ping" }, { sessionId, version });
    expect(await ping.json()).toEqual({ jsonrpc: "2.0", id: 9, result: {} });
  });
});
