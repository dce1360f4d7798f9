/**
 * Operation events: one per MCP operation in each place it runs, with its outcome, duration and
 * the Durable Object requests that place made for it, told to onEvent and written to an
 * Analytics Engine dataset (blobs: method, name, place, outcome, error code; doubles: ms, DO requests, 1,
 * SSE events, rows written, bytes written, open streams).
 */
import { createExecutionContext, env, runInDurableObject } from "cloudflare:test";
import type { McpTaskObject } from "../../durable-objects/tasks/mcp-task";
import type { EdgeEnv } from "../../src/kernel/env";
import { beforeEach, describe, expect, it } from "vitest";
import { envelope, headers2026, toolCall2026 } from "../helpers/era-2026";
import { analyticsEdge, events } from "../servers/operate/entry";
import { answerOf, callIn, postRpc, TASK_CAPS, type Json } from "../operate/helpers";

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
    // The run reports the revision of the request that created the task (tasks exist on 2026-07-28 only).
    expect(run).toMatchObject({ name: "simple", method: "tools/call", outcome: "ok", protocolVersion: "2026-07-28" });
    // tasks/get reaches the task's object: one DO request.
    expect(events.find((e) => e.method === "tasks/get")).toMatchObject({ doRequests: 1 });
  });

  it("a task's run counts what its object stored (its record) and the Durable Object requests the object made", async () => {
    await callIn("task run", "simple");
    // The completed status is published after the run's event: the task's object (waitUntil).
    const run = events.find((e) => e.place === "task");
    // The record stored when the run starts (working) and again when it ends (completed), the tables created first.
    expect(run?.rowsWritten).toBeGreaterThanOrEqual(2);
    expect(run?.bytesWritten).toBeGreaterThan(2 * JSON.stringify({ taskId: "x".repeat(64), status: "completed" }).length);
    // Its client's in-flight slot taken and given back (the ledger object), and the completed status published (the hub).
    expect(run?.doRequests).toBe(3);
    expect(run).toMatchObject({ sseEvents: 0, openStreams: 0 });
  });

  it("a task's asks and their answers are rows its run stored", async () => {
    const caps = { ...TASK_CAPS, elicitation: {} };
    const params = { name: "asks", arguments: {} };
    const body = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { ...params, _meta: envelope(caps) } };
    const created = await answerOf(await postRpc(body, headers2026("tools/call", params)), 7);
    const taskId = created.result?.taskId as string;
    const task = await stub(taskId);
    await runInDurableObject(task, (instance) => (instance as unknown as McpTaskObject).awaitStatus(["input_required"]));
    const withMeta = (extra: Json) => ({ taskId, ...extra, _meta: envelope(caps) });
    const got = await answerOf(
      await postRpc({ jsonrpc: "2.0", id: 8, method: "tasks/get", params: withMeta({}) }, taskHeaders("tasks/get", taskId)),
      8,
    );
    const [key] = Object.keys(got.result?.inputRequests as Json);
    const answer = { action: "accept", content: { name: "Ada" } };
    const update = { jsonrpc: "2.0", id: 9, method: "tasks/update", params: withMeta({ inputResponses: { [key as string]: answer } }) };
    await answerOf(await postRpc(update, taskHeaders("tasks/update", taskId)), 9);
    await runInDurableObject(task, (instance) => (instance as unknown as McpTaskObject).awaitStatus(["completed"]));
    const run = events.find((e) => e.place === "task" && e.name === "asks");
    // The record four times (working, input_required, working, completed), the ask, its answer.
    expect(run?.rowsWritten).toBeGreaterThanOrEqual(6);
    expect(run?.bytesWritten).toBeGreaterThan(JSON.stringify(answer).length + "Your name?".length);
    // And more status publishes than a task that never asks (3): input_required, working and completed,
    // at most one hub request each; the outbox sends statuses queued while a send is in flight as one
    // batch, so working and completed may share a request (publish.ts).
    expect(run?.doRequests).toBeGreaterThanOrEqual(4);
    expect(run?.doRequests).toBeLessThanOrEqual(5);
  });

  it("the session object counts what a call stored and sent: its log notification and its response, and every row its storage wrote", async () => {
    await callIn("session object", "interactive");
    const run = events.find((e) => e.place === "session" && e.name === "interactive");
    expect(run).toMatchObject({ sseEvents: 2 });
    // Rows as billed: its stream (and the stream tables, created by the session's first stream), its
    // request in flight, its log notification; rows written after the event (the response) go on the next.
    expect(run?.rowsWritten).toBeGreaterThan(2);
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

function stub(taskId: string): DurableObjectStub<McpTaskObject> {
  const ns = (env as unknown as EdgeEnv).MCP_TASK as DurableObjectNamespace<McpTaskObject>;
  return ns.get(ns.idFromString(taskId));
}

function taskHeaders(method: string, taskId: string): Record<string, string> {
  return { ...headers2026(method, {}), "Mcp-Name": taskId };
}

describe("the Analytics Engine dataset", () => {
  it("gets one data point per operation, in the documented columns", async () => {
    const points: unknown[] = [];
    const dataset = { writeDataPoint: (point: unknown) => points.push(point) };
    const request = toolCall2026("measured");
    const res = await analyticsEdge.worker.fetch(request, { ...(env as object), TEST_DATASET: dataset } as never, createExecutionContext());
    expect(res.status).toBe(200);
    expect(points).toEqual([
      { blobs: ["tools/call", "measured", "worker", "ok", ""], doubles: [expect.any(Number), 0, 1, 0, 0, 0, 0], indexes: ["measured"] },
    ]);
  });
});
