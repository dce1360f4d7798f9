/**
 * Limits at their boundaries (docs/configuration.md "Limits" and "Configuration"): body size (exactly 4 MiB is
 * served, one byte more is 413, counted in bytes not characters), one stored message (2,000,000
 * bytes), open streams per session (429), pending server requests per session (32), storage per
 * session bounded, idle expiry, and a flood of initialize requests that cannot grow storage
 * without bound. Plus initialize inputs too big or too deep to store.
 */
import { listDurableObjectIds, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterAll, describe, expect, it } from "vitest";
import { SseReader, type SseEvent } from "../helpers/sse";
import { isRequest, sessionStub, tableSizes } from "../helpers/session";
import { sessionNamespace } from "../helpers/rpc-expect";
import { CODE, expectRefusal } from "./support/documented";
import { call, callOnStream, getStream, post, startSession } from "./support/direct";
import { reportFigures } from "./support/settings";

const MAX_BODY = 4 * 1024 * 1024;
const MAX_EVENT = 2_000_000;
const IDLE_TIMEOUT_MS = 30 * 60_000;
const figures: Record<string, number> = {};
afterAll(() => reportFigures("limits-and-bounds", figures));

const encoder = new TextEncoder();
const bytes = (text: string) => encoder.encode(text).byteLength;

/** A tools/call body of exactly `size` bytes whose padding is mostly two-byte characters (é). */
function bodyOfBytes(size: number, tool: string, args: Record<string, unknown>): string {
  const empty = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: tool, arguments: { ...args, padding: "" } },
  });
  const room = size - bytes(empty);
  const pad = "é".repeat(Math.floor(room / 2)) + "a".repeat(room % 2);
  const body = empty.replace('"padding":""', () => `"padding":"${pad}"`);
  expect(bytes(body)).toBe(size);
  return body;
}

describe("body size: 4 MiB counted in bytes", () => {
  it("serves a body of exactly 4 MiB on the session object's lane (an interactive call)", async () => {
    const s = await startSession("2025-06-18");
    const body = bodyOfBytes(MAX_BODY, "stream_progress", { count: 1 });
    expect(body.length).toBeLessThan(MAX_BODY); // fewer characters than bytes: the limit must count bytes
    const events = await new SseReader(await post(body, s)).all();
    expect(events.at(-1)?.json).toMatchObject({ id: 1, result: { content: [{ text: "done 1" }] } });
  });

  it("serves a body of exactly 4 MiB in the Worker lane (a simple call in a session)", async () => {
    const s = await startSession("2025-06-18");
    const res = await post(bodyOfBytes(MAX_BODY, "echo", { text: "ok" }), s);
    expect(await res.json()).toMatchObject({ id: 1, result: { content: [{ text: "ok" }] } });
  });

  it.each([
    ["the session object's lane", "stream_progress", { count: 1 }],
    ["the Worker lane", "echo", { text: "ok" }],
  ])("refuses 4 MiB + 1 byte with 413 and -32003 on %s, though it has fewer characters than the limit", async (_lane, tool, args) => {
    const s = await startSession("2025-06-18");
    const body = bodyOfBytes(MAX_BODY + 1, tool, args);
    expect(body.length).toBeLessThan(MAX_BODY);
    await expectRefusal(await post(body, s), 413, CODE.LIMIT_EXCEEDED);
    expect(await call(s, "ping")).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });
});

/** The stored event of test_elicitation's result for accepted content `username`. */
function resultEvent(username: string): string {
  const content = JSON.stringify({ username, email: "e" });
  return JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    result: { content: [{ type: "text", text: `User response: action=accept, content=${content}` }] },
  });
}

async function elicitAndAccept(username: string): Promise<SseEvent> {
  const s = await startSession("2025-06-18", { elicitation: {} });
  const stream = await callOnStream(s, 1, "test_elicitation", { message: "Who?" });
  const asked = (await stream.until(isRequest("elicitation/create"))).at(-1) as SseEvent;
  expect(
    (await post({ jsonrpc: "2.0", id: asked.json?.id, result: { action: "accept", content: { username, email: "e" } } }, s)).status,
  ).toBe(202);
  const rest = await stream.all();
  expect(rest).toHaveLength(1);
  return rest[0] as SseEvent;
}

