/**
 * Webhook deliveries as a receiver sees them (the conformance draft's events-webhook-delivery checks, by id):
 * a real receiver on 127.0.0.1 (mcp-edge/testing/receiver, verifying with node:crypto) gets what the events
 * object's alarm POSTs: the occurrence as JSON with the Standard Webhooks headers and X-MCP-Subscription-Id,
 * retried with a fresh signature and given up with a lastError category, 410/413 final, dual-signed during a
 * rotation, control envelopes, deliveries matched by arguments, and nothing lost when the object restarts.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { generateWebhookSecret } from "../../durable-objects/events/webhooks-signing";
import { subscribeWebhook, type ReceivedWebhook } from "../../src/testing/webhooks";
import { tickets } from "../servers/webhooks/entry";
import { clientAs, emitIncident, eventsObject, hookName, occurrence, partInput, partObject, receiver, TYPE } from "./webhooks-helpers";

/** A subscription to TYPE by a fresh hook path: the receiver, the path and the subscribe result. */
async function subscribed(label: string, options: { arguments?: Record<string, unknown>; ttlMs?: number | null } = {}) {
  const hooks = await receiver();
  const name = hookName(label);
  const client = await clientAs("ada");
  const result = await subscribeWebhook(client, { name: TYPE, url: hooks.hookUrl(name), secret: hooks.secret, ...options });
  return { hooks, client, path: `/hooks/${name}`, url: hooks.hookUrl(name), id: result.id as string };
}

/** A subscription through the front door to `name` with `args`, to a fresh hook path. */
async function subscribedTo(name: string, label: string, args: Record<string, unknown>) {
  const hooks = await receiver();
  const path = `/hooks/${hookName(label)}`;
  const result = await subscribeWebhook(await clientAs("ada"), { name, arguments: args, url: `${hooks.url}${path}`, secret: hooks.secret });
  return { hooks, path, result };
}

/** A subscription in a part object (the webhook part alone), to a fresh hook path. */
async function partSubscribed(label: string, name: string) {
  const hooks = await receiver();
  const path = `/hooks/${hookName(label)}`;
  const input = partInput("ada", `${hooks.url}${path}`, name, hooks.secret);
  const outcome = await partObject(name).webhookSubscribe(input);
  if (!outcome.ok) throw new Error(`subscribe refused: ${outcome.refusal}`);
  return { hooks, path, id: outcome.result.id, key: input.key };
}

/** The POSTs of one event (not the verification) on a path, once `count` have arrived. */
async function attemptsOf(
  hooks: Awaited<ReturnType<typeof receiver>>,
  path: string,
  webhookId: string,
  count: number,
): Promise<ReceivedWebhook[]> {
  for (;;) {
    const all = await hooks.received({ path, count: 0 });
    const mine = all.filter((record) => record.webhookId === webhookId);
    if (mine.length >= count) return mine;
    await hooks.received({ path, count: all.length + 1, timeoutMs: 20_000 });
  }
}

function outboxRows(name: string): Promise<number> {
  return runInDurableObject(
    eventsObject(name),
    (_instance, state) => state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM webhook_outbox").one().n,
  );
}

