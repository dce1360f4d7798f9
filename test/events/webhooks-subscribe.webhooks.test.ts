/**
 * events/subscribe and events/unsubscribe as a client sees them (the conformance draft's events-webhook
 * scenario, check ids sep-9999-*): who may subscribe, the secret and the URL checked, the key and its derived
 * id, the idempotent upsert, the TTL grant, teardown by key, and the endpoint's verification before anything
 * is delivered. Codes are SEP-3415's (-32023..-32027), not the draft's -32011..-32015.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { runInDurableObject } from "cloudflare:test";
import { RpcError } from "../../src/jsonrpc/errors";
import { TestRpcError, type TestClient } from "../../src/testing/index";
import { subscribeWebhook, unsubscribeWebhook } from "../../src/testing/webhooks";
import { z } from "zod";
import { defineEvent, events, webhooks, type WebhookOptions } from "../../src/features/events/index";
import type { HandlerContext } from "../../src/mcp/definition/context";
import type { MethodDefinition } from "../../src/mcp/definition/methods";
import { subscriptionIdOf } from "../../durable-objects/events/webhooks-contract";
import { anonymousClient, clientAs, emitIncident, hookName, partInput, partObject, receiver, testEnv } from "./webhooks-helpers";

const TYPE = "incident.created";
const SECRET_24_BYTES = `whsec_${btoa("x".repeat(24))}`;

/** events/subscribe and events/unsubscribe as a server without auth builds them (the test server's McpEvents behind them). */
function methodsOf(options: WebhookOptions = {}): { subscribe: MethodDefinition<unknown>; unsubscribe: MethodDefinition<unknown> } {
  const type = defineEvent(TYPE, { description: "An incident was opened", input: { severity: z.enum(["P1", "P2"]).optional() } });
  const methods = events({ types: [type], webhooks: webhooks(options) }).methods ?? [];
  const named = (method: string) => methods.find((definition) => definition.method === method) as MethodDefinition<unknown>;
  return { subscribe: named("events/subscribe"), unsubscribe: named("events/unsubscribe") };
}

/** A handler's context for a request without credentials from a client that declared Events, addressed to a loopback host. */
function anonymousContext(): HandlerContext<unknown> {
  const request = { url: "http://localhost/mcp", method: "POST", headers: new Headers({ Host: "localhost" }), cf: undefined, params: {} };
  const clientCapabilities = { extensions: { "io.modelcontextprotocol/events": {} } };
  return {
    env: testEnv,
    era: "2026",
    principal: undefined,
    request,
    clientCapabilities,
    meta: undefined,
  } as unknown as HandlerContext<unknown>;
}

/** The JSON-RPC error a call was refused with: a TestRpcError through the client, an RpcError from a method run directly. */
async function refusal(promise: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof TestRpcError)) expect(error).toBeInstanceOf(RpcError);
  return error as TestRpcError | RpcError;
}

function subscribeRaw(client: TestClient, params: Record<string, unknown>) {
  return client.request("events/subscribe", { name: TYPE, arguments: {}, cursor: null, ...params });
}

