/**
 * Operation events: one per MCP operation in each place it runs, with its outcome, duration and
 * the Durable Object requests that place made for it, told to onEvent and written to an
 * Analytics Engine dataset (blobs: method, name, place, outcome, error code; doubles: ms, DO requests, 1,
 * SSE events, rows written, bytes written, open streams).
 */
import { createExecutionContext, env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { MCP } from "../helpers/mcp";
import { envelope, headers2026 } from "../helpers/era-2026";
import { analyticsEdge, events } from "./entry";
import { callIn } from "./helpers";

beforeEach(() => {
  events.length = 0;
});

describe("operation events", () => {
  it("a call in the Worker: one event, no Durable Object request", async () => {
    await callIn("worker 2026", "simple");
    expect(events).toEqual([
      expect.objectContaining({
        place: "worker",
        method: "tools/call",
        name: "simple",
        outcome: "ok",
        doRequests: 0,
        protocolVersion: "2026-07-28",
      }),
    ]);
  });

  it("a 2025 session call answered in the Worker counts the confirm call to its session object", async () => {
    await callIn("worker 2025", "simple");
    expect(events.filter((e) => e.name === "simple")).toEqual([
      expect.objectContaining({ place: "worker", doRequests: 1, protocolVersion: "2025-11-25" }),
    ]);
  });

  it("a call forwarded to the session object: the Worker's hop counts one DO request, the object's run is the call", async () => {
    await callIn("session object", "interactive");
    const forwarded = events.filter((e) => e.name === "interactive");
    expect(forwarded.map((e) => [e.place, e.doRequests])).toEqual(
      expect.arrayContaining([
        ["forward", 1],
        ["session", 0],
      ]),
    );
    expect(forwarded).toHaveLength(2);
    expect(forwarded.every((e) => /^[0-9a-f]{64}$/.test(e.sessionId ?? ""))).toBe(true);
  });

  it("a task: its creation counts one DO request in the Worker, its run is an event of the task object", async () => {
    await callIn("task run", "simple");
    const creation = events.find((e) => e.place === "worker" && e.method === "tools/call");
    const run = events.find((e) => e.place === "task");
    expect(creation).toMatchObject({ name: "simple", doRequests: 1, outcome: "ok" });
    expect(run).toMatchObject({ name: "simple", method: "tools/call", outcome: "ok" });
    // tasks/get reaches the task's object: one DO request.
    expect(events.find((e) => e.method === "tasks/get")).toMatchObject({ doRequests: 1 });
  });

  it("the session object counts what a call stored and sent: its log notification and its response, one row and one SSE event each", async () => {
    await callIn("session object", "interactive");
    const run = events.find((e) => e.place === "session" && e.name === "interactive");
    expect(run).toMatchObject({ sseEvents: 2, rowsWritten: 2 });
    // The bytes of the two stored events' JSON, and the call's own stream open when it started.
    expect(run?.bytesWritten).toBeGreaterThan(JSON.stringify({ jsonrpc: "2.0", id: 7, result: { content: [] } }).length);
    expect(run?.openStreams).toBeGreaterThanOrEqual(1);
    // The Worker's hop stores nothing itself.
    expect(events.find((e) => e.place === "forward")).toMatchObject({ sseEvents: 0, rowsWritten: 0, bytesWritten: 0 });
  });

  it("a 2026 call's streamed notifications are SSE events the Worker sent, with nothing stored", async () => {
    await callIn("worker 2026", "interactive", { meta: { "io.modelcontextprotocol/logLevel": "info" } });
    expect(events.find((e) => e.name === "interactive")).toMatchObject({ place: "worker", sseEvents: 1, rowsWritten: 0, bytesWritten: 0 });
  });

  it("marks errors: a failing tool is tool_error, a JSON-RPC error carries its code", async () => {
    await callIn("worker 2026", "throws");
    await callIn("worker 2026", "rpc_refused_simple");
    expect(events.map((e) => [e.outcome, e.errorCode])).toEqual([
      ["tool_error", undefined],
      ["error", -32602],
    ]);
  });
});

describe("the Analytics Engine dataset", () => {
  it("gets one data point per operation, in the documented columns", async () => {
    const points: unknown[] = [];
    const dataset = { writeDataPoint: (point: unknown) => points.push(point) };
    const params = { name: "measured", arguments: {} };
    const request = new Request(MCP, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        ...headers2026("tools/call", params),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { ...params, _meta: envelope() } }),
    });
    const res = await analyticsEdge.worker.fetch(request, { ...(env as object), TEST_DATASET: dataset } as never, createExecutionContext());
    expect(res.status).toBe(200);
    expect(points).toEqual([
      { blobs: ["tools/call", "measured", "worker", "ok", ""], doubles: [expect.any(Number), 0, 1, 0, 0, 0, 0], indexes: ["measured"] },
    ]);
  });
});
