/**
 * The webhook part of the events object: the subscriptions (`events/subscribe` / `events/unsubscribe`, keyed by
 * principal, url, name and arguments), the queue of deliveries an emit makes, and the alarm that sends them
 * (signed, retried with backoff, given up with a `lastError`) and collects expired subscriptions. It owns its
 * SQLite tables (webhooks-store.ts) and asks its host for the alarm; it knows nothing of the event log beyond
 * the occurrences and positions it is handed. Engine: the object's alarm, so an emit queues its deliveries in
 * the same object that logged the event (no second service), queued rows survive restarts, and an object with
 * only idle subscriptions has no alarm at all.
 */
import {
  argumentsMatch,
  canonicalJson,
  cursorOf,
  occurrenceOf,
  type EventArguments,
  type ReadQuery,
  type ReadResult,
  type StoredEvent,
  type WebhookPart,
  type WebhookPartFactory,
} from "./contract";
import { checkCallbackUrl } from "./webhooks-address";
import {
  subscriptionIdOf,
  type WebhookErrorCategory,
  type WebhookKey,
  type WebhookPosition,
  type WebhookSettings,
  type WebhookSubscribeInput,
  type WebhookSubscribeOutcome,
  type WebhookSubscribeResult,
} from "./webhooks-contract";
import { controlMessageId, post, resolveOverHttps, verifyEndpoint, type Destination, type Resolver } from "./webhooks-delivery";
import { parseWebhookSecret } from "./webhooks-signing";
import { WebhookStore, type DueDelivery, type SubscriptionRow } from "./webhooks-store";
import { UpstreamSources, type UpstreamOccurrence, type UpstreamSource } from "./webhooks-upstream";

/** SEP-3415 "Delivery profile": bodies at most 256 KiB. */
const MAX_WEBHOOK_BODY_BYTES = 256 * 1024;
/** Deliveries attempted per alarm run (one object request): the platform caps a run's subrequests. */
const ATTEMPTS_PER_RUN = 100;
/** The most retained events a new subscription's cursor replays (older ones: `truncated`). */
const MAX_REPLAY = 100;

/** What the part needs of the object that holds it. */
export interface WebhookHost {
  readonly sql: SqlStorage;
  readonly settings: WebhookSettings;
  /** Asks for the object's alarm at `at` or earlier (the object keeps the earliest its parts asked for). */
  wakeAt(at: number): Promise<void>;
  /** Resolves callback host names at delivery time (default: DNS over HTTPS). */
  readonly resolve?: Resolver;
  /** The event type the object serves, and a read of its log (a new subscription's replay, its cursor); absent: no log. */
  readonly name?: () => string | undefined;
  readonly read?: (query: ReadQuery) => ReadResult;
  /** An upstream-backed type's poll, which the alarm drives for its subscriptions; undefined for an emitted type. */
  readonly upstream?: (name: string) => UpstreamSource | undefined;
  /** The Worker's bindings, for an upstream-backed type's poll. */
  readonly env?: unknown;
}

/** The webhook part of each events object of an edge (`events({ webhooks: webhooks(...) })` plugs it in). */
export function webhookPartOf(settings: WebhookSettings, upstream: (name: string) => UpstreamSource | undefined): WebhookPartFactory {
  return (host) =>
    new WebhookSubscriptions({
      sql: host.storage.sql,
      settings,
      wakeAt: (at) => wakeObjectAt(host.storage, at),
      name: host.name,
      read: host.read,
      upstream,
      env: host.env,
    });
}

/** Sets the object's alarm to `at` unless one is due sooner (its one alarm serves every due delivery and expiry). */
export async function wakeObjectAt(storage: DurableObjectStorage, at: number): Promise<void> {
  const current = await storage.getAlarm();
  if (current === null || at < current) await storage.setAlarm(at);
}

