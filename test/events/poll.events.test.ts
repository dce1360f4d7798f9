/**
 * events/poll (the draft conformance scenario `events-poll`, check ids `sep-9999-*`) on the test
 * server: an emitted type read from its events object's log (emits through a tool and through
 * `feature.emit`), an upstream-backed type whose `poll` reads the fixture's upstream in the Worker,
 * cursors, `maxEvents`/`hasMore`, `maxAgeMs` and retention with `truncated`, and bad input.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { post2026 } from "../helpers/era-2026";
import { DECLARED, events2026, eventsInSession, poll2026, replyOf, resultOf, type PollResult } from "../helpers/events";
import { startSession } from "../helpers/session";
import { feature, upstream, upstreamReads } from "../servers/events/entry";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
let topic = 0;

/** A topic no other test used: each test's notes reach only its own polls. */
function freshTopic(): string {
  topic++;
  return `topic-${topic}-${crypto.randomUUID().slice(0, 8)}`;
}

function emitNote(text: string, topicName: string, eventId?: string) {
  return feature.emit(env, "note.posted", { text }, { arguments: { topic: topicName }, ...(eventId ? { eventId } : {}) });
}

describe("events/poll of an emitted event", () => {
  it("starts from now with cursor null and needs no subscribe step (sep-9999-poll-bootstraps-subscription, -cursor-null-starts-from-now)", async () => {
    const t = freshTopic();
    await emitNote("before", t);
    const first = await poll2026({ name: "note.posted", arguments: { topic: t }, cursor: null });
    expect(first).toMatchObject({
      events: [],
      cursor: expect.any(String),
      truncated: false,
      hasMore: false,
      nextPollMs: 5000,
      resultType: "complete",
    });
    await emitNote("after", t);
    const second = await poll2026({ name: "note.posted", arguments: { topic: t }, cursor: first.cursor });
    expect(second.events.map((event) => event.data)).toEqual([{ text: "after" }]);
  });

  it("treats an absent cursor as null (sep-9999-cursor-absent-equals-null)", async () => {
    const t = freshTopic();
    await emitNote("old", t);
    const result = await poll2026({ name: "note.posted", arguments: { topic: t } });
    expect(result.events).toEqual([]);
    expect(typeof result.cursor).toBe("string");
  });

  it("returns occurrences with eventId, name, ISO timestamp, data and cursor (sep-9999-occurrence-*)", async () => {
    const t = freshTopic();
    const { cursor } = await poll2026({ name: "note.posted", arguments: { topic: t }, cursor: null });
    await emitNote("hello", t, `evt-${t}`);
    const { events } = await poll2026({ name: "note.posted", arguments: { topic: t }, cursor });
    expect(events).toEqual([
      {
        eventId: `evt-${t}`,
        name: "note.posted",
        timestamp: expect.stringMatching(ISO),
        data: { text: "hello" },
        cursor: expect.any(String),
      },
    ]);
  });

  it("delivers an emit only to polls whose arguments it matches; {} gets every topic", async () => {
    const a = freshTopic();
    const b = freshTopic();
    const all = await poll2026({ name: "note.posted", arguments: {}, cursor: null });
    const onlyA = await poll2026({ name: "note.posted", arguments: { topic: a }, cursor: null });
    await emitNote("to a", a);
    await emitNote("to b", b);
    const gotA = await poll2026({ name: "note.posted", arguments: { topic: a }, cursor: onlyA.cursor });
    expect(gotA.events.map((event) => event.data.text)).toEqual(["to a"]);
    const gotAll = await poll2026({ name: "note.posted", arguments: {}, cursor: all.cursor, maxEvents: 100 });
    expect(gotAll.events.map((event) => event.data.text)).toEqual(expect.arrayContaining(["to a", "to b"]));
  });

  it("caps a batch at maxEvents with hasMore and an intermediate cursor (sep-9999-poll-max-events-cap, -has-more, -next-poll-ms-ignored-when-has-more)", async () => {
    const t = freshTopic();
    const { cursor } = await poll2026({ name: "note.posted", arguments: { topic: t }, cursor: null });
    for (const text of ["one", "two", "three"]) await emitNote(text, t);
    const first = await poll2026({ name: "note.posted", arguments: { topic: t }, cursor, maxEvents: 2 });
    expect(first.events.map((event) => event.data.text)).toEqual(["one", "two"]);
    expect(first).toMatchObject({ hasMore: true, nextPollMs: 0 });
    const rest = await poll2026({ name: "note.posted", arguments: { topic: t }, cursor: first.cursor, maxEvents: 2 });
    expect(rest.events.map((event) => event.data.text)).toEqual(["three"]);
    expect(rest.hasMore).toBe(false);
  });

  it("answers two identical polls alike, from no state of the client's (sep-9999-poll-stateless-request)", async () => {
    const t = freshTopic();
    const { cursor } = await poll2026({ name: "note.posted", arguments: { topic: t }, cursor: null });
    await emitNote("same", t);
    const params = { name: "note.posted", arguments: { topic: t }, cursor };
    expect(await poll2026(params)).toEqual(await poll2026(params));
  });

  it("carries a cursor on a quiet poll, and always a string for this type (sep-9999-cursor-advances-when-quiet, -cursor-consistency, -cursor-opaque)", async () => {
    const t = freshTopic();
    const first = await poll2026({ name: "note.posted", arguments: { topic: t }, cursor: null });
    const quiet = await poll2026({ name: "note.posted", arguments: { topic: t }, cursor: first.cursor });
    expect(quiet.events).toEqual([]);
    expect(typeof quiet.cursor).toBe("string");
    expect(quiet.truncated).toBe(false);
  });

  it("drops an emit repeating a retained eventId", async () => {
    const t = freshTopic();
    const { cursor } = await poll2026({ name: "note.posted", arguments: { topic: t }, cursor: null });
    const first = await emitNote("once", t, `dup-${t}`);
    const again = await emitNote("twice", t, `dup-${t}`);
    expect(again).toMatchObject({ duplicate: true, seq: first.seq });
    const { events } = await poll2026({ name: "note.posted", arguments: { topic: t }, cursor });
    expect(events.map((event) => event.data.text)).toEqual(["once"]);
  });

  it("emits from a tool handler too", async () => {
    const t = freshTopic();
    const { cursor } = await poll2026({ name: "note.posted", arguments: { topic: t }, cursor: null });
    await resultOf(await post2026("tools/call", { name: "post_note", arguments: { text: "from a tool", topic: t } }));
    const { events } = await poll2026({ name: "note.posted", arguments: { topic: t }, cursor });
    expect(events.map((event) => event.data)).toEqual([{ text: "from a tool" }]);
  });
});