describe("who may subscribe", () => {
  it("refuses a caller without a principal with Forbidden -32024 on a server without auth (sep-9999-subscribe-auth-required)", async () => {
    const { subscribe, unsubscribe } = methodsOf();
    const error = await refusal(
      subscribe.run(
        { name: TYPE, arguments: {}, delivery: { mode: "webhook", url: "https://hooks.example.com/a", secret: SECRET_24_BYTES } },
        anonymousContext(),
        undefined,
      ),
    );
    expect(error.code).toBe(-32024);
    expect(error.message).toMatch(/authenticated principal/);
    const teardown = await refusal(
      unsubscribe.run({ name: TYPE, arguments: {}, delivery: { url: "https://hooks.example.com/a" } }, anonymousContext(), undefined),
    );
    expect(teardown.code).toBe(-32024);
  });

  it("keys an anonymous caller on the single tenant a server without auth names (singleTenant)", async () => {
    const hooks = await receiver();
    const { subscribe } = methodsOf({ singleTenant: "acme", allowLoopback: true });
    const url = hooks.hookUrl(hookName("tenant"));
    const result = await subscribe.run(
      { name: TYPE, arguments: {}, delivery: { mode: "webhook", url, secret: hooks.secret } },
      anonymousContext(),
      undefined,
    );
    expect(result.id).toBe(await subscriptionIdOf({ subject: "acme", url, name: TYPE, arguments: "{}" }));
  });

  it("refuses anonymous requests at the door on a server with auth (401 before any method runs)", async () => {
    const hooks = await receiver();
    const error = await refusal(subscribeWebhook(anonymousClient(), { name: TYPE, url: hooks.hookUrl("anon"), secret: hooks.secret }));
    expect(error.message).toMatch(/^Unauthorized/);
  });
});

describe("what is checked before any object is addressed", () => {
  it("requires a secret (sep-9999-subscribe-secret-required)", async () => {
    const client = await clientAs("ada");
    const error = await refusal(subscribeRaw(client, { delivery: { mode: "webhook", url: "https://hooks.example.com/a" } }));
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/delivery\.secret is required/);
  });

  it.each([
    ["no whsec_ prefix", btoa("x".repeat(32)), /must start with "whsec_"/],
    ["not base64", "whsec_not base64!", /not base64/],
    ["16 bytes", `whsec_${btoa("x".repeat(16))}`, /decodes to 16 bytes; it must be 24 to 64/],
    ["65 bytes", `whsec_${btoa("x".repeat(65))}`, /decodes to 65 bytes/],
  ])("refuses a secret with %s with -32602 naming why (sep-9999-subscribe-secret-format, -rejected)", async (_label, secret, why) => {
    const client = await clientAs("ada");
    const error = await refusal(subscribeWebhook(client, { name: TYPE, url: "https://hooks.example.com/a", secret }));
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(why);
  });

  it("refuses plain http with -32602 naming https (sep-9999-subscribe-url-https-required, -non-https-rejected)", async () => {
    const client = await clientAs("ada");
    const error = await refusal(subscribeWebhook(client, { name: TYPE, url: "http://hooks.example.com/a", secret: SECRET_24_BYTES }));
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/must use https \(got http\)/);
  });

  it.each([
    ["https://127.0.0.1/hook", /not a globally routable address/],
    ["https://10.1.2.3/hook", /not a globally routable address/],
    ["https://192.168.0.10/hook", /not a globally routable address/],
    ["https://169.254.169.254/latest/meta-data", /not a globally routable address/],
    ["https://100.64.0.1/hook", /not a globally routable address/],
    ["https://[::1]/hook", /not a globally routable address/],
    ["https://[fd00::1]/hook", /not a globally routable address/],
    ["https://[fe80::1]/hook", /not a globally routable address/],
    ["https://[::ffff:127.0.0.1]/hook", /not a globally routable address/],
    ["https://2130706433/hook", /not a globally routable address/],
    ["https://localhost/hook", /loopback/],
    ["https://metadata.internal/hook", /under \.internal/],
    ["https://intranet/hook", /single-label name/],
    ["https://user:pw@hooks.example.com/hook", /credentials/],
  ])("refuses %s, saying why (sep-9999-ssrf-validate-callback-url, sep-9999-ssrf-reject-non-routable)", async (url, why) => {
    // A deployed host: loopback delivery (allowLoopback) is never honoured there.
    const client = await clientAs("ada", "https://hooks.example.workers.dev/mcp");
    const error = await refusal(subscribeWebhook(client, { name: TYPE, url, secret: SECRET_24_BYTES }));
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(why);
  });

  it("refuses a loopback receiver on a deployed host even with allowLoopback", async () => {
    const hooks = await receiver();
    const client = await clientAs("ada", "https://hooks.example.workers.dev/mcp");
    const error = await refusal(subscribeWebhook(client, { name: TYPE, url: hooks.hookUrl("deployed"), secret: hooks.secret }));
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/must use https \(got http\)/);
    const secure = await refusal(subscribeWebhook(client, { name: TYPE, url: "https://127.0.0.1:8443/hook", secret: hooks.secret }));
    expect(secure.message).toMatch(/127\.0\.0\.1 is not a globally routable address/);
  });

  it("answers an unknown event type with NotFound -32023, kind event", async () => {
    const client = await clientAs("ada");
    const error = await refusal(subscribeWebhook(client, { name: "no.such", url: "https://hooks.example.com/a", secret: SECRET_24_BYTES }));
    expect([error.code, error.data]).toEqual([-32023, { kind: "event" }]);
    expect(error.message).toMatch(/no event named "no\.such"/);
  });

  it("answers a type without webhook delivery with Unsupported -32026 (sep-9999-subscribe-webhook-only, sep-9999-error-unsupported)", async () => {
    const client = await clientAs("ada");
    const error = await refusal(
      subscribeWebhook(client, { name: "build.finished", url: "https://hooks.example.com/a", secret: SECRET_24_BYTES }),
    );
    expect([error.code, error.data]).toEqual([-32026, { feature: "deliveryMode", value: "webhook" }]);
  });

  it("checks the arguments against the type's input schema (-32602)", async () => {
    const client = await clientAs("ada");
    const error = await refusal(
      subscribeWebhook(client, { name: TYPE, arguments: { severity: "P9" }, url: "https://hooks.example.com/a", secret: SECRET_24_BYTES }),
    );
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/arguments of "incident\.created": .*severity/);
  });

  it("refuses a ttlMs that is not a whole number of ms", async () => {
    const client = await clientAs("ada");
    const error = await refusal(
      subscribeWebhook(client, { name: TYPE, url: "https://hooks.example.com/a", secret: SECRET_24_BYTES, ttlMs: -5 }),
    );
    expect(error.message).toMatch(/ttlMs must be a whole number/);
  });
});

