/**
 * The session's record in SQLite: its negotiated state, tombstone, activity time and counters
 * (`meta`, JSON values) and the resources it subscribed to (`subscriptions`). What it streams is
 * the event log's (event-log.ts); both share the tables' gate (session-tables.ts).
 */
import type { SessionTables } from "./session-tables";

export class SessionRecord {
  constructor(private readonly tables: SessionTables) {}

  private get sql(): SqlStorage {
    return this.tables.sql;
  }

  getMeta<T>(key: string): T | undefined {
    if (!this.tables.readable()) return undefined;
    const row = this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0];
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  setMeta(key: string, value: unknown): void {
    if (!this.tables.writable()) return;
    this.sql.exec(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      key,
      JSON.stringify(value),
    );
  }

  subscribe(uri: string): void {
    if (!this.tables.logWritable()) return;
    this.sql.exec("INSERT OR IGNORE INTO subscriptions (uri) VALUES (?)", uri);
  }

  unsubscribe(uri: string): void {
    if (!this.tables.logReadable()) return;
    this.sql.exec("DELETE FROM subscriptions WHERE uri = ?", uri);
  }

  countSubscriptions(): number {
    if (!this.tables.logReadable()) return 0;
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM subscriptions").one().n;
  }

  isSubscribed(uri: string): boolean {
    if (!this.tables.logReadable()) return false;
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM subscriptions WHERE uri = ?", uri).one().n > 0;
  }
}
