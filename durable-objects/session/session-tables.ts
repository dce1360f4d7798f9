/**
 * The gate of a session object's SQLite tables, shared by its record (session-record.ts: state,
 * counters, subscriptions) and its event log (event-log.ts: streams, events, requests in flight).
 *
 * The tables are created by the first write, never by a read: an object that only answers "no
 * such session" (a guess, a registry asked about an unknown URI) stores nothing. `meta` comes with
 * `initialize`; the others with the first stream or subscription, so a session of simple calls (a
 * client that initializes before every call) stores only its state. After `close()` (termination)
 * every write is dropped and every read sees nothing, so work still running when a session ends
 * cannot touch storage that is being deleted.
 */

/** WITHOUT ROWID: a row is one write (with a rowid, each insert also writes its key's index: two billed rows). */
const META_SCHEMA = "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;";
/** Created by the first stream or subscription: a session of simple calls (most clients) never needs them. */
const LOG_SCHEMA = `
CREATE TABLE IF NOT EXISTS streams (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, done_at INTEGER);
CREATE TABLE IF NOT EXISTS events (stream INTEGER NOT NULL, seq INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (stream, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS inflight (stream INTEGER NOT NULL, request_id TEXT NOT NULL, PRIMARY KEY (stream, request_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS subscriptions (uri TEXT PRIMARY KEY) WITHOUT ROWID;
`;

export class SessionTables {
  /** Whether `meta` exists: undefined until checked once (a read of sqlite_master, which stores nothing). */
  private created: boolean | undefined;
  /** Whether the stream tables (streams, events, inflight, subscriptions) exist: undefined until checked. */
  private logCreated: boolean | undefined;
  private closed = false;

  constructor(readonly sql: SqlStorage) {}

  /** Ends the session's storage for good (it is terminated): writes become no-ops, reads see nothing. */
  close(): void {
    this.closed = true;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Whether reads can find anything: the session is open and its `meta` table exists. */
  readable(): boolean {
    if (this.closed) return false;
    this.created ??= this.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").toArray().length > 0;
    return this.created;
  }

  /** Whether a write may go ahead; creates the meta table on the first one. */
  writable(): boolean {
    if (this.closed) return false;
    if (!this.readable()) {
      this.sql.exec(META_SCHEMA);
      this.created = true;
    }
    return true;
  }

  /** Whether the stream tables exist: a session that never opened a stream or subscribed has none. */
  logReadable(): boolean {
    if (!this.readable()) return false;
    this.logCreated ??= this.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'streams'").toArray().length > 0;
    return this.logCreated;
  }

  /** Whether a write to the stream tables may go ahead; creates them on the first one. */
  logWritable(): boolean {
    if (!this.writable()) return false;
    if (!this.logReadable()) {
      this.sql.exec(LOG_SCHEMA);
      this.logCreated = true;
    }
    return true;
  }
}
