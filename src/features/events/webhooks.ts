/**
 * The Worker side of webhook delivery: `events/subscribe` and `events/unsubscribe` as methods on the public
 * extension API (defineMethod), carried by the events feature. A request is checked here before any object is
 * addressed (who asks, the event type and its arguments, the secret, the URL); the subscription itself is kept,
 * verified and delivered to by the object holding the type's events (durable-objects/events/webhooks.ts),
 * reached through the contract. Refusals use SEP-3415's codes, -32023..-32027 (provisional), named below.
 */
import { INVALID_PARAMS, RpcError } from "../../jsonrpc/errors";
import { isObject } from "../../jsonrpc/parse";
import type { HandlerContext } from "../../mcp/definition/context";
import type { MethodDefinition } from "../../mcp/definition/methods";
import { defineMethod } from "../../mcp/handlers/methods";
import { isLocalAddressing } from "../../wire/loopback";
import { checkCallbackUrl } from "../../../durable-objects/events/webhooks-address";
import {
  canonicalJson,
  DEFAULT_WEBHOOK_SETTINGS,
  type WebhookKey,
  type WebhookSettings,
  type WebhookSubscribeOutcome,
  type WebhooksRpc,
} from "../../../durable-objects/events/webhooks-contract";
import { parseWebhookSecret } from "../../../durable-objects/events/webhooks-signing";

/** SEP-3415's error codes (provisional until the SEP is accepted; the design sketch and conformance draft use -32011..-32015). */
export const EVENTS_NOT_FOUND = -32023;
export const EVENTS_FORBIDDEN = -32024;
export const EVENTS_UNSUPPORTED = -32026;
export const EVENTS_CALLBACK_ENDPOINT_ERROR = -32027;

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
  };
  if (!(settings.minTtlMs > 0 && settings.minTtlMs <= settings.defaultTtlMs && settings.defaultTtlMs <= settings.maxTtlMs))
    throw new TypeError("events webhooks: the TTLs must satisfy 0 < minTtlMs <= defaultTtlMs <= maxTtlMs");
  if (settings.retryDelaysMs.some((delay) => !(delay >= 0)))
    throw new TypeError("events webhooks: retryDelaysMs are waits in ms, each 0 or more");
  return settings;
}

/** An event type as the webhook methods need it, from the events feature. */
export interface WebhookEventType {
  /** The delivery modes it offers ("poll", "push", "webhook"). */
  readonly delivery: readonly string[];
  /** The arguments checked against its inputSchema: their parsed value, or the message of a -32602. */
  checkArguments(args: unknown): Promise<{ ok: true; value: unknown } | { ok: false; message: string }>;
}

/** What the webhook methods are built on: the types, and the object holding a type's subscriptions. */
export interface WebhookBacking<Env> {
  eventType(name: string): WebhookEventType | undefined;
  objectFor(env: Env, name: string): WebhooksRpc;
}

/** `events/subscribe` and `events/unsubscribe`, for the events feature's `methods`. */
export function webhookMethods<Env>(backing: WebhookBacking<Env>, options: WebhookOptions = {}): MethodDefinition<Env>[] {
  const subscribe = defineMethod<Env>("events/subscribe", { description: "Subscribes a webhook to an event type" }, async (params, ctx) => {
    const request = await subscribeRequestOf(backing, params, ctx, options);
    const outcome = await backing.objectFor(ctx.env, request.key.name).webhookSubscribe(request);
    return resultOf(outcome);
  });
  const unsubscribe = defineMethod<Env>(
    "events/unsubscribe",
    { description: "Removes a webhook subscription by its key" },
    async (params, ctx) => {
      const subject = subjectOf(ctx, options);
      const { name, args } = await eventOf(backing, params, false);
      const delivery = isObject(params.delivery) ? params.delivery : undefined;
      const url = parseUrl(delivery?.url, true);
      const key: WebhookKey = { subject, url, name, arguments: canonicalJson(args) };
      const removed = await backing.objectFor(ctx.env, name).webhookUnsubscribe(key);
      if (!removed)
        throw new RpcError(EVENTS_NOT_FOUND, "No webhook subscription matches this name, arguments and delivery.url", {
          kind: "subscription",
        });
      return {};
    },
  );
  return [subscribe, unsubscribe];
}

