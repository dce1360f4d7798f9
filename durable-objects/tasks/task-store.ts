/**
 * A task object's storage (SQLite): the task record, and the server-to-client requests its
 * handler made with their answers. Every write is synchronous and lands before the object's
 * next output, so what a response reports is stored.
 *
 * Keys: `task_record` holds one row (`id = 1`, the TaskRecord as JSON). `task_ask` holds one row
 * per ask, by `position` = the ask's call order within a run (so a resumed run meets its
 * earlier asks, and their answers, at the same positions); `key` is the `inputRequests` key,
 * unique over the task's lifetime; `answer` is null while outstanding.
 *
 * With a `meter` (only when the server is observed) every write adds the bytes of the JSON it
 * stored; its rows are counted by the object's metered storage (durable-objects/observe/metered-storage.ts).
 */
import type { InputRequest, TaskRecord } from "./model";
import type { Meter } from "../../src/mcp/operations/observe";

export interface AskRow {
  position: number;
  key: string;
  method: string;
  params: string;
  answer: string | null;
}

export class TaskStore {
  /** Tables are created by the first write only: reading an expired or unknown task leaves no storage behind. */
  private ready: boolean;
  /** Where writes are counted: the current run's meter (the task object sets it when observed). */
  meter: Meter | undefined;

  constructor(private readonly sql: SqlStorage) {
    this.ready = sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'task_record'").toArray().length > 0;
  }

  private ensureTables(): void {
    if (this.ready) return;
    this.sql.exec("CREATE TABLE IF NOT EXISTS task_record (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL)");
    this.sql.exec(
      "CREATE TABLE IF NOT EXISTS task_ask (position INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, method TEXT NOT NULL, params TEXT NOT NULL, answer TEXT)",
    );
    this.ready = true;
  }

  /** Counts `bytes` of JSON stored, when metered. */
  private stored(bytes: number): void {
    if (this.meter) this.meter.bytesWritten += bytes;
  }

  /** After deleteAll: the tables are gone. */
  forget(): void {
    this.ready = false;
  }

  record(): TaskRecord | undefined {
    if (!this.ready) return undefined;
    const row = this.sql.exec<{ json: string }>("SELECT json FROM task_record WHERE id = 1").toArray()[0];
    return row ? (JSON.parse(row.json) as TaskRecord) : undefined;
  }

  putRecord(record: TaskRecord): void {
    this.ensureTables();
    const json = JSON.stringify(record);
    this.sql.exec("INSERT OR REPLACE INTO task_record (id, json) VALUES (1, ?)", json);
    this.stored(json.length);
  }

  askAt(position: number): AskRow | undefined {
    if (!this.ready) return undefined;
    return this.sql
      .exec<Record<string, SqlStorageValue>>("SELECT position, key, method, params, answer FROM task_ask WHERE position = ?", position)
      .toArray()[0] as AskRow | undefined;
  }

  addAsk(position: number, key: string, method: string, params: string): void {
    this.ensureTables();
    this.sql.exec("INSERT INTO task_ask (position, key, method, params, answer) VALUES (?, ?, ?, ?, NULL)", position, key, method, params);
    this.stored(params.length);
  }

  /** A resumed run asked something else at `position`: that ask and every later one are superseded. */
  dropFrom(position: number): void {
    if (!this.ready) return;
    this.sql.exec("DELETE FROM task_ask WHERE position >= ?", position);
  }

  /** Stores the answer of an outstanding ask; false when `key` is unknown or already answered. */
  answer(key: string, answer: string): boolean {
    if (!this.ready) return false;
    const cursor = this.sql.exec("UPDATE task_ask SET answer = ? WHERE key = ? AND answer IS NULL", answer, key);
    this.stored(answer.length);
    return cursor.rowsWritten > 0;
  }

  /** Every outstanding ask as `inputRequests` (key -> request). */
  outstanding(): Record<string, InputRequest> {
    const out: Record<string, InputRequest> = {};
    if (!this.ready) return out;
    for (const row of this.sql.exec<{ key: string; method: string; params: string }>(
      "SELECT key, method, params FROM task_ask WHERE answer IS NULL ORDER BY position",
    )) {
      out[row.key] = { method: row.method, params: JSON.parse(row.params) as Record<string, unknown> };
    }
    return out;
  }

  /** UTF-8 bytes of every stored ask and answer (the record is counted by its caller, which holds it). */
  askBytes(): number {
    if (!this.ready) return 0;
    return (
      this.sql
        .exec<{ n: number | null }>(
          "SELECT SUM(length(CAST(params AS BLOB)) + COALESCE(length(CAST(answer AS BLOB)), 0)) AS n FROM task_ask",
        )
        .one().n ?? 0
    );
  }

  /** Outstanding asks no live run is waiting for any more (a run ended): they stop being outstanding. */
  dropOutstanding(): void {
    if (!this.ready) return;
    this.sql.exec("DELETE FROM task_ask WHERE answer IS NULL");
  }
}
