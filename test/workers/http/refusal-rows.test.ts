/**
 * The session object's refusal rows (src/wire/refusals.ts) say exactly what the object answers
 * today, so switching its inline answers to `refuse(...)` changes no byte on the wire.
 */
import { describe, expect, it } from "vitest";
import { refusalRow } from "../../../src/wire/refusals";

describe("session-object rows of the refusal table", () => {
  it("keep the object's statuses, codes and messages", () => {
    expect(refusalRow({ reason: "legacy-stream-conflict" })).toEqual({ status: 409, code: -32000, message: "Conflict: this session's legacy stream was already opened" });
    expect(refusalRow({ reason: "too-many-streams", limit: 2, hint: "wait" })).toEqual({ status: 429, code: -32003, message: "Too many open streams on this session (limit 2); wait for one to finish" });
    expect(refusalRow({ reason: "too-many-streams", limit: 2, hint: "close" }).message).toBe("Too many open streams on this session (limit 2); close one first");
    expect(refusalRow({ reason: "unknown-last-event-id" })).toMatchObject({ status: 400, code: -32000 });
    expect(refusalRow({ reason: "events-trimmed", lastEventId: "1_5", kept: 10 }).message).toBe("Bad Request: events after 1_5 were trimmed (at most 10 are kept per stream); they cannot be replayed");
  });
});
