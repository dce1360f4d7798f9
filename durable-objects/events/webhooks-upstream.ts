/**
 * Webhook delivery of upstream-backed event types: the object's alarm drives the author's `poll` for every
 * distinct arguments its subscriptions hold (one source each), every `nextPollMs`, and queues what it returns
 * to the subscriptions with exactly those arguments. Table `webhook_sources`: one row per (arguments), the
 * upstream cursor polls resume from and when the next poll is due; a source goes with its last subscription.
 * Cost: one alarm request and one row per poll round while a subscription lives (the upstream has no push).
 */
import type { EventArguments } from "./contract";

/** An upstream-backed type as the object drives it (from the events feature's registry). */
export interface UpstreamSource {
  readonly nextPollMs: number;
  poll(
    args: EventArguments,
    cursor: string | null,
    ctx: { env: unknown; maxEvents: number; signal: AbortSignal | undefined },
  ): Promise<UpstreamRound> | UpstreamRound;
}

/** What one poll round returned (the author's UpstreamPollResult). */
interface UpstreamRound {
  events: { eventId: string; timestamp?: string | Date; data: unknown; cursor?: string }[];
  cursor: string | null;
  hasMore?: boolean;
  nextPollMs?: number;
}

/** An occurrence a round found, as its webhook body carries it. */
export interface UpstreamOccurrence {
  eventId: string;
  name: string;
  timestamp: string;
  data: unknown;
  cursor: string | null;
}

/** The events one round reads at most. */
const MAX_EVENTS_PER_ROUND = 100;

const SCHEMA = `CREATE TABLE IF NOT EXISTS webhook_sources (arguments TEXT PRIMARY KEY, cursor TEXT, due_at INTEGER NOT NULL) WITHOUT ROWID;`;

export class UpstreamSources {
  readonly #sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
    sql.exec(SCHEMA);
  }

  /**
   * The source of `args` (canonical JSON) for a new subscription: made when absent, starting at the client's cursor,
   * or at the upstream's current position (a first poll from null). Answers the cursor a subscribe returns.
   */
  async start(source: UpstreamSource, args: string, cursor: string | null, env: unknown): Promise<string | null> {
    const row = this.#sql.exec<{ cursor: string | null }>("SELECT cursor FROM webhook_sources WHERE arguments = ?", args).toArray()[0];
    if (row) return row.cursor;
    const start = cursor ?? (await source.poll(JSON.parse(args) as EventArguments, null, { env, maxEvents: 0, signal: undefined })).cursor;
    this.#sql.exec(
      "INSERT OR IGNORE INTO webhook_sources (arguments, cursor, due_at) VALUES (?, ?, ?)",
      args,
      start,
      Date.now() + source.nextPollMs,
    );
    return start;
  }

  /**
   * Runs the rounds due at `now`: each polls from its cursor and hands what it found to `found` (queued to the
   * subscriptions with those arguments), then moves the cursor and the next round's time. A failed round is
   * logged and tried again at the next interval.
   */
  async poll(
    source: UpstreamSource,
    name: string,
    now: number,
    context: { env: unknown; found: (args: string, occurrence: UpstreamOccurrence) => Promise<void> },
  ): Promise<void> {
    const due = this.#sql
      .exec<{ arguments: string; cursor: string | null }>("SELECT arguments, cursor FROM webhook_sources WHERE due_at <= ?", now)
      .toArray();
    for (const row of due) {
      let round: UpstreamRound;
      try {
        round = await source.poll(JSON.parse(row.arguments) as EventArguments, row.cursor, {
          env: context.env,
          maxEvents: MAX_EVENTS_PER_ROUND,
          signal: undefined,
        });
      } catch (error) {
        console.error(`mcp-edge: the poll of ${name} for its webhooks failed; it runs again in ${source.nextPollMs} ms:`, error);
        this.#sql.exec("UPDATE webhook_sources SET due_at = ? WHERE arguments = ?", now + source.nextPollMs, row.arguments);
        continue;
      }
      for (const event of round.events) {
        const timestamp = event.timestamp === undefined ? new Date(now) : new Date(event.timestamp);
        const occurrence = {
          eventId: event.eventId,
          name,
          timestamp: timestamp.toISOString(),
          data: event.data,
          cursor: event.cursor ?? round.cursor,
        };
        await context.found(row.arguments, occurrence);
      }
      const next = round.hasMore ? now : now + (round.nextPollMs ?? source.nextPollMs);
      this.#sql.exec("UPDATE webhook_sources SET cursor = ?, due_at = ? WHERE arguments = ?", round.cursor, next, row.arguments);
    }
  }

  /** Removes the sources no live subscription of the object holds any more. */
  collect(): void {
    this.#sql.exec("DELETE FROM webhook_sources WHERE arguments NOT IN (SELECT arguments FROM webhook_subscriptions WHERE ended = 0)");
  }

  /** When the next round is due, if any. */
  nextWake(): number | undefined {
    return this.#sql.exec<{ at: number | null }>("SELECT MIN(due_at) AS at FROM webhook_sources").one().at ?? undefined;
  }
}