describe("the key and its id", () => {
  it("derives one id from (principal, url, name, canonical arguments), never from input (sep-9999-subscribe-key-composition, -id-derived, -id-not-an-input)", async () => {
    const hooks = await receiver();
    const url = hooks.hookUrl(hookName("key"));
    const ada = await clientAs("ada");
    const first = await subscribeRaw(ada, {
      arguments: { severity: "P1", team: { b: 1, a: 2 } },
      delivery: { mode: "webhook", url, secret: hooks.secret },
    });
    const reordered = await subscribeRaw(ada, {
      id: "sub_chosen_by_client",
      arguments: { team: { a: 2, b: 1 }, severity: "P1" },
      delivery: { mode: "webhook", url, secret: hooks.secret },
    });
    expect(first.id).toMatch(/^sub_[0-9a-f]{32}$/);
    expect(reordered.id).toBe(first.id);
    const otherArgs = await subscribeWebhook(ada, { name: TYPE, arguments: { severity: "P2" }, url, secret: hooks.secret });
    const otherUrl = await subscribeWebhook(ada, {
      name: TYPE,
      arguments: { severity: "P1", team: { a: 2, b: 1 } },
      url: `${url}-2`,
      secret: hooks.secret,
    });
    expect(new Set([first.id, otherArgs.id, otherUrl.id]).size).toBe(3);
  });

  it("keeps two principals' subscriptions apart: one cannot remove the other's (sep-9999-subscribe-cross-tenant-isolation, -key-immutable)", async () => {
    const hooks = await receiver();
    const url = hooks.hookUrl(hookName("tenants"));
    const ada = await clientAs("ada");
    const bob = await clientAs("bob");
    const adas = await subscribeWebhook(ada, { name: TYPE, url, secret: hooks.secret });
    const bobs = await subscribeWebhook(bob, { name: TYPE, url, secret: hooks.secret });
    expect(bobs.id).not.toBe(adas.id);
    await unsubscribeWebhook(bob, { name: TYPE, url });
    const again = await subscribeWebhook(ada, { name: TYPE, url, secret: hooks.secret });
    expect(again.deliveryStatus).toBeDefined();
    const error = await refusal(unsubscribeWebhook(bob, { name: TYPE, url }));
    expect(error.code).toBe(-32023);
  });

  it("refreshes in place: same id, cursor and truncated in every response, deliveryStatus on a refresh (sep-9999-subscribe-idempotent-upsert, -response-cursor, -response-truncated, -refresh-reactivates)", async () => {
    const hooks = await receiver();
    const url = hooks.hookUrl(hookName("upsert"));
    const ada = await clientAs("ada");
    const first = await subscribeWebhook(ada, { name: TYPE, url, secret: hooks.secret, cursor: null });
    expect(first).toMatchObject({ cursor: expect.stringMatching(/^ev1_/), truncated: false });
    expect(first.deliveryStatus).toBeUndefined();
    const refreshed = await subscribeWebhook(ada, { name: TYPE, url, secret: hooks.secret, cursor: first.cursor as string });
    expect(refreshed).toMatchObject({
      id: first.id,
      cursor: first.cursor,
      truncated: false,
      deliveryStatus: { active: true, lastDeliveryAt: null, lastError: null },
    });
  });
});

