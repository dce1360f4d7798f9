/**
 * The webhook subscriptions' SQLite rows, in the events object's own database (so they survive restarts and
 * evictions, and an emit queues its deliveries in the same object that logged the event):
 *   webhook_subscriptions  one row per subscription key (id = its derived id): where, what, secrets, expiry, status;
 *                          `ended` rows are terminated ones kept only until their `terminated` envelope is out
 *   webhook_verified       (subject, url) pairs whose endpoint confirmed it wants deliveries (SEP-3415: cached per
 *                          principal and url, persisted beside the subscriptions), dropped with their last subscription
 *   webhook_messages       each body to deliver, stored once however many subscriptions receive it
 *   webhook_outbox         one row per (subscription, message) still to deliver: attempts so far, when the next is due
 * Costs (rows written): an emit writes one message row and one outbox row per matching subscription; an attempt
 * writes at most two (its outbox row updated or deleted, its subscription's delivery status when that changes);
 * the message row goes once its last delivery is done. No index is written on a delivery (the outbox is scanned
 * by due time, reads only), and an idle subscription writes nothing.
 */
import type { WebhookErrorCategory, WebhookKey } from "./webhooks-contract";

export interface SubscriptionRow {
  id: string;
  subject: string;
  url: string;
  name: string;
  arguments: string;
  secret: string;
  previous_secret: string | null;
  previous_until: number | null;
  expires_at: number | null;
  loopback: number;
  last_delivery_at: number | null;
  last_error: WebhookErrorCategory | null;
  failed_since: number | null;
}

/** A delivery due now: the outbox row with its message and its subscription's address and secrets. */
export interface DueDelivery {
  subscription: string;
  message: number;
  attempts: number;
  first_at: number;
  webhook_id: string;
  body: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_until: number | null;
  loopback: number;
}

/** What a new or refreshed subscription is stored with. */
export interface SubscriptionWrite {
  id: string;
  key: WebhookKey;
  secret: string;
  /** The secret it replaces, signed with too until `previousUntil` (rotation grace). */
  previous: { secret: string; until: number } | undefined;
  expiresAt: number | null;
  loopback: boolean;
}

