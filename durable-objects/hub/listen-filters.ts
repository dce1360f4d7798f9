/**
 * Listen filters too large for their socket's attachment (rare: many URIs or task ids on one
 * stream), kept in the shard's SQLite under the stream's number until the stream ends. Key layout:
 * `hub_listen_filters (stream INTEGER PRIMARY KEY, filter TEXT)`; the table exists only while it
 * holds a row, so a shard without such a stream stores nothing.
 */
import type { ListenFilter } from "./contract";

export class StoredFilters {
  /** The shard's storage (metered when observed: durable-objects/observe/metered-storage.ts). */
  constructor(private readonly storage: DurableObjectStorage) {}

  store(stream: number, filter: ListenFilter): void {
    const sql = this.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS hub_listen_filters (stream INTEGER PRIMARY KEY, filter TEXT NOT NULL)");
    sql.exec("INSERT OR REPLACE INTO hub_listen_filters (stream, filter) VALUES (?, ?)", stream, JSON.stringify(filter));
  }

  read(stream: number): ListenFilter | undefined {
    if (!this.hasTable()) return undefined;
    const row = this.storage.sql.exec<{ filter: string }>("SELECT filter FROM hub_listen_filters WHERE stream = ?", stream).toArray()[0];
    return row ? (JSON.parse(row.filter) as ListenFilter) : undefined;
  }

  /** The stream ended: its row goes, and the table with its last row. */
  drop(stream: number): void {
    if (!this.hasTable()) return;
    const sql = this.storage.sql;
    sql.exec("DELETE FROM hub_listen_filters WHERE stream = ?", stream);
    if (sql.exec("SELECT 1 FROM hub_listen_filters LIMIT 1").toArray().length === 0) sql.exec("DROP TABLE hub_listen_filters");
  }

  private hasTable(): boolean {
    return this.storage.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'hub_listen_filters'").toArray().length > 0;
  }
}