describe("one stored message: at most 2,000,000 bytes", () => {
  it("delivers a response of exactly 2,000,000 bytes", async () => {
    const username = "u".repeat(MAX_EVENT - bytes(resultEvent("")));
    expect(bytes(resultEvent(username))).toBe(MAX_EVENT);
    const event = await elicitAndAccept(username);
    expect(event.data).toBe(resultEvent(username));
  });

  it("answers a response of 2,000,001 bytes with a -32003 error for the same request", async () => {
    const username = "u".repeat(MAX_EVENT + 1 - bytes(resultEvent("")));
    const event = await elicitAndAccept(username);
    expect(event.json).toMatchObject({ jsonrpc: "2.0", id: 1, error: { code: CODE.LIMIT_EXCEEDED } });
  });

  it("counts bytes, not characters: 2,000,001 bytes of two-byte characters is refused too", async () => {
    const base = bytes(resultEvent(""));
    const room = MAX_EVENT + 1 - base;
    const username = "é".repeat(Math.floor(room / 2)) + "u".repeat(room % 2);
    expect(bytes(resultEvent(username))).toBe(MAX_EVENT + 1);
    const event = await elicitAndAccept(username);
    expect(event.json).toMatchObject({ id: 1, error: { code: CODE.LIMIT_EXCEEDED } });
  });
});

describe("open streams per session: 100, then 429", () => {
  it("refuses the 101st concurrent POST stream with 429 and -32003, and accepts one again when a stream ends", {
    timeout: 120_000,
  }, async () => {
    const s = await startSession("2025-06-18");
    const open: SseReader[] = [];
    for (let i = 1; i <= 100; i++) {
      const reader = await callOnStream(s, `c${i}`, "slow_countdown", { seconds: 60 }, `t${i}`);
      await reader.next();
      open.push(reader);
    }
    await expectRefusal(
      await post({ jsonrpc: "2.0", id: "c101", method: "tools/call", params: { name: "slow_countdown", arguments: { seconds: 60 } } }, s),
      429,
      CODE.LIMIT_EXCEEDED,
    );
    figures.concurrentStreamsHeld = open.length;
    expect(
      (await post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "c1", reason: "make room" } }, s)).status,
    ).toBe(202);
    await open[0]?.all();
    const again = await callOnStream(s, "c102", "stream_progress", { count: 1 }, "t");
    expect((await again.all()).at(-1)?.json?.id).toBe("c102");
    for (let i = 2; i <= 100; i++)
      await post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: `c${i}`, reason: "done" } }, s);
    for (const reader of open.slice(1)) await reader.all();
  });

  // BUG-2: GET /mcp is not counted against the limit: every GET opens a stream and gets 200.
  it("refuses a GET stream beyond the limit with 429 too", { timeout: 120_000 }, async () => {
    const s = await startSession("2025-06-18");
    const open: Response[] = [];
    for (let i = 0; i < 100; i++) open.push(await getStream(s));
    const extra = await getStream(s);
    const status = extra.status;
    await extra.body?.cancel();
    for (const res of open) await res.body?.cancel();
    expect(status).toBe(429);
  });
});

describe("pending server requests: 32 per session", () => {
  it("counts per session: a session at its limit does not stop another from sampling", { timeout: 60_000 }, async () => {
    const full = await startSession("2025-06-18", { sampling: {} });
    const waiting: { stream: SseReader; id: unknown }[] = [];
    for (let i = 1; i <= 32; i++) {
      const stream = await callOnStream(full, i, "test_sampling", { prompt: `p${i}` });
      waiting.push({ stream, id: (await stream.until(isRequest("sampling/createMessage"))).at(-1)?.json?.id });
    }
    const refused = await (await callOnStream(full, 33, "test_sampling", { prompt: "over" })).all();
    expect(JSON.stringify(refused.at(-1)?.json)).toContain("limit 32");

    const other = await startSession("2025-06-18", { sampling: {} });
    const stream = await callOnStream(other, 1, "test_sampling", { prompt: "still fine" });
    const asked = (await stream.until(isRequest("sampling/createMessage"))).at(-1);
    const SAMPLED = { role: "assistant", content: { type: "text", text: "ok" }, model: "m" };
    await post({ jsonrpc: "2.0", id: asked?.json?.id, result: SAMPLED }, other);
    expect(JSON.stringify((await stream.all()).at(-1)?.json)).toContain("LLM response: ok");
    for (const w of waiting) {
      await post({ jsonrpc: "2.0", id: w.id, result: SAMPLED }, full);
      await w.stream.all();
    }
  });
});

