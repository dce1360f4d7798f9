/**
 * The Worker side of webhook delivery: `webhooks(options)` for `events({ webhooks })`, which adds
 * `events/subscribe` and `events/unsubscribe` (methods of the public extension API, gated on the Events
 * extension like events/list and events/poll) and plugs the webhook part into every events object. A request
 * is checked here before any object is addressed (who asks, the event type and its arguments, the cursor, the
 * secret, the URL); the subscription itself is kept, verified and delivered to by the object of its event
 * type (durable-objects/events/webhooks.ts), reached through the contract. Refusals come from the refusal
 * table's Events rows (SEP-3415's codes, -32023..-32027).
 */
import { INVALID_PARAMS, RpcError } from "../../jsonrpc/errors";
import type { Params } from "../../jsonrpc/messages";
import { isObject } from "../../jsonrpc/parse";
import type { HandlerContext } from "../../mcp/definition/context";
import type { MethodDefinition } from "../../mcp/definition/methods";
import { defineMethod } from "../../mcp/handlers/methods";
import { isLocalAddressing } from "../../wire/loopback";
import { canonicalJson } from "../../../durable-objects/events/contract";
import { checkCallbackUrl } from "../../../durable-objects/events/webhooks-address";
import {
  DEFAULT_WEBHOOK_SETTINGS,
  type WebhookKey,
  type WebhookSettings,
  type WebhookSubscribeInput,
  type WebhookSubscribeOutcome,
} from "../../../durable-objects/events/webhooks-contract";
import { webhookPartOf } from "../../../durable-objects/events/webhooks";
import type { UpstreamSource } from "../../../durable-objects/events/webhooks-upstream";
import type { UpstreamPollContext } from "./define";
import { parseWebhookSecret } from "../../../durable-objects/events/webhooks-signing";
import { eventsError } from "../../wire/events-errors";
import { EVENTS_EXTENSION, maxAgeOf, type EventRegistry, type EventsWebhooks } from "./registry";

/** The events feature's `webhooks` option. */
export interface WebhookOptions {
  /**
   * Lets tests and `wrangler dev` deliver to a loopback receiver (`http://127.0.0.1:<port>`): honoured only for a
   * subscribe request that itself arrived on a loopback host, so a deployed Worker never delivers to one.
   */
  allowLoopback?: boolean;
  /**
   * A server without auth has no principal to key subscriptions on, so webhooks are refused (Forbidden). A
   * single-tenant server behind its own gate names the one tenant here: every anonymous caller is that tenant
   * (and may replace or remove its subscriptions).
   */
  singleTenant?: string;
  /** Grants (ms): the default when a client suggests none (1 h), the floor (1 min), the longest finite one (24 h). */
  defaultTtlMs?: number;
  minTtlMs?: number;
  maxTtlMs?: number;
  /** Whether `ttlMs: null` gets no expiry (default true); else it gets `maxTtlMs`. */
  allowNoExpiry?: boolean;
  /** Waits before each retry (default 30 s, 90 s, 4 min, 8 min: five attempts within about 14 min). */
  retryDelaysMs?: readonly number[];
  /** How long the old secret still signs after a refresh replaced it (default 1 h). */
  rotationGraceMs?: number;
  /** The most subscriptions one principal holds to one event type (default 100; ResourceExhausted past it). */
  maxSubscriptions?: number;
}

/** The options as the object applies them. */
export function webhookSettingsOf(options: WebhookOptions = {}): WebhookSettings {
  const settings: WebhookSettings = {
    defaultTtlMs: options.defaultTtlMs ?? DEFAULT_WEBHOOK_SETTINGS.defaultTtlMs,
    minTtlMs: options.minTtlMs ?? DEFAULT_WEBHOOK_SETTINGS.minTtlMs,
    maxTtlMs: options.maxTtlMs ?? DEFAULT_WEBHOOK_SETTINGS.maxTtlMs,
    allowNoExpiry: options.allowNoExpiry ?? DEFAULT_WEBHOOK_SETTINGS.allowNoExpiry,
    retryDelaysMs: options.retryDelaysMs ?? DEFAULT_WEBHOOK_SETTINGS.retryDelaysMs,
    rotationGraceMs: options.rotationGraceMs ?? DEFAULT_WEBHOOK_SETTINGS.rotationGraceMs,
    maxSubscriptions: options.maxSubscriptions ?? DEFAULT_WEBHOOK_SETTINGS.maxSubscriptions,
  };
  if (!Number.isInteger(settings.maxSubscriptions) || settings.maxSubscriptions < 1)
    throw new TypeError("events webhooks: maxSubscriptions is a whole number, 1 or more");
  if (!(settings.minTtlMs > 0 && settings.minTtlMs <= settings.defaultTtlMs && settings.defaultTtlMs <= settings.maxTtlMs))
    throw new TypeError("events webhooks: the TTLs must satisfy 0 < minTtlMs <= defaultTtlMs <= maxTtlMs");
  if (settings.retryDelaysMs.some((delay) => !(delay >= 0)))
    throw new TypeError("events webhooks: retryDelaysMs are waits in ms, each 0 or more");
  return settings;
}

/**
 * Webhook delivery for `events({ types, webhooks: webhooks({ ... }) })`: events/subscribe, events/unsubscribe,
 * and the part of each events object that keeps the subscriptions and delivers to them from its alarm.
 */
