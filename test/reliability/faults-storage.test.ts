/**
 * Faults: a storage write fails. Simulated at the storage boundary of a live session object
 * (its event log's `append`, the one write every outbound event goes through), with no hook in
 * product code. Expected: the client gets a clear error for its request, no event is sent that
 * is not stored (no half-written event), the storage engine's message is not shown to the
 * client, and the session works again once storage does.
 */
import { runInDurableObject } from "cloudflare:test";
import { afterAll, describe, expect, it } from "vitest";
import { SseReader, type SseEvent } from "../helpers/sse";
import { sessionStub, sql, streamOf, type Session } from "../helpers/session";
import { callOnStream, post, startSession } from "./support/direct";
import { leaksIn } from "./support/leaks";
import { reportFigures } from "./support/settings";

const STORAGE_MESSAGE = "SQLITE_FULL: database or disk is full (simulated)";
const figures = { writeFailuresInjected: 0 };
afterAll(() => reportFigures("faults-storage", figures));

interface EventLogLike {
  append(stream: number, data: string): string;
}

/** Makes the object's event log throw on appends: the first `times` of them, or every one. */
async function failAppends(s: Session, times: number | "always"): Promise<void> {
  await runInDurableObject(sessionStub(s.sessionId), (instance) => {
    const log = (instance as unknown as { core: { log: EventLogLike } }).core.log;
    const original = log.append.bind(log);
    let left = times === "always" ? Infinity : times;
    log.append = (stream, data) => {
      if (left > 0) {
        left--;
        figures.writeFailuresInjected++;
        throw new Error(STORAGE_MESSAGE);
      }
      return original(stream, data);
    };
  });
}

async function healAppends(s: Session): Promise<void> {
  await runInDurableObject(sessionStub(s.sessionId), (instance) => {
    const log = (instance as unknown as { core: { log: EventLogLike & { constructor: { prototype: EventLogLike } } } }).core.log;
    delete (log as Partial<EventLogLike>).append; // back to the prototype's method
  });
}

async function readAll(res: Response): Promise<{ status: number; type: string | null; text: string; events: SseEvent[] }> {
  const type = res.headers.get("Content-Type");
  if (type !== "text/event-stream") return { status: res.status, type, text: await res.text(), events: [] };
  const events = await new SseReader(res).all();
  return { status: res.status, type, text: events.map((e) => e.data).join("\n"), events };
}

/** Every event the client received is stored, identically: nothing was sent that storage does not hold. */
async function expectOnlyStoredEventsSent(s: Session, events: SseEvent[]): Promise<void> {
  // An event with an id claims to be stored and resumable; it must be. The one frame allowed
  // without an id is the final error for a request whose response itself could not be stored.
  const withoutId = events.filter((x) => x.data !== "" && x.id === undefined);
  expect(
    withoutId.every((x) => x.json?.error !== undefined && x.json.id !== undefined),
    "only a final error may go unstored",
  ).toBe(true);
  expect(withoutId.length).toBeLessThanOrEqual(1);
  for (const e of events.filter((x) => x.data !== "" && x.id !== undefined)) {
    const rows = await sql<{ data: string }>(
      s.sessionId,
      "SELECT data FROM events WHERE stream = ? AND seq = ?",
      streamOf(e.id),
      Number(e.id?.split("_")[1]),
    );
    expect(
      rows.map((r) => r.data),
      `event ${e.id}`,
    ).toEqual([e.data]);
  }
}

/** A new session runs stream_progress (`count` events) as call `id` while its event log's appends fail; healed after. */
async function progressCallWhileAppendsFail(times: number | "always", id: number, count: number) {
  const s = await startSession("2025-06-18");
  await failAppends(s, times);
  const got = await readAll(
    await post(
      {
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "stream_progress", arguments: { count }, _meta: { progressToken: "t" } },
      },
      s,
    ),
  );
  await healAppends(s);
  return { s, got };
}

describe("a storage write that fails", () => {
  it("once, on a notification: the call still ends with one response and nothing unstored is sent", async () => {
    const { s, got } = await progressCallWhileAppendsFail(1, 1, 3);
    const finals = got.events.filter((e) => e.json?.id === 1);
    expect(finals, got.text).toHaveLength(1);
    await expectOnlyStoredEventsSent(s, got.events);
  });

  it("does not show the storage engine's message to the client", async () => {
    const { got } = await progressCallWhileAppendsFail(1, 1, 3);
    expect(got.text).not.toContain("SQLITE_FULL");
    expect(leaksIn(got.text)).toEqual([]);
  });

  it("on every write: the request gets a clear error (an HTTP error or a JSON-RPC error for its id), not a silent empty stream", async () => {
    const { s, got } = await progressCallWhileAppendsFail("always", 7, 2);
    const httpError =
      got.status >= 400 && got.type === "application/json" && (JSON.parse(got.text) as { error?: unknown }).error !== undefined;
    const rpcError = got.events.some((e) => e.json?.id === 7 && e.json.error !== undefined);
    expect({ status: got.status, body: got.text, clearError: httpError || rpcError }).toMatchObject({ clearError: true });
    expect(got.text).not.toContain("SQLITE_FULL");
    await expectOnlyStoredEventsSent(s, got.events);
  });

  it("leaves no half-written state: once storage works again, nothing is in flight and the session answers", async () => {
    const { s } = await progressCallWhileAppendsFail("always", 7, 2);
    expect(await sql(s.sessionId, "SELECT * FROM inflight")).toEqual([]);
    expect(await sql(s.sessionId, "SELECT id FROM streams WHERE done_at IS NULL")).toEqual([]);
    const events = await (await callOnStream(s, 8, "stream_progress", { count: 2 }, "t")).all();
    expect(events.at(-1)?.json).toMatchObject({ id: 8, result: { content: [{ text: "done 2" }] } });
  });
});
