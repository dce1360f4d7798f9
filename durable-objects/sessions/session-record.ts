/**
 * The session's record: its negotiated state, tombstone and activity time (RecordKeys), written
 * one way: to the object's key-value store (one billed row per key written, no table to create);
 * a session of an older version may still hold them in a `meta` table, read as a fallback, never written) and the resources it subscribed to
 * (`subscriptions`, SQLite). What it streams is the event log's (event-log.ts); both share the
 * storage's gate (session-tables.ts).
 */
import type { SessionState } from "../../src/mcp/definition/context";
import type { SessionTables } from "./session-tables";

/** What the record stores under `state`: the negotiated state, and beside it what only the object reads. */
export interface StoredState extends SessionState {
  /** When the session began in its object (epoch ms; absent in sessions older than it): SessionCore.startedAt. */
  startedAt?: number;
  /** A deferred session's: the SHA-256 of its Mcp-Session-Id, base64url (SessionCore.sealHash). */
  sealHash?: string;
}

/** Every key of the record and what it holds: the only things a session writes outside its tables. */
export interface RecordKeys {
  /** The negotiated state with the session's start (SessionCore.saveState writes it: `initialize`, then each change). */
  state: StoredState;
  /** The tombstone of a terminated session (DELETE): written before its storage goes; a deferred session's holds the time it must stay until. */
  terminated: boolean | number;
  /** The last activity, written at most every 30 s (SessionCore.touch). */
  last_active: number;
  /** The 2024-11-05 transport (legacy-transport.ts): its one stream, and the principal that opened it. */
  legacy_stream: number;
  legacy_subject: string;
  /** The subject this session registered with the hub at its first held stream, so revoking that grant ends its streams (src/revoke.ts). */
  hub_subject: string;
}

export class SessionRecord {
  constructor(
    private readonly tables: SessionTables,
    /** The object's key-value store (one billed row per key written, counted by its metered storage when observed). */
    private readonly kv: SyncKvStorage,
  ) {}

  private get sql(): SqlStorage {
    return this.tables.sql;
  }

  getMeta<K extends keyof RecordKeys>(key: K): RecordKeys[K] | undefined {
    if (!this.tables.readable()) return undefined;
    const value = this.kv.get<RecordKeys[K]>(key);
    if (value !== undefined || !this.tables.hasLegacyMeta()) return value;
    const row = this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0];
    return row ? (JSON.parse(row.value) as RecordKeys[K]) : undefined;
  }

  setMeta<K extends keyof RecordKeys>(key: K, value: RecordKeys[K]): void {
    if (!this.tables.writable()) return;
    this.kv.put(key, value);
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
    return this.sql.exec("SELECT 1 FROM subscriptions WHERE uri = ?", uri).toArray().length > 0;
  }
}