describe("the cursor", () => {
  it("replays to a new subscription what the log retains after its cursor, then returns a cursor at or before them", async () => {
    const hooks = await receiver();
    const name = hookName("replay");
    const ada = await clientAs("ada");
    const before = await ada.request("events/poll", { name: TYPE, arguments: {}, cursor: null });
    const ids = [`evt_${crypto.randomUUID()}`, `evt_${crypto.randomUUID()}`];
    for (const id of ids) await emitIncident(id);
    const result = await subscribeWebhook(ada, {
      name: TYPE,
      url: hooks.hookUrl(name),
      secret: hooks.secret,
      cursor: before.cursor as string,
    });
    expect(result).toMatchObject({ cursor: before.cursor, truncated: false });
    const received = await hooks.received({ path: `/hooks/${name}`, count: 3 });
    expect(received.filter((record) => record.type === null).map((record) => record.webhookId)).toEqual(ids);
  });

  it("refuses a cursor this server never issued with -32602", async () => {
    const error = await refusal(
      subscribeWebhook(await clientAs("ada"), { name: TYPE, url: "https://hooks.example.com/a", secret: SECRET_24_BYTES, cursor: "c-7" }),
    );
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/"cursor" is not one this server issued/);
  });
});

describe("limits", () => {
  it("refuses a principal's new subscription past maxSubscriptions with ResourceExhausted -32025; its refreshes still pass", async () => {
    const hooks = await receiver();
    const url = hooks.hookUrl(hookName("limit"));
    const crowd = await clientAs("crowd");
    const held = await subscribeWebhook(crowd, { name: TYPE, url, secret: hooks.secret });
    // The test server's limit is 1,000 a principal and type: the other 999 are written straight into the object's rows.
    await runInDurableObject(testEnv.MCP_EVENTS.getByName(TYPE), (_instance, state) => {
      for (let i = 0; i < 999; i++) {
        state.storage.sql.exec(
          "INSERT INTO webhook_subscriptions (id, subject, url, name, arguments, secret, loopback) VALUES (?, 'crowd', ?, ?, '{}', ?, 1)",
          `sub_filler_${i}`,
          `${url}-${i}`,
          TYPE,
          hooks.secret,
        );
      }
    });
    const error = await refusal(subscribeWebhook(crowd, { name: TYPE, url: `${url}-new`, secret: hooks.secret }));
    expect([error.code, error.data]).toEqual([-32025, { limit: "subscriptions", max: 1000 }]);
    expect((await subscribeWebhook(crowd, { name: TYPE, url, secret: hooks.secret })).id).toBe(held.id);
    expect((await subscribeWebhook(await clientAs("ada"), { name: TYPE, url: `${url}-ada`, secret: hooks.secret })).id).toEqual(
      expect.any(String),
    );
  });
});

