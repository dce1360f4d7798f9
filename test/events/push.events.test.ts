/**
 * events/stream (the draft conformance scenario `events-push`, check ids `sep-9999-stream-*`) on
 * the test server (heartbeat 300 ms): `active` first, each emit as an event notification with the
 * subscription id, heartbeats as `data:` frames carrying the cursor, replay from a cursor, one emit
 * reaching every open stream, a client that leaves freeing its socket, an upstream-backed type's
 * stream driven by its poll, and the errors answered before any stream opens.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RpcError } from "../../src/jsonrpc/errors";
import { post2026 } from "../helpers/era-2026";
import { post } from "../helpers/mcp";
import { DECLARED, eventsInSession, poll2026 } from "../helpers/events";
import { startSession } from "../helpers/session";
import { SseReader, type SseEvent } from "../helpers/sse";
import { feature, upstream, upstreamFailure } from "../servers/events/entry";

const SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId";
const open: SseReader[] = [];

afterEach(async () => {
  for (const reader of open.splice(0)) await reader.cancel();
});

function freshTopic(): string {
  return `push-${crypto.randomUUID().slice(0, 8)}`;
}

async function openStream(params: Record<string, unknown>, id: number | string = 7): Promise<{ res: Response; reader: SseReader }> {
  const res = await post2026("events/stream", params, { capabilities: DECLARED, id });
  expect(res.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
  const reader = new SseReader(res);
  open.push(reader);
  return { res, reader };
}

async function nextMessage(reader: SseReader, method?: string): Promise<Record<string, unknown>> {
  for (;;) {
    const event = (await reader.next()) as SseEvent | undefined;
    if (!event) throw new Error("the stream ended");
    if (method === undefined || event.json?.method === method) return event.json!;
  }
}

function emitNote(text: string, topic: string) {
  return feature.emit(env, "note.posted", { text }, { arguments: { topic } });
}

function socketsOf(name: string): Promise<number> {
  const stub = (env as unknown as { MCP_EVENTS: DurableObjectNamespace }).MCP_EVENTS.getByName(name);
  return runInDurableObject(
    stub,
    (_object, state) => state.getWebSockets("events").filter((ws) => ws.readyState === WebSocket.OPEN).length,
  );
}

describe("events/stream of an emitted event", () => {
  it("opens with notifications/events/active carrying a cursor and the subscription id (sep-9999-stream-implemented, -active-confirmation, -subscription-id-meta)", async () => {
    const { reader } = await openStream({ name: "note.posted", arguments: { topic: freshTopic() }, cursor: null }, "sub-1");
    const first = await nextMessage(reader);
    expect(first).toEqual({
      jsonrpc: "2.0",
      method: "notifications/events/active",
      params: { cursor: expect.any(String), truncated: false, _meta: { [SUBSCRIPTION]: "sub-1" } },
    });
  });

  it("delivers each matching emit as notifications/events/event (sep-9999-stream-event-notification)", async () => {
    const topic = freshTopic();
    const { reader } = await openStream({ name: "note.posted", arguments: { topic }, cursor: null });
    await nextMessage(reader, "notifications/events/active");
    await emitNote("elsewhere", freshTopic());
    await emitNote("here", topic);
    const event = await nextMessage(reader, "notifications/events/event");
    expect(event.params).toEqual({
      eventId: expect.any(String),
      name: "note.posted",
      timestamp: expect.any(String),
      data: { text: "here" },
      cursor: expect.any(String),
      _meta: { [SUBSCRIPTION]: 7 },
    });
  });

  it("sends heartbeats as data: frames carrying the last cursor, and only notifications/events/* (sep-9999-stream-heartbeat-required, -carries-cursor, -not-sse-comment, -carries-only-event-notifications)", async () => {
    const topic = freshTopic();
    const res = await post2026("events/stream", { name: "note.posted", arguments: { topic }, cursor: null }, { capabilities: DECLARED });
    const body = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    let emitted: { seq: number } | undefined;
    let cursorOfEvent: string | undefined;
    const heartbeats: { cursor: unknown }[] = [];
    while (heartbeats.length < 2) {
      const { value, done } = await body.read();
      if (done) throw new Error("the stream ended");
      text += decoder.decode(value, { stream: true });
      const blocks = text.split("\n\n");
      text = blocks.pop() ?? "";
      for (const block of blocks) {
        for (const line of block.split("\n")) expect(line.startsWith(":")).toBe(false);
        const data = block.split("\n").find((line) => line.startsWith("data: "));
        const message = JSON.parse(data!.slice(6)) as { method: string; params: Record<string, unknown> };
        expect(message.method).toMatch(/^notifications\/events\//);
        expect(message.params._meta).toEqual({ [SUBSCRIPTION]: 1 });
        if (message.method === "notifications/events/active") emitted = await emitNote("beat", topic);
        if (message.method === "notifications/events/event") cursorOfEvent = message.params.cursor as string;
        if (message.method === "notifications/events/heartbeat" && cursorOfEvent !== undefined)
          heartbeats.push({ cursor: message.params.cursor });
      }
    }
    expect(emitted).toBeDefined();
    expect(heartbeats).toEqual([{ cursor: cursorOfEvent }, { cursor: cursorOfEvent }]);
    await body.cancel();
  });

  it("replays what was emitted after the cursor it was opened with, then goes live", async () => {
    const topic = freshTopic();
    const { cursor } = await poll2026({ name: "note.posted", arguments: { topic }, cursor: null });
    await emitNote("missed", topic);
    const { reader } = await openStream({ name: "note.posted", arguments: { topic }, cursor });
    expect((await nextMessage(reader)).params).toMatchObject({ cursor, truncated: false });
    expect(((await nextMessage(reader, "notifications/events/event")).params as { data: unknown }).data).toEqual({ text: "missed" });
    await emitNote("live", topic);
    expect(((await nextMessage(reader, "notifications/events/event")).params as { data: unknown }).data).toEqual({ text: "live" });
  });

  it("reaches every open stream with one emit, concurrent streams each with its own subscription id (sep-9999-stream-exempt-from-concurrency-cap)", async () => {
    const topic = freshTopic();
    const a = await openStream({ name: "note.posted", arguments: { topic }, cursor: null }, "a");
    const b = await openStream({ name: "note.posted", arguments: {}, cursor: null }, "b");
    await nextMessage(a.reader, "notifications/events/active");
    await nextMessage(b.reader, "notifications/events/active");
    const outcome = await emitNote("both", topic);
    expect(outcome.streams).toBeGreaterThanOrEqual(2);
    const [ea, eb] = await Promise.all([
      nextMessage(a.reader, "notifications/events/event"),
      nextMessage(b.reader, "notifications/events/event"),
    ]);
    expect((ea.params as { _meta: unknown })._meta).toEqual({ [SUBSCRIPTION]: "a" });
    expect((eb.params as { _meta: unknown })._meta).toEqual({ [SUBSCRIPTION]: "b" });
  });

  it("stops delivering to a client that left: its socket at the events object closes within a heartbeat (sep-9999-stream-cancel-stops-delivery)", async () => {
    const before = await socketsOf("deploy.finished");
    const { reader } = await openStream({ name: "deploy.finished", arguments: {}, cursor: null });
    await nextMessage(reader, "notifications/events/active");
    expect(await socketsOf("deploy.finished")).toBe(before + 1);
    await reader.cancel();
    await vi.waitFor(async () => expect(await socketsOf("deploy.finished")).toBe(before), { timeout: 3_000, interval: 50 });
    const outcome = await feature.emit(env, "deploy.finished", { id: "after-cancel" });
    expect(outcome.streams).toBe(before);
  });
});

describe("events/stream errors: a JSON-RPC error and no stream (sep-9999-stream-error-before-open)", () => {
  async function refused(params: Record<string, unknown>, capabilities: Record<string, unknown> = DECLARED) {
    const res = await post2026("events/stream", params, { capabilities });
    expect(res.headers.get("Content-Type")).toBe("application/json");
    return { status: res.status, body: (await res.json()) as { id: unknown; error: { code: number; message: string; data?: unknown } } };
  }

  it("answers an unknown name with NotFound", async () => {
    const { status, body } = await refused({ name: "no.such", arguments: {}, cursor: null });
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: 1, error: { code: -32023, data: { kind: "event" } } });
  });

  it("answers bad arguments with -32602 naming the field", async () => {
    const { body } = await refused({ name: "ticket.opened", arguments: { queue: 3 }, cursor: null });
    expect(body.error.code).toBe(-32602);
    expect(body.error.message).toContain("queue");
  });

  it("answers a type not offered by push with Unsupported", async () => {
    const { body } = await refused({ name: "audit.logged", arguments: {}, cursor: null });
    expect(body.error).toMatchObject({ code: -32026, data: { feature: "deliveryMode", value: "push" } });
  });

  it("answers an upstream-backed type whose first poll refuses with that error", async () => {
    upstreamFailure.next = new RpcError(-32024, "Forbidden: not your queue", { reason: "not your queue" });
    const { body } = await refused({ name: "ticket.opened", arguments: { queue: "sales" }, cursor: null });
    expect(body.error).toEqual({ code: -32024, message: "Forbidden: not your queue", data: { reason: "not your queue" } });
  });

  it("answers ResourceExhausted past maxStreams open streams of one type, data.limit streams", async () => {
    const opened: Response[] = [];
    let refusal: { error: { code: number; data?: unknown } } | undefined;
    for (let i = 0; i <= 8 && !refusal; i++) {
      const res = await post2026(
        "events/stream",
        { name: "deploy.finished", arguments: {}, cursor: null },
        { capabilities: DECLARED, id: `r${i}` },
      );
      if (res.headers.get("Content-Type") === "application/json") refusal = (await res.json()) as never;
      else opened.push(res);
    }
    for (const res of opened) await res.body?.cancel();
    expect(opened.length).toBeLessThanOrEqual(8);
    expect(refusal?.error).toMatchObject({ code: -32025, data: { limit: "streams", max: 8 } });
  });

  it("refuses a request id too long to keep on the stream's socket with -32602, in both eras", async () => {
    const id = "x".repeat(20_000);
    const params = { name: "note.posted", arguments: { topic: freshTopic() }, cursor: null };
    const session = await startSession("2025-11-25", DECLARED);
    const answers = [
      await post2026("events/stream", params, { capabilities: DECLARED, id }),
      await post({ jsonrpc: "2.0", id, method: "events/stream", params }, { sessionId: session.sessionId, version: session.version }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Type")).toBe("application/json");
      const body = (await res.json()) as { id: unknown; error: { code: number; message: string } };
      expect(body.id).toBe(id);
      expect(body.error).toEqual({
        code: -32602,
        message: "Invalid params: the request id is 20000 characters long; an events/stream request's id may be at most 1024",
      });
    }
  });

  it("refuses a client that did not declare the extension with 400 -32021", async () => {
    const { status, body } = await refused({ name: "note.posted", arguments: {}, cursor: null }, {});
    expect(status).toBe(400);
    expect(body.error.code).toBe(-32021);
  });
});

describe("events/stream of an upstream-backed event", () => {
  it("polls the upstream in the Worker and delivers what appeared, no events object involved", async () => {
    const { reader } = await openStream({ name: "ticket.opened", arguments: { queue: "support" }, cursor: null });
    const active = await nextMessage(reader, "notifications/events/active");
    expect(active.params).toMatchObject({ cursor: String(upstream.length), truncated: false });
    upstream.push({ id: `T-${crypto.randomUUID()}`, queue: "support", title: "pushed", at: new Date().toISOString() });
    const event = await nextMessage(reader, "notifications/events/event");
    expect(event.params).toMatchObject({ name: "ticket.opened", data: { title: "pushed" } });
  });

  it("ends with notifications/events/terminated, then the final result, when the upstream refuses access (sep-9999-stream-terminated-ends-subscription, -final-result-shape)", async () => {
    const { reader } = await openStream({ name: "ticket.opened", arguments: { queue: "sales" }, cursor: null }, "t");
    await nextMessage(reader, "notifications/events/active");
    upstreamFailure.next = new RpcError(-32024, "Forbidden: access revoked", { reason: "access revoked" });
    const terminated = await nextMessage(reader, "notifications/events/terminated");
    expect(terminated.params).toEqual({ error: { code: -32024, message: "Forbidden: access revoked" }, _meta: { [SUBSCRIPTION]: "t" } });
    const final = (await reader.next())?.json;
    expect(final).toEqual({ jsonrpc: "2.0", id: "t", result: { resultType: "complete", _meta: { [SUBSCRIPTION]: "t" } } });
    expect(await reader.next()).toBeUndefined();
  });

  it("reports a failed round with notifications/events/error and goes on (sep-9999-stream-error-is-recoverable)", async () => {
    const { reader } = await openStream({ name: "ticket.opened", arguments: { queue: "support" }, cursor: null });
    await nextMessage(reader, "notifications/events/active");
    upstreamFailure.next = new Error("upstream 503");
    const error = await nextMessage(reader, "notifications/events/error");
    expect((error.params as { error: { code: number } }).error.code).toBe(-32603);
    upstream.push({ id: `T-${crypto.randomUUID()}`, queue: "support", title: "after the error", at: new Date().toISOString() });
    expect((await nextMessage(reader, "notifications/events/event")).params).toMatchObject({ data: { title: "after the error" } });
  });
});

describe("events/stream in a 2025-11-25 session", () => {
  it("streams to a session that negotiated the extension in initialize: active, then the emit", async () => {
    const session = await startSession("2025-11-25", DECLARED);
    const topic = freshTopic();
    const res = await eventsInSession(session, "events/stream", { name: "note.posted", arguments: { topic }, cursor: null });
    expect(res.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
    const reader = new SseReader(res);
    open.push(reader);
    expect((await nextMessage(reader)).method).toBe("notifications/events/active");
    await emitNote("to a session", topic);
    const event = await nextMessage(reader, "notifications/events/event");
    expect(event.params).toMatchObject({ data: { text: "to a session" }, _meta: { [SUBSCRIPTION]: 1 } });
  });

  it("answers -32601 naming the extension to a session that did not negotiate it, and opens no stream", async () => {
    const session = await startSession("2025-11-25");
    const res = await eventsInSession(session, "events/stream", { name: "note.posted", arguments: {}, cursor: null });
    expect(res.headers.get("Content-Type")).toBe("application/json");
    const body = (await res.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32601);
    expect(body.error.message).toContain("io.modelcontextprotocol/events");
  });
});
