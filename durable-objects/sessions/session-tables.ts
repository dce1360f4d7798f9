/**
 * The gate of a session object's storage, shared by its record (session-record.ts: state,
 * activity, tombstone in the object's key-value store; subscriptions) and its event log
 * (event-log.ts: streams, events, requests in flight).
 *
 * Nothing is created by a read: an object that only answers "no such session" (a guess, a
 * registry asked about an unknown URI) stores nothing. The record's keys need no table (the
 * key-value store: one billed row per key written, no table to create); the SQL tables come with
 * the first stream or subscription, so a session of simple calls stores only its state. After
 * `close()` (termination) every write is dropped and every read sees nothing, so work still
 * running when a session ends cannot touch storage that is being deleted.
 */

/**
 * Which of the tables a read may need exist: `meta` (where sessions stored their record before it
 * moved to the key-value store; read, never written) and `streams` (the log's). One query for
 * both, since a session that wakes for an event asks about each.
 */
const TABLES_PRESENT = "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('meta', 'streams')";
/** Created by the first stream or subscription: a session of simple calls (most clients) never needs them. */
const LOG_SCHEMA = `
CREATE TABLE IF NOT EXISTS streams (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, done_at INTEGER);
CREATE TABLE IF NOT EXISTS events (stream INTEGER NOT NULL, seq INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (stream, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS inflight (stream INTEGER NOT NULL, request_id TEXT NOT NULL, PRIMARY KEY (stream, request_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS subscriptions (uri TEXT PRIMARY KEY) WITHOUT ROWID;
`;

export class SessionTables {
  /** Whether a `meta` table of an older version exists: undefined until checked once. */
  private legacyMeta: boolean | undefined;
  /** Whether the stream tables (streams, events, inflight, subscriptions) exist: undefined until checked. */
  private logCreated: boolean | undefined;
  private closed = false;

  /** The object's SQL (metered when observed: durable-objects/observe/metered-storage.ts counts its rows). */
  constructor(readonly sql: SqlStorage) {}

  /** Ends the session's storage for good (it is terminated): writes become no-ops, reads see nothing. */
  close(): void {
    this.closed = true;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Whether reads can find anything: the session is open. */
  readable(): boolean {
    return !this.closed;
  }

  /** Whether a write may go ahead. */
  writable(): boolean {
    return !this.closed;
  }

  /** Whether the session's record may still be in a `meta` table (a session started by an older version). */
  hasLegacyMeta(): boolean {
    if (this.closed) return false;
    if (this.legacyMeta === undefined) this.lookUpTables();
    return this.legacyMeta as boolean;
  }

  /** Whether the stream tables exist: a session that never opened a stream or subscribed has none. */
  logReadable(): boolean {
    if (this.closed) return false;
    if (this.logCreated === undefined) this.lookUpTables();
    return this.logCreated as boolean;
  }

  private lookUpTables(): void {
    const names = this.sql.exec<{ name: string }>(TABLES_PRESENT).toArray();
    this.legacyMeta ??= names.some((row) => row.name === "meta");
    this.logCreated ??= names.some((row) => row.name === "streams");
  }

  /** Whether a write to the stream tables may go ahead; creates them on the first one. */
  logWritable(): boolean {
    if (this.closed) return false;
    if (!this.logReadable()) {
      this.sql.exec(LOG_SCHEMA);
      this.logCreated = true;
    }
    return true;
  }
}