/** An event as its webhook body carries it (SEP-3415's EventOccurrence). */
export interface WebhookOccurrence {
  readonly eventId: string;
  readonly name: string;
  readonly timestamp: string;
  readonly data: unknown;
  readonly cursor?: string | null;
  readonly _meta?: Record<string, unknown>;
}

/** Which subscriptions of a type an occurrence or envelope is for, by their arguments (default: all of them). */
export type ArgumentsMatch = (args: unknown) => boolean;

export class WebhookSubscriptions implements WebhookPart {
  readonly #host: WebhookHost;
  readonly #store: WebhookStore;
  readonly #resolve: Resolver;
  readonly #sources: UpstreamSources;

  constructor(host: WebhookHost) {
    this.#host = host;
    this.#store = new WebhookStore(host.sql);
    this.#sources = new UpstreamSources(host.sql);
    this.#resolve = host.resolve ?? resolveOverHttps;
  }

  /** Creates or refreshes a subscription; a new one's cursor replays what the log retains after it. */
  async subscribe(input: WebhookSubscribeInput): Promise<WebhookSubscribeOutcome> {
    const { key } = input;
    const checked = checkCallbackUrl(key.url, input.loopback);
    if (!checked.ok) return { ok: false, refusal: "invalid-url", detail: checked.reason };
    const secret = parseWebhookSecret(input.secret);
    if (!secret.ok) throw new TypeError(`webhookSubscribe: the Worker passed an unchecked secret (${secret.reason})`);
    const id = await subscriptionIdOf(key);
    const max = this.#host.settings.maxSubscriptions;
    if (!this.#store.subscription(id) && this.#store.countOf(key.subject) >= max) return { ok: false, refusal: "limit", max };
    if (!this.#store.isVerified(key.subject, key.url)) {
      const verified = await verifyEndpoint({ url: key.url, loopback: input.loopback, subscriptionId: id }, [secret.key], this.#resolve);
      if (!verified.ok) return { ok: false, refusal: "callback-endpoint", reason: verified.reason };
      this.#store.markVerified(key.subject, key.url);
    }
    const source = this.#host.upstream?.(key.name);
    const upstreamCursor = source
      ? await this.#sources.start(source, key.arguments, input.upstreamCursor ?? null, this.#host.env)
      : undefined;
    const now = Date.now();
    const existing = this.#store.subscription(id);
    const expiresAt = this.#grant(input.ttlMs, now);
    const rotated = existing !== undefined && existing.secret !== input.secret;
    const previous = rotated ? { secret: existing.secret, until: now + this.#host.settings.rotationGraceMs } : undefined;
    this.#store.upsert({ id, key, secret: input.secret, previous, expiresAt, loopback: input.loopback });
    const position = await this.#positionOf(id, input, existing !== undefined, upstreamCursor);
    if (expiresAt !== null) await this.#host.wakeAt(expiresAt);
    const result: WebhookSubscribeResult = {
      id,
      refreshBefore: expiresAt === null ? null : new Date(expiresAt).toISOString(),
      cursor: position.cursor,
      truncated: position.truncated,
    };
    if (existing) result.deliveryStatus = statusOf(existing);
    return { ok: true, result };
  }

  /** Events just logged: each goes to the subscriptions whose arguments it matches. */
  async appended(events: readonly StoredEvent[]): Promise<void> {
    const name = this.#host.name?.();
    if (name === undefined) return;
    for (const event of events) {
      const body = JSON.stringify(occurrenceOf(name, event));
      await this.#deliverBody(name, event.eventId, body, (args) => argumentsMatch(args as EventArguments, event.arguments));
    }
  }

  async unsubscribe(key: WebhookKey): Promise<boolean> {
    return this.#store.remove(await subscriptionIdOf(key));
  }

  /** Queues an occurrence for every matching subscription of its type; false when its body is over the size limit. */
  async deliver(occurrence: WebhookOccurrence, matches?: ArgumentsMatch): Promise<boolean> {
    return this.#deliverBody(occurrence.name, occurrence.eventId, JSON.stringify(occurrence), matches);
  }

  async #deliverBody(name: string, eventId: string, body: string, matches: ArgumentsMatch | undefined): Promise<boolean> {
    if (new TextEncoder().encode(body).length > MAX_WEBHOOK_BODY_BYTES) {
      console.warn(`mcp-edge: event ${name} ${eventId} is over ${MAX_WEBHOOK_BODY_BYTES} bytes as JSON; not sent to webhooks`);
      return false;
    }
    await this.#queue(name, eventId, body, matches);
    return true;
  }

  /** Tells the subscriptions of `name` that events were skipped (`{"type":"gap","cursor"}`). */
  async gap(name: string, cursor: string | null, matches?: ArgumentsMatch): Promise<void> {
    await this.#queue(name, controlMessageId("gap"), JSON.stringify({ type: "gap", cursor }), matches);
  }

  /** Ends the subscriptions of `name` (type removed, schema changed, access revoked): a `terminated` envelope is their last delivery. */
  async terminate(name: string, error: { code: number; message: string; data?: unknown }, matches?: ArgumentsMatch): Promise<void> {
    const ids = this.#matching(name, matches);
    this.#store.end(ids);
    const body = JSON.stringify({ type: "terminated", error });
    this.#store.queue(controlMessageId("terminated"), body, ids, Date.now());
    if (ids.length > 0) await this.#host.wakeAt(Date.now());
  }

  /** The alarm's work: collect what expired, attempt what is due (at most a run's worth), and ask for the next alarm. */
  async alarm(now: number = Date.now()): Promise<void> {
    this.#store.collect(now);
    this.#sources.collect();
    await this.#pollUpstream(now);
    const due = this.#store.due(now, ATTEMPTS_PER_RUN);
    await Promise.all(due.map((delivery) => this.#attempt(delivery, now)));
    this.#store.collect(Date.now());
    const next = due.length === ATTEMPTS_PER_RUN ? Date.now() : earliest(this.#store.nextWake(), this.#sources.nextWake());
    if (next !== undefined) await this.#host.wakeAt(next);
  }

  /** An upstream-backed type's rounds that are due: what they find goes to the subscriptions with those arguments. */
  async #pollUpstream(now: number): Promise<void> {
    const name = this.#host.name?.();
    const source = name === undefined ? undefined : this.#host.upstream?.(name);
    if (name === undefined || source === undefined) return;
    const found = async (args: string, occurrence: UpstreamOccurrence) => {
      await this.#deliverBody(name, occurrence.eventId, JSON.stringify(occurrence), (wanted) => canonicalJson(wanted) === args);
    };
    await this.#sources.poll(source, name, now, { env: this.#host.env, found });
  }

  /** Where a subscription stands: its upstream source's cursor, the log's head (a refresh), or its replay (a new one). */
  async #positionOf(
    id: string,
    input: WebhookSubscribeInput,
    existing: boolean,
    upstreamCursor: string | null | undefined,
  ): Promise<WebhookPosition> {
    if (upstreamCursor !== undefined) {
      await this.#host.wakeAt(this.#sources.nextWake() ?? Date.now());
      return { cursor: upstreamCursor, truncated: false };
    }
    return existing ? this.#head(input.key) : this.#replay(id, input);
  }

  /** The log's head for a refresh (a live subscription's cursor is a no-op: delivery goes on). */
  #head(key: WebhookKey): WebhookPosition {
    if (!this.#host.read) return { cursor: null, truncated: false };
    const head = this.#host.read({ after: null, arguments: JSON.parse(key.arguments) as EventArguments, max: 1 });
    return { cursor: cursorOf(head.position), truncated: false };
  }

  /**
   * A new subscription starts at its cursor: the retained events after it (newer than `since`) are queued for it,
   * and the cursor returned is at or before every one of them, so persisting it never skips one.
   */
  async #replay(id: string, input: WebhookSubscribeInput): Promise<WebhookPosition> {
    if (!this.#host.read) return { cursor: null, truncated: false };
    if (input.after === null) return this.#head(input.key);
    const query: ReadQuery = { after: input.after, arguments: JSON.parse(input.key.arguments) as EventArguments, max: MAX_REPLAY };
    if (input.since !== undefined) query.since = input.since;
    const result = this.#host.read(query);
    const now = Date.now();
    for (const event of result.events) {
      const occurrence = occurrenceOf(input.key.name, event);
      this.#store.queue(event.eventId, JSON.stringify(occurrence), [id], now);
    }
    if (result.events.length > 0) await this.#host.wakeAt(now);
    const first = result.events[0];
    return { cursor: cursorOf(first === undefined ? result.position : first.seq - 1), truncated: result.truncated };
  }

  async #queue(name: string, webhookId: string, body: string, matches: ArgumentsMatch | undefined): Promise<void> {
    const ids = this.#matching(name, matches);
    if (ids.length === 0) return;
    const now = Date.now();
    this.#store.queue(webhookId, body, ids, now);
    await this.#host.wakeAt(now);
  }

  #matching(name: string, matches: ArgumentsMatch | undefined): string[] {
    const subscribers = this.#store.subscribersOf(name);
    return subscribers.filter((row) => matches === undefined || matches(JSON.parse(row.arguments))).map((row) => row.id);
  }

  async #attempt(delivery: DueDelivery, now: number): Promise<void> {
    const target: Destination = { url: delivery.url, loopback: delivery.loopback === 1, subscriptionId: delivery.subscription };
    const outcome = await post(target, { webhookId: delivery.webhook_id, body: delivery.body, keys: keysOf(delivery, now) }, this.#resolve);
    if (outcome.ok) {
      await outcome.response.body?.cancel();
      this.#store.delivered(delivery, Date.now());
      return;
    }
    this.#store.failed(delivery, outcome.error, Date.now(), outcome.retry ? this.#retryAt(delivery, now) : undefined);
  }

  /** When to try again after this failed attempt, or undefined once the attempts are spent. */
  #retryAt(delivery: DueDelivery, now: number): number | undefined {
    const delay = this.#host.settings.retryDelaysMs[delivery.attempts];
    return delay === undefined ? undefined : now + delay;
  }

