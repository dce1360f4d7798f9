/**
 * The hub's only persistent state: which 2025-era sessions registered for what (a resource
 * URI they subscribed to, or list changes). Nothing else creates storage: the table is made
 * by the first registration, lookups and removals on a hub without it read nothing, and the
 * whole database is deleted when the last registration goes (issue: no storage created by a
 * request that cannot create data); with other state beside it (shard 0's active shards), only its table.
 *
 * Layout: hub_registrations(topic TEXT, session_id TEXT, PRIMARY KEY (topic, session_id))
 * WITHOUT ROWID, topic = "uri:<uri>", "lists" or "subject:<subject>" (a session whose principal's
 * streams end when its grant is revoked: src/platform/end-streams.ts); an index on session_id so a terminated
 * session is forgotten with one statement.
 */
import type { HubTopic } from "../../src/platform/addresses";

const TABLE = "hub_registrations";
const SCHEMA = `CREATE TABLE IF NOT EXISTS ${TABLE} (topic TEXT NOT NULL, session_id TEXT NOT NULL, PRIMARY KEY (topic, session_id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ${TABLE}_by_session ON ${TABLE} (session_id);`;

export function topicKey(topic: HubTopic): string {
  if ("subject" in topic) return "subject:" + topic.subject;
  return "uri" in topic ? "uri:" + topic.uri : "lists";
}

export class Registrations {
  /** Whether the table exists: undefined until checked once in this object's lifetime. */
  private present: boolean | undefined;

  constructor(private readonly storage: DurableObjectStorage) {}

  add(topic: string, sessionId: string): void {
    if (!this.exists()) {
      this.storage.sql.exec(SCHEMA);
      this.present = true;
    }
    this.storage.sql.exec(`INSERT OR IGNORE INTO ${TABLE} (topic, session_id) VALUES (?, ?)`, topic, sessionId);
  }

  /** Whether any session is registered for anything (the table exists only while one is). */
  any(): boolean {
    return this.exists();
  }

  sessions(topic: string): string[] {
    if (!this.exists()) return [];
    return this.storage.sql
      .exec<{ session_id: string }>(`SELECT session_id FROM ${TABLE} WHERE topic = ?`, topic)
      .toArray()
      .map((r) => r.session_id);
  }

  /** Removes one registration; deletes all storage when it was the last. */
  async remove(topic: string, sessionId: string): Promise<void> {
    if (!this.exists()) return;
    this.storage.sql.exec(`DELETE FROM ${TABLE} WHERE topic = ? AND session_id = ?`, topic, sessionId);
    await this.dropIfEmpty();
  }

  /** Removes every registration of a session (it was terminated or expired). */
  async forget(sessionId: string): Promise<void> {
    if (!this.exists()) return;
    this.storage.sql.exec(`DELETE FROM ${TABLE} WHERE session_id = ?`, sessionId);
    await this.dropIfEmpty();
  }

  async removeMany(topic: string, sessionIds: string[]): Promise<void> {
    if (!this.exists() || sessionIds.length === 0) return;
    for (const id of sessionIds) this.storage.sql.exec(`DELETE FROM ${TABLE} WHERE topic = ? AND session_id = ?`, topic, id);
    await this.dropIfEmpty();
  }

  private exists(): boolean {
    this.present ??=
      this.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?", TABLE).one().n > 0;
    return this.present;
  }

  private async dropIfEmpty(): Promise<void> {
    const left = this.storage.sql.exec<{ n: number }>(`SELECT EXISTS (SELECT 1 FROM ${TABLE}) AS n`).one().n;
    if (left !== 0) return;
    this.present = false;
    // Only this table goes while the shard keeps other state (shard 0's list of active shards, a
    // stored listen filter); with nothing else left, the whole database.
    const sql = this.storage.sql;
    sql.exec(`DROP TABLE ${TABLE}`);
    const others = sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name LIKE 'hub_%' LIMIT 1").toArray().length;
    if (others === 0) await this.storage.deleteAll();
  }
}