describe("a delivery", () => {
  it("POSTs the occurrence as JSON, signed per Standard Webhooks, with the subscription id (sep-9999-delivery-post-json, -standard-webhooks-headers, -signature-formula, -subscription-id-header)", async () => {
    const { hooks, path, id } = await subscribed("signed");
    const event = occurrence(`evt_${crypto.randomUUID()}`, TYPE, { incidentId: "INC-1", title: "Pool exhausted" });
    const before = Math.floor(Date.now() / 1000);
    const emitted = await emitIncident(event.eventId, event.data);
    const [delivery] = await attemptsOf(hooks, path, event.eventId, 1);
    expect(delivery).toMatchObject({
      contentType: "application/json",
      webhookId: event.eventId,
      subscriptionId: id,
      verified: true,
      type: null,
      status: 200,
    });
    expect(JSON.parse(delivery!.body)).toEqual({
      eventId: event.eventId,
      name: TYPE,
      timestamp: expect.any(String),
      data: event.data,
      cursor: expect.stringMatching(/^ev1_/),
    });
    expect(emitted.duplicate).toBe(false);
    expect(Number(delivery!.timestamp)).toBeGreaterThanOrEqual(before);
    expect(delivery!.signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  });

  it("verifies the endpoint before the first event reaches it (sep-9999-verification-required-before-delivery)", async () => {
    const { hooks, path } = await subscribed("order");
    const event = occurrence(`evt_${crypto.randomUUID()}`, TYPE);
    await emitIncident(event.eventId, event.data);
    const received = await hooks.received({ path, count: 2 });
    expect(received.map((record) => record.type ?? record.webhookId)).toEqual(["verification", event.eventId]);
  });

  it("goes only to subscriptions whose arguments match the occurrence", async () => {
    const p1 = await subscribed("p1", { arguments: { severity: "P1" } });
    const p2 = await subscribed("p2", { arguments: { severity: "P2" } });
    const first = occurrence(`evt_${crypto.randomUUID()}`, TYPE, { severity: "P2" });
    await emitIncident(first.eventId, first.data, { severity: "P2" });
    await attemptsOf(p2.hooks, p2.path, first.eventId, 1);
    const marker = occurrence(`evt_${crypto.randomUUID()}`, TYPE, { severity: "P1" });
    await emitIncident(marker.eventId, marker.data, { severity: "P1" });
    await attemptsOf(p1.hooks, p1.path, marker.eventId, 1);
    const p1Events = (await p1.hooks.received({ path: p1.path })).filter((record) => record.type === null);
    expect(p1Events.map((record) => record.webhookId)).toEqual([marker.eventId]);
  });

  it("is not sent when its body is over 256 KiB, and the next event still is (sep-9999-delivery-body-size)", async () => {
    const { hooks, path } = await partSubscribed("big", "big.event");
    const big = occurrence(`evt_${crypto.randomUUID()}`, "big.event", { blob: "x".repeat(256 * 1024) });
    expect(await partObject("big.event").emit(big)).toBe(false);
    const small = occurrence(`evt_${crypto.randomUUID()}`, "big.event");
    expect(await partObject("big.event").emit(small)).toBe(true);
    await attemptsOf(hooks, path, small.eventId, 1);
    expect((await hooks.received({ path })).some((record) => record.webhookId === big.eventId)).toBe(false);
  });
});

describe("retries", () => {
  it("retries a 5xx with a new timestamp and signature until a 2xx (sep-9999-delivery-retry-regenerates-signature)", async () => {
    const { hooks, path } = await subscribed("retry");
    await hooks.script({ path, statuses: [503] });
    const event = occurrence(`evt_${crypto.randomUUID()}`, TYPE);
    await emitIncident(event.eventId, event.data);
    const [first, second] = await attemptsOf(hooks, path, event.eventId, 2);
    expect([first?.status, second?.status]).toEqual([503, 200]);
    expect(second!.verified).toBe(true);
    expect(Number(second!.timestamp)).toBeGreaterThan(Number(first!.timestamp));
    expect(second!.signature).not.toBe(first!.signature);
    expect(second!.body).toBe(first!.body);
  });

  it("gives up after five attempts and reports only the category on the next refresh (sep-9999-delivery-retries-bounded, -status-last-error-category)", async () => {
    const { hooks, client, path, url } = await subscribed("give-up");
    await hooks.script({ path, statuses: [500, 500, 500, 500, 500, 500] });
    const event = occurrence(`evt_${crypto.randomUUID()}`, TYPE);
    await emitIncident(event.eventId, event.data);
    expect(await attemptsOf(hooks, path, event.eventId, 5)).toHaveLength(5);
    const refreshed = await subscribeWebhook(client, { name: TYPE, url, secret: hooks.secret });
    expect(refreshed.deliveryStatus).toMatchObject({
      active: true,
      lastDeliveryAt: null,
      lastError: "http_5xx",
      failedSince: expect.any(String),
    });
    // Given up: nothing of it is queued any more, so no sixth attempt will come.
    expect(await outboxRows(TYPE)).toBe(0);
  });

  it.each([410, 413])(
    "does not retry a %i, and the subscription keeps delivering (sep-9999-delivery-410-non-retryable, -413-non-retryable)",
    async (status) => {
      const { hooks, client, path, url } = await subscribed(`final-${status}`);
      await hooks.script({ path, statuses: [status] });
      const refused = occurrence(`evt_${crypto.randomUUID()}`, TYPE);
      await emitIncident(refused.eventId, refused.data);
      await attemptsOf(hooks, path, refused.eventId, 1);
      const next = occurrence(`evt_${crypto.randomUUID()}`, TYPE);
      await emitIncident(next.eventId, next.data);
      await attemptsOf(hooks, path, next.eventId, 1);
      expect((await hooks.received({ path })).filter((record) => record.webhookId === refused.eventId)).toHaveLength(1);
      const refreshed = await subscribeWebhook(client, { name: TYPE, url, secret: hooks.secret });
      expect(refreshed.deliveryStatus).toMatchObject({ lastError: null, lastDeliveryAt: expect.any(String) });
    },
  );

  it("loses nothing when the object restarts between two attempts: the retry comes, same id and body", async () => {
    const { hooks, path } = await subscribed("restart");
    await hooks.script({ path, statuses: [500] });
    const event = occurrence(`evt_${crypto.randomUUID()}`, TYPE);
    await emitIncident(event.eventId, event.data);
    await attemptsOf(hooks, path, event.eventId, 1);
    // The retry is due 2 s after the first attempt: restart the object while it waits in the outbox.
    const pending = await runInDurableObject(
      eventsObject(TYPE),
      (_instance, state) =>
        state.storage.sql
          .exec<{ n: number }>(
            "SELECT COUNT(*) AS n FROM webhook_outbox o JOIN webhook_messages m ON m.seq = o.message WHERE m.webhook_id = ?",
            event.eventId,
          )
          .one().n,
    );
    expect(pending).toBe(1);
    await runInDurableObject(eventsObject(TYPE), (_instance, state) => state.abort("test restart")).catch(() => undefined);
    const [first, retry] = await attemptsOf(hooks, path, event.eventId, 2);
    expect(retry).toMatchObject({ status: 200, verified: true, body: first!.body });
  });
});

describe("secret rotation", () => {
  it("signs with the old and the new secret after a refresh replaced it (sep-9999-delivery-dual-sign-on-rotation, sep-9999-subscribe-refresh-replaces-secret)", async () => {
    const { hooks, client, path, url } = await subscribed("rotate");
    const rotated = generateWebhookSecret();
    await hooks.trust(rotated);
    await subscribeWebhook(client, { name: TYPE, url, secret: rotated });
    const event = occurrence(`evt_${crypto.randomUUID()}`, TYPE);
    await emitIncident(event.eventId, event.data);
    const [delivery] = await attemptsOf(hooks, path, event.eventId, 1);
    expect(delivery!.signature!.split(" ")).toHaveLength(2);
    expect(new Set(delivery!.signedBy)).toEqual(new Set([hooks.secret, rotated]));
  });
});

describe("control envelopes", () => {
  it("sends a gap as a signed {type: gap, cursor} with a msg_gap_ id (sep-9999-envelope-gap, -type-discriminator, -webhook-id-format, -signed-like-deliveries)", async () => {
    const { hooks, path, id } = await partSubscribed("gap", "gap.event");
    await partObject("gap.event").gap("gap.event", "cursor-42");
    const [gap] = (await hooks.received({ path, count: 2 })).filter((record) => record.type === "gap");
    expect(gap).toMatchObject({ verified: true, subscriptionId: id, contentType: "application/json" });
    expect(gap!.webhookId).toMatch(/^msg_gap_[0-9a-f]+$/);
    expect(JSON.parse(gap!.body)).toEqual({ type: "gap", cursor: "cursor-42" });
  });

  it("ends the subscriptions with a signed terminated envelope; the subscription is gone after it (sep-9999-envelope-terminated)", async () => {
    const { hooks, path, key } = await partSubscribed("terminated", "ended.event");
    await partObject("ended.event").terminate("ended.event");
    const [ended] = (await hooks.received({ path, count: 2 })).filter((record) => record.type === "terminated");
    expect(ended!.webhookId).toMatch(/^msg_terminated_[0-9a-f]+$/);
    expect(JSON.parse(ended!.body)).toEqual({
      type: "terminated",
      error: { code: -32023, message: "Event type removed", data: { kind: "event" } },
    });
    expect(await partObject("ended.event").webhookUnsubscribe(key)).toBe(false);
  });
});

describe("a subscription without expiry", () => {
  it("survives a restart and still delivers (sep-9999-ttl-no-expiry-persisted, sep-9999-verification-persisted-for-no-expiry)", async () => {
    const { hooks, path } = await subscribed("forever", { ttlMs: null });
    await runInDurableObject(eventsObject(TYPE), (_instance, state) => state.abort("test restart")).catch(() => undefined);
    const event = occurrence(`evt_${crypto.randomUUID()}`, TYPE);
    await emitIncident(event.eventId, event.data);
    await attemptsOf(hooks, path, event.eventId, 1);
    expect((await hooks.received({ path })).filter((record) => record.type === "verification")).toHaveLength(1);
  });
});

describe("the SSRF-hardened path at delivery time", () => {
  it("never follows a redirect: the 3xx is an attempt that failed, its Location gets nothing (sep-9999-ssrf-no-redirects)", async () => {
    const { hooks, path } = await subscribed("redirect");
    const elsewhere = `/hooks/${hookName("elsewhere")}`;
    await hooks.script({ path, statuses: [307], redirectTo: `${hooks.url}${elsewhere}` });
    const event = occurrence(`evt_${crypto.randomUUID()}`, TYPE);
    await emitIncident(event.eventId, event.data);
    const [redirected, retried] = await attemptsOf(hooks, path, event.eventId, 2);
    expect([redirected?.status, retried?.status]).toEqual([307, 200]);
    expect(await hooks.received({ path: elsewhere })).toEqual([]);
  });

  it("resolves the name again before each POST and refuses one now bound to a private address (sep-9999-ssrf-validate-at-delivery-time)", async () => {
    const name = "rebound.event";
    const part = partObject(name);
    const url = `https://rebound.example.com/hooks/${hookName("rebound")}`;
    // Verified earlier, when the name still pointed at a public address (so this subscribe sends no challenge).
    await runInDurableObject(part, (_instance, state) => {
      state.storage.sql.exec("INSERT INTO webhook_verified (subject, url) VALUES (?, ?)", "ada", url);
    });
    const input = partInput("ada", url, name, generateWebhookSecret());
    expect((await part.webhookSubscribe(input)).ok).toBe(true);
    // A loopback subscription in the same object: its delivery comes from the same alarm run.
    const marker = await partSubscribed("rebound-marker", name);
    const event = occurrence(`evt_${crypto.randomUUID()}`, name);
    await part.emit(event);
    await attemptsOf(marker.hooks, marker.path, event.eventId, 1);
    const refreshed = await part.webhookSubscribe(input);
    expect(refreshed.ok && refreshed.result.deliveryStatus).toMatchObject({ lastError: "connection_refused", lastDeliveryAt: null });
  });

  it("verifies over the same path: a name resolving to a private address fails verification (sep-9999-verification-uses-ssrf-hardened-path)", async () => {
    const url = `https://rebound.example.com/hooks/${hookName("unverified")}`;
    const outcome = await partObject("rebound.event").webhookSubscribe(partInput("bob", url, "rebound.event", generateWebhookSecret()));
    expect(outcome).toEqual({ ok: false, refusal: "callback-endpoint", reason: "connection_refused" });
  });
});

describe("an upstream-backed type", () => {
  it("is polled by the object's alarm for its subscriptions; what it finds goes to those with the same arguments", async () => {
    const { hooks, path: salesPath } = await subscribedTo("ticket.opened", "sales", { queue: "sales" });
    const support = await subscribedTo("ticket.opened", "support", { queue: "support" });
    expect(support.result.cursor).toBe(String(tickets.length));
    const id = `tkt_${crypto.randomUUID()}`;
    tickets.push({ id, queue: "support", title: "Printer on fire" }, { id: `${id}-sales`, queue: "sales", title: "Upsell" });
    const [, delivered] = await hooks.received({ path: support.path, count: 2 });
    expect(delivered).toMatchObject({ webhookId: id, verified: true, subscriptionId: support.result.id });
    expect(JSON.parse(delivered!.body)).toMatchObject({ eventId: id, name: "ticket.opened", data: { title: "Printer on fire" } });
    const [, sales] = await hooks.received({ path: salesPath, count: 2 });
    expect(sales?.webhookId).toBe(`${id}-sales`);
    expect((await hooks.received({ path: support.path })).map((record) => record.webhookId)).not.toContain(`${id}-sales`);
  });
});

describe("fan-out", () => {
  it("delivers one emit to 1,000 subscriptions of one event", async () => {
    const hooks = await receiver();
    const name = hookName("thousand");
    const url = hooks.hookUrl(name);
    const object = partObject("fanout.event");
    const subscribe = (shard: number) => object.webhookSubscribe(partInput("ada", url, "fanout.event", hooks.secret, { shard }));
    // The first verifies the endpoint; the rest find it verified (cached per principal and URL).
    await subscribe(0);
    for (let start = 1; start < 1000; start += 100) {
      await Promise.all(Array.from({ length: Math.min(100, 1000 - start) }, (_, i) => subscribe(start + i)));
    }
    const event = occurrence(`evt_${crypto.randomUUID()}`, "fanout.event");
    await object.emit(event);
    const received = await hooks.received({ path: `/hooks/${name}`, count: 1001, timeoutMs: 120_000 });
    const events = received.filter((record) => record.webhookId === event.eventId);
    expect(events).toHaveLength(1000);
    expect(new Set(events.map((record) => record.subscriptionId)).size).toBe(1000);
    expect(events.every((record) => record.verified)).toBe(true);
  }, 180_000);
});