export function webhooks<Env = unknown>(options: WebhookOptions = {}): EventsWebhooks<Env> {
  const settings = webhookSettingsOf(options);
  return {
    methods: (registry) => webhookMethods(registry, options),
    // Each events() feature hands its own registry, so one webhooks() value shared by two edges keeps their types apart.
    part: (registry) => webhookPartOf(settings, (name) => upstreamOf(registry, name)),
  };
}

/** An upstream-backed type of `registry` as its objects' alarms drive it for webhooks; undefined for an emitted type. */
function upstreamOf<Env>(registry: EventRegistry<Env>, name: string): UpstreamSource | undefined {
  const type = registry.types.get(name);
  if (!type?.poll) return undefined;
  const poll = type.poll;
  return { nextPollMs: type.nextPollMs, poll: (args, cursor, ctx) => poll(args, cursor, ctx as UpstreamPollContext<Env>) };
}

function webhookMethods<Env>(registry: EventRegistry<Env>, options: WebhookOptions): MethodDefinition<Env>[] {
  const subscribe = defineMethod<Env>(
    "events/subscribe",
    { extension: EVENTS_EXTENSION, description: "Subscribes a webhook to an event type" },
    async (params, ctx) => {
      const input = await subscribeInputOf(registry, params, ctx, options);
      const outcome = await registry.object(ctx.env, input.key.name).webhookSubscribe(input);
      return resultOf(outcome, input.key.name);
    },
  );
  const unsubscribe = defineMethod<Env>(
    "events/unsubscribe",
    { extension: EVENTS_EXTENSION, description: "Removes a webhook subscription by its key" },
    async (params, ctx) => {
      const subject = subjectOf(ctx, options);
      const type = registry.find(params, "webhook");
      const args = await registry.arguments(type, params);
      const delivery = isObject(params.delivery) ? params.delivery : undefined;
      const url = parseUrl(delivery?.url, true);
      const key: WebhookKey = { subject, url, name: type.name, arguments: canonicalJson(args) };
      const removed = await registry.object(ctx.env, type.name).webhookUnsubscribe(key);
      if (!removed) throw eventsError({ reason: "not-found", kind: "subscription", name: type.name });
      return {};
    },
  );
  return [subscribe, unsubscribe];
}

async function subscribeInputOf<Env>(
  registry: EventRegistry<Env>,
  params: Params,
  ctx: HandlerContext<Env>,
  options: WebhookOptions,
): Promise<WebhookSubscribeInput> {
  const subject = subjectOf(ctx, options);
  const type = registry.find(params, "webhook");
  const args = await registry.arguments(type, params);
  const delivery = params.delivery;
  if (!isObject(delivery)) throw invalid('delivery is required: {"mode": "webhook", "url": "https://…", "secret": "whsec_…"}');
  if (delivery.mode !== "webhook")
    throw invalid('delivery.mode must be "webhook" (events/subscribe is for webhook delivery; poll and push need no subscribe)');
  const loopback = options.allowLoopback === true && ctx.request !== undefined && isLocalRequestInfo(ctx.request);
  const url = parseUrl(delivery.url, loopback);
  const secret = parseWebhookSecret(delivery.secret);
  if (!secret.ok) throw invalid(secret.reason);
  const ttlMs = params.ttlMs;
  if (ttlMs !== undefined && ttlMs !== null && !isCount(ttlMs))
    throw invalid("ttlMs must be a whole number of milliseconds, or null to ask for no expiry");
  // An upstream-backed type's cursor is its upstream's (the object's polls start there); an emitted type's, its log's.
  const upstreamCursor = type.poll ? registry.upstreamCursor(params) : undefined;
  const after = type.poll ? null : registry.position(params);
  const maxAgeMs = maxAgeOf(params);
  const key: WebhookKey = { subject, url, name: type.name, arguments: canonicalJson(args) };
  return {
    key,
    secret: secret.secret,
    ttlMs,
    loopback,
    after,
    since: maxAgeMs === undefined ? undefined : Date.now() - maxAgeMs,
    ...(upstreamCursor === undefined ? {} : { upstreamCursor }),
  };
}

/** Who the subscription belongs to: the principal, or the configured single tenant; else Forbidden (SEP-3415). */
function subjectOf(ctx: HandlerContext<unknown>, options: WebhookOptions): string {
  const subject = ctx.principal?.subject ?? options.singleTenant;
  if (subject === undefined)
    throw eventsError({
      reason: "forbidden",
      detail:
        "webhook subscriptions need an authenticated principal (they are keyed on the caller, and this request carries no credentials)",
    });
  return subject;
}

function parseUrl(value: unknown, loopback: boolean): string {
  const checked = checkCallbackUrl(value, loopback);
  if (!checked.ok) throw invalid(checked.reason);
  return checked.url.href;
}

function resultOf(outcome: WebhookSubscribeOutcome, name: string): Record<string, unknown> {
  if (outcome.ok) return { ...outcome.result };
  switch (outcome.refusal) {
    case "invalid-url":
      throw invalid(outcome.detail);
    case "limit":
      throw eventsError({ reason: "resource-exhausted", limit: "subscriptions", max: outcome.max });
    case "callback-endpoint":
      throw eventsError({
        reason: "callback-endpoint",
        detail: `the callback endpoint for "${name}" did not confirm it accepts deliveries (${outcome.reason})`,
        category: outcome.reason,
      });
  }
}

function isLocalRequestInfo(request: NonNullable<HandlerContext<unknown>["request"]>): boolean {
  return isLocalAddressing(new URL(request.url).hostname, request.headers.get("Host"));
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function invalid(message: string): RpcError {
  return new RpcError(INVALID_PARAMS, `Invalid params: ${message}`);
}