describe("events/poll replay bounds", () => {
  it("skips events older than maxAgeMs with truncated: true, never an error (sep-9999-max-age-ms-floor, -sets-truncated, sep-9999-truncated-poll-never-an-error)", async () => {
    const t = freshTopic();
    const { cursor } = await poll2026({ name: "note.posted", arguments: { topic: t }, cursor: null });
    const old = await emitNote("an hour ago", t);
    await emitNote("just now", t);
    // The log's own clock, turned back an hour for one row: what an hour of waiting would leave.
    const stub = (env as unknown as { MCP_EVENTS: DurableObjectNamespace }).MCP_EVENTS.getByName("note.posted");
    await runInDurableObject(stub, (_object, state) => {
      state.storage.sql.exec("UPDATE events_log SET at = at - 3600000 WHERE seq = ?", old.seq);
    });
    const result = await poll2026({ name: "note.posted", arguments: { topic: t }, cursor, maxAgeMs: 60_000 });
    expect(result.events.map((event) => event.data.text)).toEqual(["just now"]);
    expect(result.truncated).toBe(true);
  });

  it("ignores maxAgeMs when the cursor is null (sep-9999-max-age-ms-ignored-when-cursor-null)", async () => {
    const t = freshTopic();
    await emitNote("before", t);
    const result = await poll2026({ name: "note.posted", arguments: { topic: t }, cursor: null, maxAgeMs: 3_600_000 });
    expect(result).toMatchObject({ events: [], truncated: false });
  });

  it("says truncated and returns a fresh cursor when retention trimmed events past the cursor (sep-9999-replay-ceiling-sets-truncated, -truncated-returns-fresh-cursor)", async () => {
    const t = freshTopic();
    const { cursor } = await poll2026({ name: "note.posted", arguments: { topic: t }, cursor: null });
    // The test server keeps 5 events per type.
    for (let i = 1; i <= 7; i++) await emitNote(`n${i}`, t);
    const result = await poll2026({ name: "note.posted", arguments: { topic: t }, cursor, maxEvents: 100 });
    expect(result.truncated).toBe(true);
    expect(result.events.map((event) => event.data.text)).toEqual(["n3", "n4", "n5", "n6", "n7"]);
    expect(result.cursor).not.toBe(cursor);
    const next = await poll2026({ name: "note.posted", arguments: { topic: t }, cursor: result.cursor });
    expect(next).toMatchObject({ events: [], truncated: false });
  });

  it("says truncated: false when nothing was skipped (sep-9999-truncated-false-when-no-replay)", async () => {
    const t = freshTopic();
    const { cursor } = await poll2026({ name: "note.posted", arguments: { topic: t }, cursor: null });
    await emitNote("kept", t);
    expect((await poll2026({ name: "note.posted", arguments: { topic: t }, cursor })).truncated).toBe(false);
  });
});

