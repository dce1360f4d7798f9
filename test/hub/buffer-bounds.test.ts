/**
 * The bounds under the hub's slow-reader policy (src/platform/live-streams.ts): one connection
 * holds at most `maxBufferedBytes` unsent, all connections together at most
 * `maxTotalBufferedBytes`, and past the total the connection holding the most is the one handed
 * to onOverflow, so many slow readers cannot add up to an object's memory.
 */
import { describe, expect, it } from "vitest";
import { LiveStreams } from "../../src/platform/live-streams";

const frame = (bytes: number) => new Uint8Array(bytes);

describe("LiveStreams buffer bounds", () => {
  it("hands a connection to onOverflow when its own unsent bytes would pass the bound, and never queues that frame", () => {
    const overflowed: number[] = [];
    const live = new LiveStreams(60_000, { maxBufferedBytes: 1000, onOverflow: (s) => overflowed.push(s) });
    const res = live.attach(1); // nobody reads it
    for (let i = 0; i < 5; i++) live.send(1, frame(300));
    expect(overflowed).toEqual([1, 1]); // the 4th and 5th would pass 1,000 bytes
    live.closeAll();
    void res.body?.cancel();
  });

  it("past the total, ends the connection holding the most, whichever stream is being written", () => {
    const overflowed: number[] = [];
    const live = new LiveStreams(60_000, {
      maxBufferedBytes: 10_000,
      maxTotalBufferedBytes: 2000,
      onOverflow: (s) => {
        overflowed.push(s);
        live.close(s);
      },
    });
    const bodies = [live.attach(1), live.attach(2), live.attach(3)];
    live.send(1, frame(900));
    live.send(1, frame(500)); // stream 1 holds 1,400
    live.send(2, frame(300)); // 1,700 in all
    expect(overflowed).toEqual([]);
    live.send(3, frame(400)); // 2,100 > 2,000: stream 1 (the most) goes, stream 3's frame is queued
    expect(overflowed).toEqual([1]);
    expect(live.isAttached(1)).toBe(false);
    expect(live.isAttached(2) && live.isAttached(3)).toBe(true);
    live.closeAll();
    for (const b of bodies) void b.body?.cancel();
  });
});
