/** Retention is bounded (10,000 events per stream by default) and a replay never skips trimmed events silently. */
import { describe, expect, it } from "vitest";
import { isResponseTo } from "../helpers/sse";
import { callOnStream, getStream, sql, sseOf, startSession } from "../helpers/session";

describe("replay limits", () => {
  it("keeps at most the per-stream cap of events and refuses a replay from before the trimmed ones with 400", async () => {
    const s = await startSession("2025-06-18");
    const stream = await callOnStream(s, 1, "stream_progress", { count: 10_100 }, "p");
    const events = await stream.until(isResponseTo(1));
    expect(events).toHaveLength(10_101);
    const streamNo = Number(events[0]!.id!.split("_")[0]);

    const [{ n }] = (await sql<{ n: number }>(s.sessionId, "SELECT COUNT(*) AS n FROM events WHERE stream = ?", streamNo)) as [
      { n: number },
    ];
    expect(n).toBeLessThanOrEqual(10_000 + 64);
    expect(n).toBeGreaterThanOrEqual(10_000);

    const res = await getStream(s, `${streamNo}_1`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32000);
    expect(body.error.message).toContain("were trimmed");
  });

  it("still replays from an event that is kept", async () => {
    const s = await startSession("2025-06-18");
    const stream = await callOnStream(s, 1, "stream_progress", { count: 10_100 }, "p");
    const events = await stream.until(isResponseTo(1));
    const last = events.at(-3)!.id!;
    const replay = await sseOf(await getStream(s, last)).all();
    expect(replay.map((e) => e.id)).toEqual(events.slice(-2).map((e) => e.id));
  });
});