  /** The expiry to grant: the suggestion within the floor and the ceiling, the default when none, none only when asked. */
  #grant(ttlMs: number | null | undefined, now: number): number | null {
    const settings = this.#host.settings;
    if (ttlMs === null) return settings.allowNoExpiry ? null : now + settings.maxTtlMs;
    const asked = ttlMs ?? settings.defaultTtlMs;
    return now + Math.min(Math.max(asked, settings.minTtlMs), settings.maxTtlMs);
  }
}

/** The signing keys of a delivery: the current secret, and the one it replaced while the rotation's grace lasts. */
function keysOf(delivery: DueDelivery, now: number): Uint8Array<ArrayBuffer>[] {
  const keys: Uint8Array<ArrayBuffer>[] = [];
  for (const secret of [delivery.secret, (delivery.previous_until ?? 0) > now ? delivery.previous_secret : null]) {
    const parsed = secret === null ? undefined : parseWebhookSecret(secret);
    if (parsed?.ok) keys.push(parsed.key);
  }
  return keys;
}

function statusOf(row: SubscriptionRow): WebhookSubscribeResult["deliveryStatus"] {
  const status: NonNullable<WebhookSubscribeResult["deliveryStatus"]> = {
    active: true,
    lastDeliveryAt: row.last_delivery_at === null ? null : new Date(row.last_delivery_at).toISOString(),
    lastError: row.last_error as WebhookErrorCategory | null,
  };
  if (row.failed_since !== null) status.failedSince = new Date(row.failed_since).toISOString();
  return status;
}

function earliest(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  return b === undefined ? a : Math.min(a, b);
}
