import { describe, expect, it } from "vitest";
import { call } from "../../helpers/mcp";
import { getStream, sessionStub, sseOf, startSession, type Session } from "../../helpers/session";

const WATCHED = "test://watched-resource";
const OTHER = "test://static-text";

const updated = (uri: string) => ({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri } });

async function subscribe(s: Session, uri: string): Promise<void> {
  expect(await call(s.sessionId, s.version, "resources/subscribe", { uri }, "sub")).toEqual({ jsonrpc: "2.0", id: "sub", result: {} });
}

describe("resource subscriptions", () => {
  it("sends notifications/resources/updated on the GET stream for a subscribed URI", async () => {
    const s = await startSession("2025-06-18");
    await subscribe(s, WATCHED);
    const standalone = sseOf(await getStream(s));

    expect(await sessionStub(s.sessionId).resourceUpdated(WATCHED)).toBe(true);
    const event = await standalone.next();
    expect(event?.json).toEqual(updated(WATCHED));
    expect(event?.id).toMatch(/^\d+_\d+$/);
    await standalone.cancel();
  });

  it("returns false and sends nothing for a URI that is not subscribed", async () => {
    const s = await startSession("2025-06-18");
    await subscribe(s, WATCHED);
    const standalone = sseOf(await getStream(s));

    expect(await sessionStub(s.sessionId).resourceUpdated(OTHER)).toBe(false);
    // The next event is the subscribed URI's: nothing was sent for the other one.
    await sessionStub(s.sessionId).resourceUpdated(WATCHED);
    expect((await standalone.next())?.json).toEqual(updated(WATCHED));
    await standalone.cancel();
  });

  it("returns false after resources/unsubscribe", async () => {
    const s = await startSession("2025-06-18");
    await subscribe(s, WATCHED);
    const standalone = sseOf(await getStream(s));
    expect(await call(s.sessionId, s.version, "resources/unsubscribe", { uri: WATCHED }, "unsub")).toEqual({ jsonrpc: "2.0", id: "unsub", result: {} });

    expect(await sessionStub(s.sessionId).resourceUpdated(WATCHED)).toBe(false);
    await standalone.cancel();
  });

  it("returns false when the session has no GET stream to carry the notification", async () => {
    const s = await startSession("2025-06-18");
    await subscribe(s, WATCHED);
    expect(await sessionStub(s.sessionId).resourceUpdated(WATCHED)).toBe(false);
  });

  it("keeps subscriptions per session", async () => {
    const subscribed = await startSession("2025-06-18");
    const other = await startSession("2025-06-18");
    await subscribe(subscribed, WATCHED);
    const standalone = sseOf(await getStream(other));

    expect(await sessionStub(other.sessionId).resourceUpdated(WATCHED)).toBe(false);
    await standalone.cancel();
  });
});
