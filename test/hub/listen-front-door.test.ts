/**
 * subscriptions/listen through the front door (basic/patterns/subscriptions.mdx): a claimed
 * POST to /mcp reaches the hub, is acknowledged first, and receives what the demo's
 * touch_resource publishes from another request, with the subscription id in `_meta`.
 */
import { describe, expect, it } from "vitest";
import { SseReader } from "../helpers/sse";
import { expectComplete, post2026 } from "../helpers/era-2026";
import { SUBSCRIPTION_ID } from "../helpers/listen";

describe("subscriptions/listen on /mcp", () => {
  it("acknowledges, then delivers a resources/updated published by another request", async () => {
    const uri = `test://template/front-door-${crypto.randomUUID()}/data`;
    const res = await post2026("subscriptions/listen", { notifications: { resourceSubscriptions: [uri] } }, { id: "sub-1" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/event-stream");
    const stream = new SseReader(res);
    const ack = await stream.next();
    expect(ack?.json?.method).toBe("notifications/subscriptions/acknowledged");

    await expectComplete(await post2026("tools/call", { name: "touch_resource", arguments: { uri } }, { id: 2 }), 2);
    const update = await stream.next();
    expect(update?.json).toEqual({
      jsonrpc: "2.0",
      method: "notifications/resources/updated",
      params: { _meta: { [SUBSCRIPTION_ID]: "sub-1" }, uri },
    });
    await stream.cancel();
  });

  it("refuses a filter that is not an object with -32602 and the request id", async () => {
    const res = await post2026("subscriptions/listen", { notifications: "everything" }, { id: 9 });
    const body = (await res.json()) as { id: unknown; error: { code: number } };
    expect(body.id).toBe(9);
    expect(body.error.code).toBe(-32602);
  });

  it("holds one client address to listen.maxStreamsPerClient (8): the ninth gets 429 with Retry-After and its id; another address is served", async () => {
    const uri = `test://template/front-door-${crypto.randomUUID()}/data`;
    const from = (address: string, id: number) =>
      post2026(
        "subscriptions/listen",
        { notifications: { resourceSubscriptions: [uri] } },
        { id, headers: { "CF-Connecting-IP": address } },
      );
    const address = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
    const open: SseReader[] = [];
    for (let i = 1; i <= 8; i++) {
      const res = await from(address, i);
      expect(res.status).toBe(200);
      const stream = new SseReader(res);
      await stream.next();
      open.push(stream);
    }
    const refused = await from(address, 9);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe("1");
    expect(await refused.json()).toMatchObject({ jsonrpc: "2.0", id: 9, error: { code: -31003 } });
    const elsewhere = await from("203.0.113.77", 10);
    expect(elsewhere.status).toBe(200);
    await elsewhere.body?.cancel();
    // A stream its client closed frees the slot for that client's next listen at once.
    await (open.pop() as SseReader).cancel();
    const again = await from(address, 11);
    expect(again.status).toBe(200);
    await Promise.all([again.body?.cancel(), ...open.map((s) => s.cancel())]);
  });
});
