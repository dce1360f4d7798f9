/**
 * The session's event log in SQLite: streams, their events, and the requests in flight. Every
 * outbound SSE event is appended here before it is written to a connection, so a cut connection,
 * an eviction or a restart loses nothing. (The session's state and subscriptions are its record,
 * session-record.ts; both share the tables' gate, session-tables.ts.)
 *
 * Layout and why:
 * - streams(id INTEGER PRIMARY KEY AUTOINCREMENT, kind, done_at): AUTOINCREMENT so a stream
 *   number is never reused — an old Last-Event-ID can never name a newer stream.
 * - events(stream, seq, data) WITHOUT ROWID, primary key (stream, seq): replay is one range
 *   read on the key, never a scan, however many events are stored.
 * - inflight(stream, request_id): requests whose response is not stored yet; after a restart
 *   each gets a stored error response (their work was lost).
 * Event ids are `<stream>_<seq>`: unique across the session, and a cursor within the stream
 * (sessions/replay.ts reads them back from Last-Event-ID).
 * Sequence 0 is the priming event of a 2025-11-25 stream; stored events start at 1.
 */
import type { SessionTables } from "./session-tables";

export interface StoredEvent {
  id: string;
  data: string;
}

export type StreamKind = "post" | "get";

export interface StreamRow {
  id: number;
  kind: StreamKind;
  done: boolean;
}

/** Trimming a stream to its cap is checked every this many appends, not on every one. */
const TRIM_EVERY = 64;
/**
 * The largest event one row can hold: SQLite-backed Durable Objects store at most 2 MB in a
 * string value (Cloudflare's documented limit; beyond it workerd throws SQLITE_TOOBIG).
 */
export const MAX_EVENT_BYTES = 2_000_000;

/** Whether `data` fits in one stored event. UTF-8 takes at most 3 bytes per UTF-16 unit, so most data needs no encoding. */
export function fitsInEvent(data: string): boolean {
  return data.length * 3 <= MAX_EVENT_BYTES || new TextEncoder().encode(data).byteLength <= MAX_EVENT_BYTES;
}

export function formatEventId(stream: number, seq: number): string {
  return `${stream}_${seq}`;
}

/** Where an event id this session could have sent points (`<stream>_<seq>`), or undefined for any other text. */
export function parseEventId(id: string): { stream: number; seq: number } | undefined {
  const m = /^(\d{1,15})_(\d{1,15})$/.exec(id);
  if (!m) return undefined;
  return { stream: Number(m[1]), seq: Number(m[2]) };
}

export class EventLog {
  private readonly nextSeq = new Map<number, number>();
  /**
   * Rows in `streams` and the ids of the finished ones (ascending): read once, then kept in
   * step here (every insert, `done_at` update and delete of `streams` is in this class), so
   * opening a stream at the cap costs no query to find what to trim.
   */
  private streamRows: number | undefined;
  private finishedIds: number[] | undefined;

  constructor(
    private readonly tables: SessionTables,
    private readonly maxEventsPerStream: number,
  ) {}

  private get sql(): SqlStorage {
    return this.tables.sql;
  }

  /** Opens a stream; on a closed log the number is 0, which names no stored stream. */
  openStream(kind: StreamKind): number {
    if (!this.tables.logWritable()) return 0;
    const row = this.sql.exec<{ id: number }>("INSERT INTO streams (kind) VALUES (?) RETURNING id", kind).one();
    this.nextSeq.set(row.id, 1);
    if (this.streamRows !== undefined) this.streamRows++;
    return row.id;
  }

  stream(id: number): StreamRow | undefined {
    if (!this.tables.logReadable()) return undefined;
    const row = this.sql
      .exec<{ id: number; kind: string; done_at: number | null }>("SELECT id, kind, done_at FROM streams WHERE id = ?", id)
      .toArray()[0];
    return row ? { id: row.id, kind: row.kind as StreamKind, done: row.done_at !== null } : undefined;
  }

  markDone(stream: number, now: number): void {
    if (!this.tables.logReadable()) return;
    const changed = this.sql
      .exec("UPDATE streams SET done_at = ? WHERE id = ? AND done_at IS NULL RETURNING id", now, stream)
      .toArray().length;
    const ids = this.finishedIds;
    if (changed === 0 || ids === undefined) return;
    // Streams usually finish in the order they opened: the insertion point is almost always the end.
    let at = ids.length;
    while (at > 0 && (ids[at - 1] as number) > stream) at--;
    ids.splice(at, 0, stream);
  }

