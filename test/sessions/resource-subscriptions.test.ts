import { describe, expect, it } from "vitest";
import { call } from "../helpers/mcp";
import { runInDurableObject } from "cloudflare:test";
import { hubRegistrations } from "../helpers/listen";
import { deleteSession, getStream, sessionStub, sseOf, startSession, type Session } from "../helpers/session";

const WATCHED = "test://watched-resource";
const OTHER = "test://static-text";

const updated = (uri: string) => ({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri } });

async function subscribe(s: Session, uri: string): Promise<void> {
  expect(await call(s.sessionId, s.version, "resources/subscribe", { uri }, "sub")).toEqual({ jsonrpc: "2.0", id: "sub", result: {} });
}

describe("resource subscriptions", () => {
  it("refuses a URI longer than 8,192 characters with -32602 and stores nothing; 8,192 is accepted", async () => {
    const s = await startSession("2025-06-18");
    const prefix = "test://template/";
    const suffix = "/data";
    const uriOf = (length: number) => prefix + "x".repeat(length - prefix.length - suffix.length) + suffix;
    await subscribe(s, uriOf(8192));
    expect(await call(s.sessionId, s.version, "resources/subscribe", { uri: uriOf(8193) }, "long")).toEqual({
      jsonrpc: "2.0",
      id: "long",
      error: { code: -32602, message: "resources/subscribe: the uri is 8193 characters long; at most 8192 can be subscribed to" },
    });
    const stored = await runInDurableObject(
      sessionStub(s.sessionId),
      (_instance, state) => state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM subscriptions").one().n,
    );
    expect(stored).toBe(1);
  });

  it("sends notifications/resources/updated on the GET stream for a subscribed URI", async () => {
    const s = await startSession("2025-06-18");
    await subscribe(s, WATCHED);
    const standalone = sseOf(await getStream(s));

    expect(await sessionStub(s.sessionId).resourceUpdated(WATCHED)).toBe("sent");
    const event = await standalone.next();
    expect(event?.json).toEqual(updated(WATCHED));
    expect(event?.id).toMatch(/^\d+_\d+$/);
    await standalone.cancel();
  });

  it("answers not-subscribed and sends nothing for a URI that is not subscribed", async () => {
    const s = await startSession("2025-06-18");
    await subscribe(s, WATCHED);
    const standalone = sseOf(await getStream(s));

    expect(await sessionStub(s.sessionId).resourceUpdated(OTHER)).toBe("not-subscribed");
    // The next event is the subscribed URI's: nothing was sent for the other one.
    await sessionStub(s.sessionId).resourceUpdated(WATCHED);
    expect((await standalone.next())?.json).toEqual(updated(WATCHED));
    await standalone.cancel();
  });

  it("answers not-subscribed after resources/unsubscribe", async () => {
    const s = await startSession("2025-06-18");
    await subscribe(s, WATCHED);
    const standalone = sseOf(await getStream(s));
    expect(await call(s.sessionId, s.version, "resources/unsubscribe", { uri: WATCHED }, "unsub")).toEqual({
      jsonrpc: "2.0",
      id: "unsub",
      result: {},
    });

    expect(await sessionStub(s.sessionId).resourceUpdated(WATCHED)).toBe("not-subscribed");
    await standalone.cancel();
  });

  it("answers no-stream when the session has no GET stream to carry the notification", async () => {
    const s = await startSession("2025-06-18");
    await subscribe(s, WATCHED);
    expect(await sessionStub(s.sessionId).resourceUpdated(WATCHED)).toBe("no-stream");
  });

  it("keeps subscriptions per session", async () => {
    const subscribed = await startSession("2025-06-18");
    const other = await startSession("2025-06-18");
    await subscribe(subscribed, WATCHED);
    const standalone = sseOf(await getStream(other));

    expect(await sessionStub(other.sessionId).resourceUpdated(WATCHED)).toBe("not-subscribed");
    await standalone.cancel();
  });
});

describe("notifyResourceUpdated across sessions", () => {
  // Each test uses its own template URI, so registries never carry sessions of other tests.
  const fresh = () => `test://template/notify-${crypto.randomUUID()}/data`;
  const touch = (s: Session, uri: string) =>
    call(s.sessionId, s.version, "tools/call", { name: "touch_resource", arguments: { uri } }, "touch");

  it("reaches every subscribed session's GET stream and no other session", async () => {
    const uri = fresh();
    const a = await startSession("2025-06-18");
    const b = await startSession("2025-06-18");
    const bystander = await startSession("2025-06-18");
    await subscribe(a, uri);
    await subscribe(b, uri);
    const streamA = sseOf(await getStream(a));
    const streamB = sseOf(await getStream(b));
    const streamC = sseOf(await getStream(bystander));

    expect(await touch(bystander, uri)).toMatchObject({ result: { content: [{ type: "text", text: "notified 2 session(s)" }] } });
    expect((await streamA.next())?.json).toEqual(updated(uri));
    expect((await streamB.next())?.json).toEqual(updated(uri));

    // The bystander's stream got nothing: its first event is a later, direct update of its own.
    await subscribe(bystander, uri);
    expect(await sessionStub(bystander.sessionId).resourceUpdated(uri)).toBe("sent");
    expect((await streamC.next())?.json).toEqual(updated(uri));
    await Promise.all([streamA.cancel(), streamB.cancel(), streamC.cancel()]);
  });

  /** Two sessions subscribed to one fresh URI, the first with its GET stream open. */
  async function twoSubscribers() {
    const uri = fresh();
    const a = await startSession("2025-06-18");
    const b = await startSession("2025-06-18");
    await subscribe(a, uri);
    await subscribe(b, uri);
    return { uri, a, b, streamA: sseOf(await getStream(a)) };
  }

  it("forgets a session that unsubscribed", async () => {
    const { uri, a, b, streamA } = await twoSubscribers();
    expect(await call(b.sessionId, b.version, "resources/unsubscribe", { uri }, "u")).toMatchObject({ result: {} });

    expect(await touch(a, uri)).toMatchObject({ result: { content: [{ text: "notified 1 session(s)" }] } });
    expect((await streamA.next())?.json).toEqual(updated(uri));
    await streamA.cancel();
  });

  it("forgets a terminated session", async () => {
    const { uri, a, b, streamA } = await twoSubscribers();
    expect((await deleteSession(b)).status).toBe(204);

    expect(await touch(a, uri)).toMatchObject({ result: { content: [{ text: "notified 1 session(s)" }] } });
    expect((await streamA.next())?.json).toEqual(updated(uri));
    const left = (await hubRegistrations()).filter((r) => (r as { topic: string }).topic === `uri:${uri}`);
    expect(left).toEqual([{ topic: `uri:${uri}`, session_id: a.sessionId }]);
    await streamA.cancel();
  });

  it("answers with 0 for a resource nobody subscribed to", async () => {
    const a = await startSession("2025-06-18");
    expect(await touch(a, fresh())).toMatchObject({ result: { content: [{ text: "notified 0 session(s)" }] } });
  });
});
