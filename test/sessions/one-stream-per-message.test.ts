import { describe, expect, it } from "vitest";
import { call } from "../helpers/mcp";
import { isResponseTo, SseReader, type SseEvent } from "../helpers/sse";
import {
  answer,
  callOnStream,
  getStream,
  isAnyResponse,
  isNotification,
  isRequest,
  sessionStub,
  sql,
  sseOf,
  startSession,
  streamOf,
  toolText,
} from "../helpers/session";

const WATCHED = "test://watched-resource";
const tokensOf = (events: SseEvent[]) =>
  new Set(events.filter(isNotification("notifications/progress")).map((e) => (e.json?.params as { progressToken: unknown }).progressToken));
const responseIdsOf = (events: SseEvent[]) => events.filter(isAnyResponse).map((e) => e.json?.id);

describe("where the session object sends each message", () => {
  it("keeps two concurrent calls apart: each stream carries only its own progress and response", async () => {
    const s = await startSession("2025-06-18");
    const slow = await callOnStream(s, "slow", "slow_countdown", { seconds: 1 }, "token-slow");
    const slowFirst = await slow.next();
    // The fast call runs to completion while the slow one is still counting down.
    const fast = await (await callOnStream(s, "fast", "stream_progress", { count: 10 }, "token-fast")).all();
    const slowRest = await slow.all();
    const slowAll = [slowFirst as SseEvent, ...slowRest];

    expect(tokensOf(fast)).toEqual(new Set(["token-fast"]));
    expect(responseIdsOf(fast)).toEqual(["fast"]);
    expect(tokensOf(slowAll)).toEqual(new Set(["token-slow"]));
    expect(responseIdsOf(slowAll)).toEqual(["slow"]);
    expect(toolText(slowAll.at(-1))).toBe("Countdown of 1 s finished");
    expect(new Set(fast.map((e) => streamOf(e.id)))).not.toContain(streamOf(slowFirst?.id));
  });

  it("gives event ids that are unique across all streams of the session", async () => {
    const s = await startSession("2025-11-25");
    const a = await (await callOnStream(s, 1, "stream_progress", { count: 5 }, "a")).all();
    const b = await (await callOnStream(s, 2, "stream_progress", { count: 5 }, "b")).all();
    const ids = [...a, ...b].map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("never sends a response on the standalone GET stream", async () => {
    const s = await startSession("2025-06-18");
    expect(await call(s.sessionId, s.version, "resources/subscribe", { uri: WATCHED })).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    const standalone = sseOf(await getStream(s));
    const events = await (await callOnStream(s, 2, "stream_progress", { count: 3 }, "tok")).all();
    expect(responseIdsOf(events)).toEqual([2]);

    // The first event on the GET stream is the one sent there on purpose: nothing came before it.
    expect(await sessionStub(s.sessionId).resourceUpdated(WATCHED)).toBe("sent");
    const first = await standalone.next();
    expect(first?.json).toEqual({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: WATCHED } });
    await standalone.cancel();
    const stored = await sql<{ data: string }>(s.sessionId, "SELECT data FROM events WHERE stream = ?", streamOf(first?.id));
    expect(stored.map((r) => r.data)).toEqual([first?.data]);
  });

  it("sends a server-to-client request on the stream of the call that made it, not on the GET stream", async () => {
    const s = await startSession("2025-06-18", { sampling: {} });
    await call(s.sessionId, s.version, "resources/subscribe", { uri: WATCHED });
    const standalone = sseOf(await getStream(s));
    const stream = await callOnStream(s, 1, "test_sampling", { prompt: "hi" });
    const asked = (await stream.until(isRequest("sampling/createMessage"))).at(-1);
    await answer(s, asked?.json?.id, { role: "assistant", content: { type: "text", text: "ok" }, model: "m" });
    expect(toolText((await stream.until(isResponseTo(1))).at(-1))).toBe("LLM response: ok");

    await sessionStub(s.sessionId).resourceUpdated(WATCHED);
    expect((await standalone.next())?.json?.method).toBe("notifications/resources/updated");
    await standalone.cancel();
  });

  it("gives a second GET its own stream and sends later standalone messages only there", async () => {
    const s = await startSession("2025-06-18");
    expect((await call(s.sessionId, s.version, "resources/subscribe", { uri: "test://watched-resource" })).result).toEqual({});
    const first = new SseReader(await getStream(s));
    const secondResponse = await getStream(s);
    expect(secondResponse.status).toBe(200);
    const second = new SseReader(secondResponse);

    expect(await sessionStub(s.sessionId).resourceUpdated("test://watched-resource")).toBe("sent");
    const update = await second.next();
    expect(update?.json).toMatchObject({ method: "notifications/resources/updated", params: { uri: "test://watched-resource" } });
    await first.cancel();
    await second.cancel();
    // Two GET streams exist, and the update was stored on exactly one of them (the newer).
    const getStreams = await sql<{ id: number }>(s.sessionId, "SELECT id FROM streams WHERE kind = 'get' ORDER BY id");
    expect(getStreams).toHaveLength(2);
    const perStream = await sql<{ stream: number; n: number }>(
      s.sessionId,
      "SELECT stream, COUNT(*) AS n FROM events WHERE stream IN (SELECT id FROM streams WHERE kind = 'get') GROUP BY stream",
    );
    expect(perStream).toEqual([{ stream: getStreams[1]!.id, n: 1 }]);
  });

  it("starts a 2025-11-25 GET stream with a priming event", async () => {
    const s = await startSession("2025-11-25");
    const standalone = sseOf(await getStream(s));
    const priming = await standalone.next();
    expect(priming?.id).toMatch(/^\d+_0$/);
    expect(priming?.retry).toBeGreaterThan(0);
    expect(priming?.data).toBe("");
    await standalone.cancel();
  });
});
