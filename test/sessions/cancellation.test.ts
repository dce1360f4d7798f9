import { describe, expect, it } from "vitest";
import { isResponseTo } from "../helpers/sse";
import {
  callOnStream,
  cancel,
  getStream,
  isAnyResponse,
  isNotification,
  isRequest,
  sql,
  sseOf,
  startSession,
  toolText,
} from "../helpers/session";

describe("notifications/cancelled", () => {
  it("aborts an in-flight call: no response is sent and its stream closes", async () => {
    const s = await startSession("2025-06-18");
    // 30 s of countdown: the stream can only close within the test's time limit if the handler's signal aborted it.
    const stream = await callOnStream(s, 5, "slow_countdown", { seconds: 30 }, "tok");
    const first = await stream.next();
    expect(first?.json?.method).toBe("notifications/message");

    expect((await cancel(s, 5)).status).toBe(202);
    const rest = await stream.all();
    expect(rest.filter(isAnyResponse)).toEqual([]);
    expect(rest.filter(isNotification("notifications/progress"))).toEqual([]);
  });

  it("stores no response for a cancelled call: resuming its stream replays none", async () => {
    const s = await startSession("2025-06-18");
    const stream = await callOnStream(s, 5, "slow_countdown", { seconds: 30 }, "tok");
    const first = await stream.next();
    await cancel(s, 5);
    await stream.all();

    expect(await sseOf(await getStream(s, first?.id)).all()).toEqual([]);
    expect(await sql(s.sessionId, "SELECT * FROM inflight")).toEqual([]);
  });

  it("ignores a cancellation sent in another session for the same request id", async () => {
    const mine = await startSession("2025-06-18");
    const other = await startSession("2025-06-18");
    const stream = await callOnStream(mine, 7, "slow_countdown", { seconds: 1 }, "tok");
    await stream.next();

    expect((await cancel(other, 7)).status).toBe(202);
    const rest = await stream.until(isResponseTo(7));
    expect(toolText(rest.at(-1))).toBe("Countdown of 1 s finished");
  });

  it("ignores a cancellation for a request id that is not in flight", async () => {
    const s = await startSession("2025-06-18");
    const stream = await callOnStream(s, 7, "slow_countdown", { seconds: 1 }, "tok");
    await stream.next();

    expect((await cancel(s, 8)).status).toBe(202);
    expect((await cancel(s, "7")).status).toBe(202);
    expect(toolText((await stream.until(isResponseTo(7))).at(-1))).toBe("Countdown of 1 s finished");
  });

  it("withdraws the server's own pending request when the call that made it is cancelled", async () => {
    const s = await startSession("2025-06-18", { sampling: {} });
    const stream = await callOnStream(s, 3, "test_sampling", { prompt: "hi" });
    const asked = (await stream.until(isRequest("sampling/createMessage"))).at(-1);

    await cancel(s, 3);
    const rest = await stream.all();
    expect(rest.map((e) => e.json)).toEqual([
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: asked?.json?.id, reason: expect.any(String) } },
    ]);
  });
});
