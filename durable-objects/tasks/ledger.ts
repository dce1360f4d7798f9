/**
 * The per-client ledger of tasks in flight (its contract: contract.ts): one row per task in
 * flight, its id and when its TTL ends. A task releases its row when it reaches a terminal state
 * or expires; a row whose task vanished without releasing (a lost object) stops counting at that
 * task's expiry, so the cap never locks a client out for longer than a task may live. An empty
 * ledger deletes its storage; the alarm at the last expiry finds every row expired and deletes the
 * rest (the task class's alarm: an object without a task record deletes its storage).
 */

export class ClientLedger {
  private ready = false;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly now: () => number = Date.now,
  ) {}

  private ensureTable(): void {
    if (this.ready) return;
    this.storage.sql.exec("CREATE TABLE IF NOT EXISTS ledger (task_id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL)");
    this.ready = true;
  }

  /** Holds `taskId` unless `limit` tasks are in flight already; expired rows are dropped first. */
  async reserve(taskId: string, limit: number, expiresAt: number): Promise<boolean> {
    this.ensureTable();
    const sql = this.storage.sql;
    sql.exec("DELETE FROM ledger WHERE expires_at <= ?", this.now());
    const held = sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM ledger").one().n;
    if (held >= limit) return false;
    sql.exec("INSERT OR REPLACE INTO ledger (task_id, expires_at) VALUES (?, ?)", taskId, expiresAt);
    // The alarm at the last expiry finds every row expired and deletes the ledger (see the head of this file).
    const last = sql.exec<{ at: number }>("SELECT MAX(expires_at) AS at FROM ledger").one().at;
    if (((await this.storage.getAlarm()) ?? 0) < last) await this.storage.setAlarm(last);
    return true;
  }

  async release(taskId: string): Promise<void> {
    this.ensureTable();
    const sql = this.storage.sql;
    sql.exec("DELETE FROM ledger WHERE task_id = ? OR expires_at <= ?", taskId, this.now());
    if (sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM ledger").one().n === 0) {
      this.ready = false;
      await this.storage.deleteAll();
    }
  }
}