describe("the TTL grant", () => {
  /** Ada subscribes a fresh hook with this TTL suggestion (none: omitted); the expiry granted, and the time just before. */
  async function grant(label: string, ttlMs?: number): Promise<{ before: number; granted: number }> {
    const hooks = await receiver();
    const before = Date.now();
    const url = hooks.hookUrl(hookName(label));
    const result = await subscribeWebhook(await clientAs("ada"), {
      name: TYPE,
      url,
      secret: hooks.secret,
      ...(ttlMs === undefined ? {} : { ttlMs }),
    });
    return { before, granted: Date.parse(result.refreshBefore as string) };
  }

  it("grants at or under the suggestion (sep-9999-ttl-refresh-before-lte-suggestion)", async () => {
    const { before, granted } = await grant("ttl", 120_000);
    expect(granted).toBeGreaterThan(before);
    expect(granted).toBeLessThanOrEqual(Date.now() + 120_000);
  });

  it("clamps a too-short suggestion up to the floor instead of refusing it (sep-9999-ttl-no-rejection-path)", async () => {
    const { before, granted } = await grant("floor", 1);
    // The test server's floor is 1 s (minTtlMs).
    expect(granted).toBeGreaterThanOrEqual(before + 1_000);
  });

  it("grants the server default when ttlMs is omitted, never no expiry (sep-9999-ttl-omitted-means-default, -null-only-when-requested)", async () => {
    const { before, granted } = await grant("default");
    expect(granted).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(granted).toBeLessThanOrEqual(Date.now() + 3_600_000);
  });

  it("grants no expiry only for ttlMs: null, and a later finite suggestion makes it finite again", async () => {
    const hooks = await receiver();
    const url = hooks.hookUrl(hookName("forever"));
    const ada = await clientAs("ada");
    expect((await subscribeWebhook(ada, { name: TYPE, url, secret: hooks.secret, ttlMs: null })).refreshBefore).toBeNull();
    expect((await subscribeWebhook(ada, { name: TYPE, url, secret: hooks.secret, ttlMs: 60_000 })).refreshBefore).toEqual(
      expect.any(String),
    );
  });

  it("collects an expired subscription at its alarm: unsubscribing it then finds nothing", async () => {
    const hooks = await receiver();
    const url = hooks.hookUrl(hookName("expired"));
    const part = partObject("expiry.event");
    const outcome = await part.webhookSubscribe({ ...partInput("ada", url, "expiry.event", hooks.secret), ttlMs: 1_000 });
    if (!outcome.ok) throw new Error(`subscribe refused: ${outcome.refusal}`);
    const expiry = Date.parse(outcome.result.refreshBefore as string);
    await runInDurableObject(part, (instance) => instance.webhooks.alarm(expiry + 1));
    expect(await part.webhookUnsubscribe(partInput("ada", url, "expiry.event", hooks.secret).key)).toBe(false);
  });
});

describe("teardown by key", () => {
  it("removes by (name, arguments, url) with an empty result, and a second time is NotFound with kind subscription (sep-9999-unsubscribe-by-key, -unknown-not-found)", async () => {
    const hooks = await receiver();
    const url = hooks.hookUrl(hookName("teardown"));
    const ada = await clientAs("ada");
    await subscribeWebhook(ada, { name: TYPE, arguments: { severity: "P1" }, url, secret: hooks.secret });
    const wrongArgs = await refusal(unsubscribeWebhook(ada, { name: TYPE, arguments: { severity: "P2" }, url }));
    expect(wrongArgs.code).toBe(-32023);
    const { resultType, _meta, ...result } = await ada.request("events/unsubscribe", {
      name: TYPE,
      arguments: { severity: "P1" },
      delivery: { url },
    });
    expect([resultType, result]).toEqual(["complete", {}]);
    const again = await refusal(unsubscribeWebhook(ada, { name: TYPE, arguments: { severity: "P1" }, url }));
    expect([again.code, again.data]).toEqual([-32023, { kind: "subscription" }]);
  });
});