describe("storage per session stays within the documented bounds", () => {
  it("keeps at most 100 streams after 150 finished calls, with nothing in flight", { timeout: 120_000 }, async () => {
    const s = await startSession("2025-06-18");
    for (let i = 1; i <= 150; i++) await (await callOnStream(s, i, "stream_progress", { count: 3 }, "t")).all();
    const sizes = await tableSizes(s.sessionId);
    figures.streamsAfter150Calls = sizes.streams ?? -1;
    figures.eventsAfter150Calls = sizes.events ?? -1;
    figures.metaRows = sizes["(key-value)"] ?? -1;
    expect(sizes.streams).toBeLessThanOrEqual(100);
    expect(sizes.events).toBeLessThanOrEqual(100 * 4);
    expect(sizes.inflight).toBe(0);
    expect(sizes["(key-value)"]).toBeLessThanOrEqual(5);
    expect((await getStream(s, "1_1")).status).toBe(400); // the oldest streams were the ones deleted
  });
});

describe("idle expiry and a flood of initialize requests", () => {
  it("schedules every new session's deletion at once, and the alarms leave no storage behind", { timeout: 120_000 }, async () => {
    const before = new Set((await listDurableObjectIds(sessionNamespace())).map((id) => id.toString()));
    const FLOOD = 200;
    const ids: string[] = [];
    for (let i = 0; i < FLOOD; i++) {
      const res = await post({
        jsonrpc: "2.0",
        id: i,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "flood", version: "1" } },
      });
      expect(res.status).toBe(200);
      ids.push(res.headers.get("Mcp-Session-Id") as string);
    }
    figures.initializeFlood = FLOOD;
    const after = (await listDurableObjectIds(sessionNamespace())).map((id) => id.toString()).filter((id) => !before.has(id));
    expect(new Set(after)).toEqual(new Set(ids)); // one object per initialize, no more

    let rowsPerSession = 0;
    for (const id of ids) {
      const stub = sessionStub(id);
      const alarm = await runInDurableObject(stub, (_i, state) => state.storage.getAlarm());
      expect(alarm, "an abandoned session is already scheduled for deletion").not.toBeNull();
      expect(alarm as number).toBeLessThanOrEqual(Date.now() + IDLE_TIMEOUT_MS + 1);
      rowsPerSession = Math.max(
        rowsPerSession,
        Object.values(await tableSizes(id)).reduce((a, b) => a + b, 0),
      );
      await runInDurableObject(stub, (_i, state) => {
        state.storage.kv.put("last_active", Date.now() - IDLE_TIMEOUT_MS - 1);
      });
      expect(await runDurableObjectAlarm(stub)).toBe(true);
    }
    figures.rowsPerIdleSession = rowsPerSession;
    for (const id of ids) {
      expect(
        Object.values(await tableSizes(id)).every((n) => n === 0),
        `storage of ${id} deleted`,
      ).toBe(true);
      expect((await post({ jsonrpc: "2.0", id: 1, method: "ping" }, { sessionId: id, version: "2025-06-18" })).status).toBe(404);
    }
  });
});

describe("initialize inputs too big or too deep to store", () => {
  // BUG-1: the Worker's init RPC throws (RangeError: Maximum call stack size exceeded) and the router answers 500.
  it("answers initialize with capabilities nested 5,000 deep with a documented JSON-RPC answer, not 500", async () => {
    const body = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"x":${"[".repeat(5000)}${"]".repeat(5000)}}}}`;
    const res = await post(body);
    expect(res.status).toBeLessThan(500);
    const reply = (await res.json()) as { result?: unknown; error?: { code: number } };
    if (reply.error) expect([CODE.INVALID_PARAMS, CODE.LIMIT_EXCEEDED]).toContain(reply.error.code);
  });

  // BUG-1b: init stores the state in one SQLite value: SQLITE_TOOBIG in the object, 500 in the Worker.
  it("answers initialize with 3 MB of capabilities with a documented JSON-RPC answer, not 500", async () => {
    const res = await post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: { x: "a".repeat(3_000_000) } },
    });
    expect(res.status).toBeLessThan(500);
    const reply = (await res.json()) as { result?: unknown; error?: { code: number } };
    if (reply.error) expect([CODE.INVALID_PARAMS, CODE.LIMIT_EXCEEDED]).toContain(reply.error.code);
  });
});