/** How fresh `lastDeliveryAt` is kept: rewritten at most once a minute per subscription. */
const STATUS_GRANULARITY_MS = 60_000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS webhook_subscriptions (
  id TEXT PRIMARY KEY, subject TEXT NOT NULL, url TEXT NOT NULL, name TEXT NOT NULL, arguments TEXT NOT NULL,
  secret TEXT NOT NULL, previous_secret TEXT, previous_until INTEGER, expires_at INTEGER, loopback INTEGER NOT NULL,
  ended INTEGER NOT NULL DEFAULT 0, last_delivery_at INTEGER, last_error TEXT, failed_since INTEGER
);
CREATE INDEX IF NOT EXISTS webhook_subscriptions_by_name ON webhook_subscriptions (name);
CREATE TABLE IF NOT EXISTS webhook_verified (subject TEXT NOT NULL, url TEXT NOT NULL, PRIMARY KEY (subject, url)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS webhook_messages (seq INTEGER PRIMARY KEY, webhook_id TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS webhook_outbox (
  subscription TEXT NOT NULL, message INTEGER NOT NULL, attempts INTEGER NOT NULL, first_at INTEGER NOT NULL, due_at INTEGER NOT NULL,
  PRIMARY KEY (subscription, message)
) WITHOUT ROWID;
`;

export class WebhookStore {
  readonly #sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
    sql.exec(SCHEMA);
  }

  /** The live (not ended) subscription with this id. */
  subscription(id: string): SubscriptionRow | undefined {
    return this.#sql
      .exec<Record<string, SqlStorageValue> & SubscriptionRow>("SELECT * FROM webhook_subscriptions WHERE id = ? AND ended = 0", id)
      .toArray()[0];
  }

  /** How many live subscriptions `subject` holds here. */
  countOf(subject: string): number {
    return this.#sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM webhook_subscriptions WHERE subject = ? AND ended = 0", subject).one()
      .n;
  }

  isVerified(subject: string, url: string): boolean {
    return this.#sql.exec("SELECT 1 FROM webhook_verified WHERE subject = ? AND url = ?", subject, url).toArray().length > 0;
  }

  markVerified(subject: string, url: string): void {
    this.#sql.exec("INSERT OR IGNORE INTO webhook_verified (subject, url) VALUES (?, ?)", subject, url);
  }

  /** Creates or refreshes a subscription: secret replaced, expiry granted again, an ended one live again. */
  upsert(write: SubscriptionWrite): void {
    const { key } = write;
    this.#sql.exec(
      `INSERT INTO webhook_subscriptions (id, subject, url, name, arguments, secret, previous_secret, previous_until, expires_at, loopback, ended)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
       ON CONFLICT (id) DO UPDATE SET secret = excluded.secret, previous_secret = excluded.previous_secret,
         previous_until = excluded.previous_until, expires_at = excluded.expires_at, loopback = excluded.loopback, ended = 0`,
      write.id,
      key.subject,
      key.url,
      key.name,
      key.arguments,
      write.secret,
      write.previous?.secret ?? null,
      write.previous?.until ?? null,
      write.expiresAt,
      write.loopback ? 1 : 0,
    );
  }

  /** Removes a subscription, what it still had to deliver, and its endpoint's verification once no subscription uses it. */
  remove(id: string): boolean {
    const row = this.#sql
      .exec<{ subject: string; url: string }>("SELECT subject, url FROM webhook_subscriptions WHERE id = ? AND ended = 0", id)
      .toArray()[0];
    if (!row) return false;
    this.#drop(id, row.subject, row.url);
    return true;
  }

  #drop(id: string, subject: string, url: string): void {
    this.#sql.exec("DELETE FROM webhook_outbox WHERE subscription = ?", id);
    this.#sql.exec("DELETE FROM webhook_subscriptions WHERE id = ?", id);
    const others = this.#sql.exec("SELECT 1 FROM webhook_subscriptions WHERE subject = ? AND url = ? LIMIT 1", subject, url).toArray();
    if (others.length === 0) this.#sql.exec("DELETE FROM webhook_verified WHERE subject = ? AND url = ?", subject, url);
  }

  /** The live subscriptions to event type `name`: id and arguments (canonical JSON). */
  subscribersOf(name: string): { id: string; arguments: string }[] {
    return this.#sql
      .exec<{ id: string; arguments: string }>("SELECT id, arguments FROM webhook_subscriptions WHERE name = ? AND ended = 0", name)
      .toArray();
  }

  /** Stores one body and queues it for each subscription, due at `now`. */
  queue(webhookId: string, body: string, subscriptions: readonly string[], now: number): void {
    if (subscriptions.length === 0) return;
    const message = this.#sql
      .exec<{ seq: number }>("INSERT INTO webhook_messages (webhook_id, body) VALUES (?, ?) RETURNING seq", webhookId, body)
      .one().seq;
    for (const subscription of subscriptions) {
      this.#sql.exec(
        "INSERT OR IGNORE INTO webhook_outbox (subscription, message, attempts, first_at, due_at) VALUES (?, ?, 0, ?, ?)",
        subscription,
        message,
        now,
        now,
      );
    }
  }

  /** Marks the subscriptions ended (their queued events dropped): only a `terminated` envelope queued after this goes out. */
  end(ids: readonly string[]): void {
    for (const id of ids) {
      this.#sql.exec("DELETE FROM webhook_outbox WHERE subscription = ?", id);
      this.#sql.exec("UPDATE webhook_subscriptions SET ended = 1 WHERE id = ?", id);
    }
  }

  /** Up to `limit` deliveries due at `now`, earliest first. */
  due(now: number, limit: number): DueDelivery[] {
    return this.#sql
      .exec<Record<string, SqlStorageValue> & DueDelivery>(
        `SELECT o.subscription, o.message, o.attempts, o.first_at, m.webhook_id, m.body,
                s.url, s.secret, s.previous_secret, s.previous_until, s.loopback
         FROM webhook_outbox o JOIN webhook_messages m ON m.seq = o.message JOIN webhook_subscriptions s ON s.id = o.subscription
         WHERE o.due_at <= ? ORDER BY o.due_at LIMIT ?`,
        now,
        limit,
      )
      .toArray();
  }

  /**
   * A 2xx: the delivery is done. One row (the outbox row), and the subscription's status only when it changes: an
   * error cleared, or `lastDeliveryAt` more than STATUS_GRANULARITY_MS old (it is kept to the minute, so a busy
   * subscription does not rewrite its row on every delivery).
   */
  delivered(delivery: DueDelivery, now: number): void {
    this.#sql.exec("DELETE FROM webhook_outbox WHERE subscription = ? AND message = ?", delivery.subscription, delivery.message);
    this.#sql.exec(
      `UPDATE webhook_subscriptions SET last_delivery_at = ?, last_error = NULL, failed_since = NULL
       WHERE id = ? AND (last_error IS NOT NULL OR last_delivery_at IS NULL OR last_delivery_at < ?)`,
      now,
      delivery.subscription,
      now - STATUS_GRANULARITY_MS,
    );
  }

  /** A failed attempt: retried at `retryAt`, or given up on when undefined (two rows either way). */
  failed(delivery: DueDelivery, error: WebhookErrorCategory, now: number, retryAt: number | undefined): void {
    if (retryAt === undefined)
      this.#sql.exec("DELETE FROM webhook_outbox WHERE subscription = ? AND message = ?", delivery.subscription, delivery.message);
    else
      this.#sql.exec(
        "UPDATE webhook_outbox SET attempts = attempts + 1, due_at = ? WHERE subscription = ? AND message = ?",
        retryAt,
        delivery.subscription,
        delivery.message,
      );
    this.#sql.exec(
      "UPDATE webhook_subscriptions SET last_error = ?, failed_since = COALESCE(failed_since, ?) WHERE id = ?",
      error,
      now,
      delivery.subscription,
    );
  }

  /** Removes expired subscriptions, ended ones with nothing left to send, and bodies no delivery needs any more. */
  collect(now: number): void {
    const gone = this.#sql
      .exec<{ id: string; subject: string; url: string }>(
        `SELECT id, subject, url FROM webhook_subscriptions WHERE (expires_at IS NOT NULL AND expires_at <= ?)
         OR (ended = 1 AND NOT EXISTS (SELECT 1 FROM webhook_outbox WHERE subscription = id))`,
        now,
      )
      .toArray();
    for (const row of gone) this.#drop(row.id, row.subject, row.url);
    this.#sql.exec("DELETE FROM webhook_messages WHERE NOT EXISTS (SELECT 1 FROM webhook_outbox WHERE message = seq)");
  }

  /** When the alarm must next run: the earliest due delivery or expiry; undefined when nothing is due (idle costs nothing). */
  nextWake(): number | undefined {
    const row = this.#sql
      .exec<{ at: number | null }>(
        "SELECT MIN(at) AS at FROM (SELECT MIN(due_at) AS at FROM webhook_outbox UNION ALL SELECT MIN(expires_at) AS at FROM webhook_subscriptions)",
      )
      .one();
    return row.at ?? undefined;
  }
}