async function subscribeRequestOf<Env>(
  backing: WebhookBacking<Env>,
  params: Record<string, unknown>,
  ctx: HandlerContext<Env>,
  options: WebhookOptions,
) {
  const subject = subjectOf(ctx, options);
  const { name, args } = await eventOf(backing, params, true);
  const delivery = params.delivery;
  if (!isObject(delivery)) throw invalid('delivery is required: {"mode": "webhook", "url": "https://…", "secret": "whsec_…"}');
  if (delivery.mode !== "webhook")
    throw invalid('delivery.mode must be "webhook" (events/subscribe is for webhook delivery; poll and push need no subscribe)');
  const loopback = options.allowLoopback === true && ctx.request !== undefined && isLocalRequestInfo(ctx.request);
  const url = parseUrl(delivery.url, loopback);
  const secret = parseWebhookSecret(delivery.secret);
  if (!secret.ok) throw invalid(secret.reason);
  const cursor = params.cursor ?? null;
  if (cursor !== null && typeof cursor !== "string")
    throw invalid("cursor must be a string from an earlier response, or null to start from now");
  const maxAgeMs = params.maxAgeMs;
  if (maxAgeMs !== undefined && !isCount(maxAgeMs)) throw invalid("maxAgeMs must be a whole number of milliseconds, 0 or more");
  const ttlMs = params.ttlMs;
  if (ttlMs !== undefined && ttlMs !== null && !isCount(ttlMs))
    throw invalid("ttlMs must be a whole number of milliseconds, or null to ask for no expiry");
  const key: WebhookKey = { subject, url, name, arguments: canonicalJson(args) };
  return { key, secret: delivery.secret as string, ttlMs, loopback, cursor, maxAgeMs };
}

/** The event type named by `params.name`, and its checked arguments; webhook delivery required when subscribing. */
async function eventOf<Env>(backing: WebhookBacking<Env>, params: Record<string, unknown>, subscribing: boolean) {
  const name = params.name;
  if (typeof name !== "string" || name.length === 0) throw invalid("name is required: the event type's name from events/list");
  const type = backing.eventType(name);
  if (!type) throw new RpcError(EVENTS_NOT_FOUND, `Unknown event type: ${name.slice(0, 100)}`, { kind: "event" });
  if (subscribing && !type.delivery.includes("webhook"))
    throw new RpcError(EVENTS_UNSUPPORTED, `Event type ${name} does not offer webhook delivery (it offers ${type.delivery.join(", ")})`, {
      feature: "deliveryMode",
      value: "webhook",
    });
  const checked = await type.checkArguments(params.arguments ?? {});
  if (!checked.ok) throw invalid(`arguments: ${checked.message}`);
  return { name, args: checked.value };
}

/** Who the subscription belongs to: the principal, or the configured single tenant; else Forbidden (SEP-3415). */
function subjectOf(ctx: HandlerContext<unknown>, options: WebhookOptions): string {
  const subject = ctx.principal?.subject ?? options.singleTenant;
  if (subject === undefined)
    throw new RpcError(EVENTS_FORBIDDEN, "Webhook subscriptions need an authenticated principal", {
      reason: "events/subscribe and events/unsubscribe are keyed on the caller, and this request carries no credentials",
    });
  return subject;
}

function parseUrl(value: unknown, loopback: boolean): string {
  const checked = checkCallbackUrl(value, loopback);
  if (!checked.ok) throw invalid(checked.reason);
  return checked.url.href;
}

function resultOf(outcome: WebhookSubscribeOutcome): Record<string, unknown> {
  if (outcome.ok) return { ...outcome.result };
  switch (outcome.refusal) {
    case "invalid-url":
      throw invalid(outcome.detail);
    case "callback-endpoint":
      throw new RpcError(
        EVENTS_CALLBACK_ENDPOINT_ERROR,
        `The callback endpoint did not confirm it accepts deliveries (${outcome.reason})`,
        {
          reason: outcome.reason,
        },
      );
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