describe("the endpoint confirms it wants deliveries before the subscription holds", () => {
  it("sends a signed verification challenge first and holds the subscription once it is echoed (sep-9999-verification-challenge-echo)", async () => {
    const hooks = await receiver();
    const name = hookName("verify");
    const result = await subscribeWebhook(await clientAs("ada"), { name: TYPE, url: hooks.hookUrl(name), secret: hooks.secret });
    const [challenge] = await hooks.received({ path: `/hooks/${name}`, count: 1 });
    expect(challenge).toMatchObject({ type: "verification", verified: true, subscriptionId: result.id });
    expect(challenge?.webhookId).toMatch(/^msg_verification_[0-9a-f]+$/);
  });

  it("verifies once per (principal, url): other arguments to the same URL send no second challenge (sep-9999-verification-cached-per-principal-url)", async () => {
    const hooks = await receiver();
    const name = hookName("cached");
    const ada = await clientAs("ada");
    await subscribeWebhook(ada, { name: TYPE, arguments: { severity: "P1" }, url: hooks.hookUrl(name), secret: hooks.secret });
    await subscribeWebhook(ada, { name: TYPE, arguments: { severity: "P2" }, url: hooks.hookUrl(name), secret: hooks.secret });
    await subscribeWebhook(await clientAs("bob"), { name: TYPE, url: hooks.hookUrl(name), secret: hooks.secret });
    const received = await hooks.received({ path: `/hooks/${name}`, count: 2 });
    expect(received.filter((record) => record.type === "verification")).toHaveLength(2);
  });

  it("answers a wrong echo with CallbackEndpointError -32027, reason challenge_failed, and keeps nothing (sep-9999-verification-failure-error, sep-9999-error-callback-endpoint-error)", async () => {
    const hooks = await receiver();
    const name = hookName("wrong-echo");
    await hooks.script({ path: `/hooks/${name}`, wrongChallenge: true });
    const ada = await clientAs("ada");
    const error = await refusal(subscribeWebhook(ada, { name: TYPE, url: hooks.hookUrl(name), secret: hooks.secret }));
    expect([error.code, error.data]).toEqual([-32027, { reason: "challenge_failed" }]);
    expect(error.message).not.toMatch(/not-the-challenge/);
    const gone = await refusal(unsubscribeWebhook(ada, { name: TYPE, url: hooks.hookUrl(name) }));
    expect(gone.code).toBe(-32023);
  });

  it("answers an endpoint nobody listens on with -32027, reason connection_refused, and no endpoint output (sep-9999-verification-no-raw-endpoint-responses)", async () => {
    const error = await refusal(
      subscribeWebhook(await clientAs("ada"), { name: TYPE, url: "http://127.0.0.1:9/hooks/closed", secret: SECRET_24_BYTES }),
    );
    expect([error.code, error.data]).toEqual([-32027, { reason: "connection_refused" }]);
  });
});

describe("the test kit", () => {
  it("types the receiver's subpath (mcp-edge/testing/receiver, self-contained) as the kit types what it records", () => {
    expectTypeOf<import("../../src/testing/webhook-receiver.mjs").ReceivedWebhook>().toEqualTypeOf<
      import("../../src/testing/webhooks").ReceivedWebhook
    >();
    expectTypeOf<import("../../src/testing/webhook-receiver.mjs").ReceiverScript>().toEqualTypeOf<
      import("../../src/testing/webhooks").ReceiverScript
    >();
  });
});