describe("events/poll of an upstream-backed event", () => {
  beforeEach(() => {
    upstream.length = 0;
  });

  it("runs the author's poll from now, then returns the upstream's events with their own eventIds (sep-9999-occurrence-event-id-from-upstream)", async () => {
    upstream.push({ id: "T-0", queue: "support", title: "before", at: "2026-01-01T00:00:00Z" });
    const first = await poll2026({ name: "ticket.opened", arguments: { queue: "support" }, cursor: null });
    expect(first).toMatchObject({ events: [], cursor: "1", truncated: false, hasMore: false, nextPollMs: 1000 });
    upstream.push({ id: "T-1", queue: "support", title: "printer on fire", at: new Date().toISOString() });
    upstream.push({ id: "T-2", queue: "sales", title: "not this queue", at: new Date().toISOString() });
    const reads = upstreamReads.count;
    const second = await poll2026({ name: "ticket.opened", arguments: { queue: "support" }, cursor: first.cursor });
    expect(upstreamReads.count).toBe(reads + 1);
    expect(second.events).toEqual([
      { eventId: "T-1", name: "ticket.opened", timestamp: expect.stringMatching(ISO), data: { title: "printer on fire" } },
    ]);
    expect(second.cursor).toBe("3");
  });

  it("skips upstream events older than maxAgeMs with truncated: true", async () => {
    const first = await poll2026({ name: "ticket.opened", arguments: { queue: "sales" }, cursor: null });
    upstream.push({ id: "T-old", queue: "sales", title: "stale", at: "2020-01-01T00:00:00Z" });
    upstream.push({ id: "T-new", queue: "sales", title: "fresh", at: new Date().toISOString() });
    const result = await poll2026({ name: "ticket.opened", arguments: { queue: "sales" }, cursor: first.cursor, maxAgeMs: 60_000 });
    expect(result.events.map((event) => event.eventId)).toEqual(["T-new"]);
    expect(result.truncated).toBe(true);
  });
});

describe("events/poll errors (sep-9999-poll-errors-are-jsonrpc)", () => {
  async function errorOf(params: Record<string, unknown>) {
    const reply = await replyOf(await events2026("events/poll", params));
    expect(reply.result).toBeUndefined();
    return reply.error!;
  }

  it("refuses arguments that do not match the input schema with -32602 naming the field (sep-9999-poll-invalid-arguments, sep-9999-error-invalid-params)", async () => {
    const error = await errorOf({ name: "ticket.opened", arguments: { queue: "marketing" }, cursor: null });
    expect(error.code).toBe(-32602);
    expect(error.message).toContain("queue");
    expect((await errorOf({ name: "ticket.opened", arguments: {}, cursor: null })).code).toBe(-32602);
    expect((await errorOf({ name: "note.posted", arguments: { topic: 7 }, cursor: null })).message).toContain("topic");
  });

  it("refuses wrong JSON types in its own params with -32602", async () => {
    expect((await errorOf({ name: "note.posted", arguments: "all", cursor: null })).message).toContain('"arguments"');
    expect((await errorOf({ name: "note.posted", cursor: 42 })).message).toContain('"cursor"');
    expect((await errorOf({ name: "note.posted", cursor: "not-ours" })).message).toContain('"cursor"');
    expect((await errorOf({ name: "note.posted", maxEvents: 0 })).message).toContain('"maxEvents"');
    expect((await errorOf({ name: "note.posted", maxAgeMs: -1 })).message).toContain('"maxAgeMs"');
    expect((await errorOf({ arguments: {} })).message).toContain('"name"');
  });

  it("answers a type not offered by poll with Unsupported, data.feature deliveryMode (sep-9999-poll-mode-unsupported)", async () => {
    const error = await errorOf({ name: "deploy.finished", arguments: {}, cursor: null });
    expect(error).toMatchObject({ code: -32026, data: { feature: "deliveryMode", value: "poll" } });
  });

  it("answers an unknown name with NotFound (sep-9999-removal-poll-not-found)", async () => {
    expect(await errorOf({ name: "gone.away", arguments: {}, cursor: null })).toMatchObject({ code: -32023, data: { kind: "event" } });
  });
});

describe("events/poll in a 2025-11-25 session", () => {
  it("polls after the extension was negotiated in initialize", async () => {
    const session = await startSession("2025-11-25", DECLARED);
    const t = freshTopic();
    const first = (await resultOf(
      await eventsInSession(session, "events/poll", { name: "note.posted", arguments: { topic: t }, cursor: null }),
    )) as unknown as PollResult;
    await emitNote("in a session", t);
    const second = (await resultOf(
      await eventsInSession(session, "events/poll", { name: "note.posted", arguments: { topic: t }, cursor: first.cursor }),
    )) as unknown as PollResult;
    expect(second.events.map((event) => event.data.text)).toEqual(["in a session"]);
  });
});
