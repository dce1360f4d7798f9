/**
 * The session object's refusal rows (src/wire/refusals.ts) say exactly what the object answers
 * today, so switching its inline answers to `refuse(...)` changes no byte on the wire.
 */
import { describe, expect, it } from "vitest";
import { answerHttp, refuse, refusalRow } from "../../src/wire/refusals";
import { streamNotAcknowledgedRow, tooManyListenStreamsRow } from "../../src/wire/hub-refusals";
import { LEGACY_STREAM_CONFLICT } from "../../src/wire/legacy-sse-refusals";

describe("session-object rows of the refusal table", () => {
  it("keep the object's statuses, codes and messages", () => {
    expect(LEGACY_STREAM_CONFLICT).toEqual({
      status: 409,
      code: -32000,
      message: "Conflict: this session's legacy stream was already opened",
    });
    expect(refusalRow({ reason: "too-many-streams", limit: 2, hint: "wait" })).toEqual({
      status: 429,
      code: -32003,
      message: "Too many open streams on this session (limit 2); wait for one to finish",
    });
    expect(refusalRow({ reason: "too-many-streams", limit: 2, hint: "close" }).message).toBe(
      "Too many open streams on this session (limit 2); close one first",
    );
    expect(refusalRow({ reason: "unknown-last-event-id" })).toMatchObject({ status: 400, code: -32000 });
    expect(refusalRow({ reason: "events-trimmed", lastEventId: "1_5", kept: 10 }).message).toBe(
      "Bad Request: events after 1_5 were trimmed (at most 10 are kept per stream); they cannot be replayed",
    );
  });

  it("keep the hub's and the object's internal answers as they were written inline", async () => {
    const listen = refuse(tooManyListenStreamsRow(3, false), 7);
    expect(listen.status).toBe(429);
    expect(await listen.text()).toBe(
      '{"jsonrpc":"2.0","id":7,"error":{"code":-31003,"message":"Too many listen streams on this server (limit 3); close one, or retry later"}}',
    );
    const unacknowledged = refuse(streamNotAcknowledgedRow(10), "l1");
    expect({ status: unacknowledged.status, retry: unacknowledged.headers.get("Retry-After") }).toEqual({ status: 503, retry: "1" });
    expect(await unacknowledged.json()).toEqual({
      jsonrpc: "2.0",
      id: "l1",
      error: { code: -32603, message: "Service Unavailable: the listen stream was not acknowledged within 10 s; retry" },
    });
    expect(refusalRow({ reason: "not-found" })).toEqual({ status: 404, code: -32000, message: "Not Found" });
    const method = refuse({ reason: "method-not-allowed" });
    expect({ status: method.status, allow: method.headers.get("Allow") }).toEqual({ status: 405, allow: null });
    expect(await method.text()).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Method Not Allowed"}}');
  });

  it("let a capability refusal say more than the capability's name, and give a handler's capability error its 400", () => {
    const required = { extensions: { x: {} } };
    expect(refusalRow({ reason: "missing-client-capability", required, detail: "notifications.taskIds needs x" }).message).toBe(
      "Missing required client capability: notifications.taskIds needs x",
    );
    expect(refusalRow({ reason: "missing-client-capability", required }).message).toBe("Missing required client capability: extensions");
    expect(answerHttp({ kind: "error", id: 1, error: { code: -32021, message: "m" } }).status).toBe(400);
    expect(answerHttp({ kind: "error", id: 1, error: { code: -32602, message: "m" } }).status).toBe(200);
  });
});