  /** Stores one event and returns its id. */
  append(stream: number, data: string): string {
    if (!this.tables.logWritable()) return formatEventId(stream, 0);
    let seq = this.nextSeq.get(stream);
    if (seq === undefined) {
      // The first append since a wake: the next sequence is found by the insert itself (one statement, not two).
      seq = this.sql
        .exec<{ seq: number }>(
          "INSERT INTO events (stream, seq, data) SELECT ?, COALESCE(MAX(seq), 0) + 1, ? FROM events WHERE stream = ? RETURNING seq",
          stream,
          data,
          stream,
        )
        .one().seq;
    } else {
      this.sql.exec("INSERT INTO events (stream, seq, data) VALUES (?, ?, ?)", stream, seq, data);
    }
    this.nextSeq.set(stream, seq + 1);
    if (seq % TRIM_EVERY === 0 && seq > this.maxEventsPerStream) {
      this.sql.exec("DELETE FROM events WHERE stream = ? AND seq <= ?", stream, seq - this.maxEventsPerStream);
    }
    return formatEventId(stream, seq);
  }

  /** The events of one stream after `seq`, oldest first: a range read on the primary key. */
  after(stream: number, seq: number): StoredEvent[] {
    if (!this.tables.logReadable()) return [];
    return this.sql
      .exec<{ seq: number; data: string }>("SELECT seq, data FROM events WHERE stream = ? AND seq > ? ORDER BY seq", stream, seq)
      .toArray()
      .map((row) => ({ id: formatEventId(stream, row.seq), data: row.data }));
  }

  /** The oldest sequence still stored for a stream (events before it were trimmed), if any. */
  firstSeq(stream: number): number | undefined {
    if (!this.tables.logReadable()) return undefined;
    return this.sql.exec<{ m: number | null }>("SELECT MIN(seq) AS m FROM events WHERE stream = ?", stream).one().m ?? undefined;
  }

  /** The newest stream of a kind that is not finished. */
  latestOpen(kind: StreamKind): number | undefined {
    if (!this.tables.logReadable()) return undefined;
    return this.sql
      .exec<{ id: number }>("SELECT id FROM streams WHERE kind = ? AND done_at IS NULL ORDER BY id DESC LIMIT 1", kind)
      .toArray()[0]?.id;
  }

  addInflight(stream: number, requestId: string): void {
    if (!this.tables.logWritable()) return;
    this.sql.exec("INSERT OR REPLACE INTO inflight (stream, request_id) VALUES (?, ?)", stream, requestId);
  }

  removeInflight(stream: number, requestId: string): void {
    if (!this.tables.logReadable()) return;
    this.sql.exec("DELETE FROM inflight WHERE stream = ? AND request_id = ?", stream, requestId);
  }

  inflight(): { stream: number; requestId: string }[] {
    if (!this.tables.logReadable()) return [];
    return this.sql
      .exec<{ stream: number; request_id: string }>("SELECT stream, request_id FROM inflight")
      .toArray()
      .map((r) => ({ stream: r.stream, requestId: r.request_id }));
  }

  hasInflight(stream: number): boolean {
    if (!this.tables.logReadable()) return false;
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM inflight WHERE stream = ?", stream).one().n > 0;
  }

  /** When the earliest stream still kept finished (epoch ms), or undefined when none is. */
  earliestDone(): number | undefined {
    if (!this.tables.logReadable()) return undefined;
    return this.sql.exec<{ t: number | null }>("SELECT MIN(done_at) AS t FROM streams").one().t ?? undefined;
  }

  /** Deletes finished streams (and their events) that finished before `before`; how many. */
  deleteFinishedBefore(before: number): number {
    if (!this.tables.logReadable()) return 0;
    const ids = this.sql
      .exec<{ id: number }>("SELECT id FROM streams WHERE done_at IS NOT NULL AND done_at < ?", before)
      .toArray()
      .map((r) => r.id);
    for (const id of ids) this.deleteStream(id);
    return ids.length;
  }

  /**
   * Oldest finished streams beyond `keep` streams in total are deleted first. Runs whenever a
   * stream opens, so the total is kept in memory rather than counted each time.
   */
  enforceStreamCap(keep: number): void {
    if (!this.tables.logReadable()) return;
    this.streamRows ??= this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM streams").one().n;
    if (this.streamRows <= keep) return;
    this.finishedIds ??= this.sql
      .exec<{ id: number }>("SELECT id FROM streams WHERE done_at IS NOT NULL ORDER BY id")
      .toArray()
      .map((r) => r.id);
    for (const id of this.finishedIds.slice(0, this.streamRows - keep)) this.deleteStream(id);
  }

  private deleteStream(id: number): void {
    this.sql.exec("DELETE FROM events WHERE stream = ?", id);
    const deleted = this.sql.exec("DELETE FROM streams WHERE id = ? RETURNING id", id).toArray().length;
    this.nextSeq.delete(id);
    if (this.streamRows !== undefined) this.streamRows -= deleted;
    const at = this.finishedIds?.indexOf(id) ?? -1;
    if (at >= 0) this.finishedIds?.splice(at, 1);
  }
}
