/** Checks on what a client received over one stream across reconnections: nothing lost, nothing twice. */
import { expect } from "vitest";
import { sql } from "../../helpers/session";
import { seqOf, streamOf } from "../../helpers/session";
import type { SseEvent } from "../../helpers/sse";

/** The stored events of one stream, in order, as the client should have received them. */
async function storedEvents(sessionId: string, stream: number): Promise<{ id: string; data: string }[]> {
  const rows = await sql<{ seq: number; data: string }>(sessionId, "SELECT seq, data FROM events WHERE stream = ? ORDER BY seq", stream);
  return rows.map((r) => ({ id: `${stream}_${r.seq}`, data: r.data }));
}

/**
 * Asserts that the events a client collected over several connections to one stream (priming
 * events aside) are exactly the stored ones: same ids, same data, same order, none twice, none
 * missing; and that the call `id` got exactly one final response, the last event.
 */
export async function expectExactlyTheStream(sessionId: string, received: SseEvent[], id: unknown): Promise<SseEvent> {
  const events = received.filter((e) => e.data !== "");
  expect(events.length, "the client received events").toBeGreaterThan(0);
  const stream = streamOf(events[0]?.id);
  expect(
    events.every((e) => streamOf(e.id) === stream),
    "all on one stream",
  ).toBe(true);
  const ids = events.map((e) => e.id);
  expect(new Set(ids).size, `no event twice: ${ids.join(" ")}`).toBe(ids.length);
  const stored = await storedEvents(sessionId, stream);
  expect(
    events.map((e) => ({ id: e.id, data: e.data })),
    "exactly the stored events, in order",
  ).toEqual(stored);
  expect(
    stored.map((e) => seqOf(e.id)),
    "no gap in the sequence",
  ).toEqual(stored.map((_, i) => i + 1));
  const finals = events.filter((e) => e.json !== undefined && e.json.id === id && ("result" in e.json || "error" in e.json));
  expect(finals, "exactly one final response").toHaveLength(1);
  expect(events.at(-1)).toBe(finals[0]);
  return finals[0] as SseEvent;
}

/** Reads a reader until it ends or breaks (a restarted object cuts its connections). */
export async function readUntilCut(reader: { next(): Promise<SseEvent | undefined> }, into: SseEvent[]): Promise<void> {
  try {
    for (let e = await reader.next(); e; e = await reader.next()) into.push(e);
  } catch {
    // The connection was cut: what arrived before is what the client has.
  }
}
