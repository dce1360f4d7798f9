/**
 * Tracing into the hub (hubObject(edge) carries the server's tracer; an in-memory tracer stands in
 * for @opentelemetry/api's): a publish from a traced call continues the call's trace in the hub,
 * on shard 0 and on every shard it has deliver, and opening a listen stream yields a hub span
 * under the Worker's span for the request.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { envelope, headers2026 } from "../helpers/era-2026";
import { SseReader } from "../helpers/sse";
import { hubObject } from "../../src/features/hub/hub-object";
import { WATCHED } from "../servers/operate/watched";
import { callIn, postRpc, textOf, type Place } from "../operate/helpers";
import { getStream, send, sseOf, startSession } from "../helpers/session";
import { finished, type FinishedSpan } from "../servers/operate/memory-tracer";

const CLIENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CLIENT_SPAN = "00f067aa0ba902b7";
const TRACEPARENT = `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`;
const SERVER = 1;
const CLIENT = 2;
const UPDATED = "notifications/resources/updated";

beforeEach(() => {
  finished.length = 0;
});

function inTrace(): FinishedSpan[] {
  return finished.filter((s) => s.traceId === CLIENT_TRACE);
}

/** Spans end as their work ends; a task's status publishes run after its answer (waitUntil). */
async function eventually(check: () => void): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      check();
      return;
    } catch (error) {
      if (i >= 50) throw error;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

describe("a publish from a traced call", () => {
  const cases: [Place, string, string][] = [
    ["worker 2026", "publishes", "worker"],
    ["worker 2026", "publishes_interactive", "worker"],
    ["session object", "publishes_interactive", "session"],
    ["task run", "publishes", "task"],
  ];
  it.each(cases)("%s (%s): the hub's publish span is the child of the call's span in its place", async (place, tool, spanPlace) => {
    const answer = await callIn(place, tool, { meta: { traceparent: TRACEPARENT } });
    expect(textOf(answer)).toMatch(/^published/);
    // publish returns once handed off: the hub's spans may end after the call's answer.
    await eventually(() => {
      const spans = inTrace();
      const call = spans.find((s) => s.name === `tools/call ${tool}` && s.attributes["mcp_edge.place"] === spanPlace);
      expect(call).toBeDefined();
      const published = spans.filter((s) => s.name === UPDATED && s.parentSpanId === call?.spanId);
      expect(published).toHaveLength(1);
      expect(published[0]).toMatchObject({
        kind: CLIENT,
        attributes: { "mcp.method.name": UPDATED, "mcp.resource.uri": WATCHED, "mcp_edge.place": "hub", "mcp_edge.hub_shard": 0 },
      });
      // publishAndCount waits for every shard: shard 0's span then carries the counts.
      if (tool === "publishes") {
        expect(published[0]?.attributes).toMatchObject({
          "mcp_edge.listen_streams": expect.any(Number),
          "mcp_edge.sessions": expect.any(Number),
        });
      }
      // Every other shard shard 0 handed it on to: a span each, the child of shard 0's, with what it delivered.
      const deliveries = spans.filter((s) => s.name === UPDATED && s !== published[0]);
      for (const d of deliveries) {
        expect(d).toMatchObject({ kind: CLIENT, parentSpanId: published[0]?.spanId });
        expect(d.attributes["mcp_edge.listen_streams"]).toEqual(expect.any(Number));
      }
    });
  });

  it("a task's own status publishes continue its run's trace", async () => {
    await callIn("task run", "simple", { meta: { traceparent: TRACEPARENT } });
    await eventually(() => {
      const run = inTrace().find((s) => s.attributes["mcp_edge.place"] === "task");
      expect(run).toBeDefined();
      const statuses = inTrace().filter((s) => s.name === "notifications/tasks" && s.attributes["mcp_edge.hub_shard"] === 0);
      // The completed status at least (a quick run may publish nothing before it).
      expect(statuses.length).toBeGreaterThanOrEqual(1);
      for (const s of statuses) expect(s.parentSpanId).toBe(run?.spanId);
    });
  });

  it("a publish without a trace starts the hub's own trace", async () => {
    const { publish } = await import("../../src/features/hub/publish");
    const { env } = await import("cloudflare:workers");
    await publish(env as never, { type: "listChanged", list: "tools" });
    await eventually(() => {
      const span = finished.find((s) => s.name === "notifications/tools/list_changed" && s.attributes["mcp_edge.hub_shard"] === 0);
      expect(span).toMatchObject({ parentSpanId: undefined, kind: CLIENT });
      expect(span?.traceId).not.toBe(CLIENT_TRACE);
    });
  });
});

describe("a listen stream", () => {
  it("opening one yields a hub span under the Worker's span; a traced publish reaches its shard under shard 0's span", async () => {
    const params = { notifications: { resourceSubscriptions: [WATCHED] } };
    const body = {
      jsonrpc: "2.0",
      id: "listen-7",
      method: "subscriptions/listen",
      params: { ...params, _meta: envelope({}, { traceparent: TRACEPARENT }) },
    };
    // This client's streams live on shard 9 of 16 (FNV-1a of "ip:203.0.113.7"), not shard 0.
    const res = await postRpc(body, { ...headers2026("subscriptions/listen", params), "CF-Connecting-IP": "203.0.113.7" });
    expect(res.headers.get("Content-Type")).toBe("text/event-stream");
    const stream = new SseReader(res);
    expect((await stream.next())?.json?.method).toBe("notifications/subscriptions/acknowledged");
    const spans = inTrace();
    const worker = spans.find((s) => s.parentSpanId === CLIENT_SPAN);
    expect(worker).toMatchObject({
      name: "subscriptions/listen",
      kind: SERVER,
      attributes: {
        "mcp.method.name": "subscriptions/listen",
        "mcp_edge.place": "worker",
        "mcp_edge.do_requests": 1,
        "jsonrpc.request.id": "listen-7",
      },
    });
    const hub = spans.find((s) => s.parentSpanId === worker?.spanId);
    expect(hub).toMatchObject({
      name: "subscriptions/listen",
      kind: SERVER,
      attributes: { "mcp_edge.place": "hub", "mcp.protocol.version": "2026-07-28", "mcp_edge.hub_shard": 9 },
    });
    expect(hub?.status).toBeUndefined();

    // A traced call publishes: shard 0's span is the call's child, shard 9's delivery (to this stream) shard 0's.
    finished.length = 0;
    await callIn("worker 2026", "publishes", { meta: { traceparent: TRACEPARENT } });
    expect((await stream.next())?.json).toMatchObject({ method: UPDATED, params: { uri: WATCHED } });
    await eventually(() => {
      const call = inTrace().find((s) => s.name === "tools/call publishes");
      const shard0 = inTrace().find((s) => s.name === UPDATED && s.parentSpanId === call?.spanId);
      expect(shard0?.attributes).toMatchObject({ "mcp_edge.hub_shard": 0, "mcp_edge.listen_streams": 1 });
      const delivery = inTrace().find(
        (s) => s.name === UPDATED && s.parentSpanId === shard0?.spanId && s.attributes["mcp_edge.listen_streams"] === 1,
      );
      expect(delivery).toMatchObject({ kind: CLIENT, attributes: { "mcp_edge.place": "hub", "mcp_edge.sessions": 0 } });
    });
    await stream.cancel();
  });
});

describe("hubObject", () => {
  it("takes only what createMcpEdge returned (else the hub would silently trace nothing)", () => {
    expect(() => hubObject({ worker: {} } as never)).toThrow(/pass the object createMcpEdge returned/);
  });
});

describe("a publish reaching a 2025 session", () => {
  it("continues into the session object: its delivery span is the child of the hub's span for the event", async () => {
    const s = await startSession("2025-11-25");
    const subscribed = await send(s, { jsonrpc: "2.0", id: 1, method: "resources/subscribe", params: { uri: WATCHED } });
    expect(subscribed.status).toBe(200);
    const stream = sseOf(await getStream(s));
    try {
      const answer = await callIn("worker 2026", "publishes", { meta: { traceparent: TRACEPARENT } });
      expect(textOf(answer)).toMatch(/^published/);
      // The stream opens with its priming event (an id, no data), then carries the update.
      let event = await stream.next();
      while (event && event.json === undefined) event = await stream.next();
      expect(event?.json).toMatchObject({ method: UPDATED, params: { uri: WATCHED } });
      await eventually(() => {
        const spans = inTrace();
        const delivery = spans.find((span) => span.name === UPDATED && span.attributes["mcp_edge.place"] === "session");
        expect(delivery).toMatchObject({
          kind: CLIENT,
          attributes: { "mcp.session.id": s.sessionId, "mcp.resource.uri": WATCHED, "mcp_edge.delivery": "sent" },
        });
        const parent = spans.find((span) => span.spanId === delivery?.parentSpanId);
        expect(parent).toMatchObject({ name: UPDATED, attributes: { "mcp_edge.place": "hub" } });
      });
    } finally {
      await stream.cancel();
    }
  });
});
