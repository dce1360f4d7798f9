/**
 * The bounded, replayable log of one emitted event type, in the events object's SQLite storage.
 * Table `events_log`: one row per emitted event, `seq` its position (strictly increasing: a new
 * row takes the head + 1, and the head survives trimming in `events_meta`), `event_id` unique so
 * an emit repeating a retained eventId is a duplicate. Retention trims by count and by age at
 * emit time, and a read never returns what retention would have trimmed; `trimmed` remembers the
 * highest position trimmed, so a reader behind it learns events were skipped (`truncated`).
 * Reads write nothing.
 */
import { argumentsMatch, type EmitInput, type LoggedEvent, type ReadQuery, type ReadResult, type StoredEvent } from "./contract";

export interface Retention {
  /** The most events kept; older ones are trimmed. */
  maxEvents: number;
  /** Events older than this are trimmed and never replayed (ms). */
  maxAgeMs: number;
}

interface Row extends Record<string, SqlStorageValue> {
  seq: number;
  event_id: string;
  at: number;
  data: string;
  args: string;
}

export type Appended = { duplicate: false; event: StoredEvent } | { duplicate: true; seq: number };

export class EventLog {
  private ready = false;

  constructor(
    private readonly sql: SqlStorage,
    private readonly retention: Retention,
  ) {}

  /** The position of the newest event ever appended (0 before the first). */
  head(): number {
    if (!this.tableExists()) return 0;
    const newest = this.sql.exec<{ seq: number | null }>("SELECT MAX(seq) AS seq FROM events_log").one().seq;
    return Math.max(newest ?? 0, this.trimmed());
  }

  /** Appends one event (or finds its eventId already retained), then trims by retention. */
  append(input: EmitInput, eventId: string, now: number): Appended {
    this.create();
    const known = this.sql.exec<{ seq: number }>("SELECT seq FROM events_log WHERE event_id = ?", eventId).toArray()[0];
    if (known) return { duplicate: true, seq: known.seq };
    const seq = this.head() + 1;
    const data = JSON.stringify(input.data ?? null);
    this.sql.exec(
      "INSERT INTO events_log (seq, event_id, at, data, args) VALUES (?, ?, ?, ?, ?)",
      seq,
      eventId,
      now,
      data,
      JSON.stringify(input.arguments),
    );
    this.trim(now);
    const event: StoredEvent = { seq, eventId, timestamp: new Date(now).toISOString(), data, arguments: input.arguments };
    return { duplicate: false, event };
  }

  /**
   * The events after `query.after` matching the query's arguments, oldest first, at most `max`.
   * A null `after` starts from now: nothing is read and the head is the position.
   */
  read(query: ReadQuery, now: number): ReadResult {
    const head = this.head();
    if (query.after === null || !this.tableExists()) return { events: [], position: head, truncated: false, hasMore: false };
    // A position beyond the head was not issued by this log (its storage was reset): start again from now.
    if (query.after > head) return { events: [], position: head, truncated: true, hasMore: false };
    const floor = Math.max(query.since ?? 0, now - this.retention.maxAgeMs);
    let truncated = query.after < this.trimmed();
    const events: LoggedEvent[] = [];
    for (const row of this.sql.exec<Row>("SELECT seq, event_id, at, data, args FROM events_log WHERE seq > ? ORDER BY seq", query.after)) {
      const args = JSON.parse(row.args) as Record<string, unknown>;
      if (!argumentsMatch(query.arguments, args)) continue;
      if (row.at < floor) {
        truncated = true;
        continue;
      }
      if (events.length === query.max) return { events, position: events[events.length - 1]!.seq, truncated, hasMore: true };
      events.push({ seq: row.seq, eventId: row.event_id, timestamp: new Date(row.at).toISOString(), data: row.data });
    }
    return { events, position: head, truncated, hasMore: false };
  }

  private trim(now: number): void {
    const { maxEvents, maxAgeMs } = this.retention;
    const cut = this.sql
      .exec<{ seq: number | null }>(
        "SELECT MAX(seq) AS seq FROM events_log WHERE at < ? OR seq <= (SELECT MAX(seq) FROM events_log) - ?",
        now - maxAgeMs,
        maxEvents,
      )
      .one().seq;
    if (cut === null) return;
    this.sql.exec("DELETE FROM events_log WHERE seq <= ?", cut);
    this.sql.exec("INSERT OR REPLACE INTO events_meta (key, value) VALUES ('trimmed', ?)", cut);
  }

  private trimmed(): number {
    const row = this.sql.exec<{ value: number }>("SELECT value FROM events_meta WHERE key = 'trimmed'").toArray()[0];
    return row?.value ?? 0;
  }

  private tableExists(): boolean {
    if (this.ready) return true;
    this.ready = this.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events_log'").toArray().length > 0;
    return this.ready;
  }

  private create(): void {
    if (this.tableExists()) return;
    this.sql.exec(
      "CREATE TABLE IF NOT EXISTS events_log (seq INTEGER PRIMARY KEY, event_id TEXT NOT NULL UNIQUE, at INTEGER NOT NULL, data TEXT NOT NULL, args TEXT NOT NULL)",
    );
    this.sql.exec("CREATE TABLE IF NOT EXISTS events_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)");
    this.ready = true;
  }
}
