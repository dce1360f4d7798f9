/**
 * Who subscribed to a resource, across sessions. Each URI has its own registry object in the
 * session namespace, addressed by name (`registryObjectId`), so subscriptions to different
 * resources never contend. A named object can never be a session: sessions are only created
 * from `newUniqueId()`, and a registry object is never initialised, so a session request that
 * reaches one gets 404. The registry only holds session ids; whether a session still exists
 * is the session's own answer, asked at fan-out time.
 *
 * Layout: registry_subscribers(session_id TEXT PRIMARY KEY) WITHOUT ROWID, created by the first
 * `add` (a real subscription) and never by a read or a remove: asking about a URI no one
 * subscribed to stores nothing. The owning object deletes its storage once the table is empty.
 */

const SCHEMA = "CREATE TABLE IF NOT EXISTS registry_subscribers (session_id TEXT PRIMARY KEY) WITHOUT ROWID;";
const NAME_PREFIX = "mcp-edge:resource:";

export type UpdateDelivery = "sent" | "no-stream" | "not-subscribed" | "gone";
export type ListKind = "tools" | "resources" | "prompts";
/** What a registry fans out: a resource URI's update (a string), or a list change. */
export type RegistryEvent = { list: ListKind };

const LIST_CHANGED_NAME = "mcp-edge:list-changed";

/** The registry object of all sessions of a server that declares listChanged. */
export function listChangedRegistryId(namespace: { idFromName(name: string): DurableObjectId }): DurableObjectId {
  return namespace.idFromName(LIST_CHANGED_NAME);
}

/** The registry object of one resource URI. */
export function registryObjectId(namespace: { idFromName(name: string): DurableObjectId }, uri: string): DurableObjectId {
  return namespace.idFromName(NAME_PREFIX + uri);
}

export class ResourceRegistry {
  private created: boolean | undefined;

  constructor(private readonly sql: SqlStorage) {}

  private exists(): boolean {
    this.created ??= this.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'registry_subscribers'").toArray().length > 0;
    return this.created;
  }

  add(sessionId: string): void {
    if (!this.exists()) {
      this.sql.exec(SCHEMA);
      this.created = true;
    }
    this.sql.exec("INSERT OR IGNORE INTO registry_subscribers (session_id) VALUES (?)", sessionId);
  }

  remove(sessionId: string): void {
    if (!this.exists()) return;
    this.sql.exec("DELETE FROM registry_subscribers WHERE session_id = ?", sessionId);
  }

  /** Whether the registry has stored something that is now empty (its storage can go). */
  isStoredEmpty(): boolean {
    return this.exists() && this.sessions().length === 0;
  }

  sessions(): string[] {
    if (!this.exists()) return [];
    return this.sql.exec<{ session_id: string }>("SELECT session_id FROM registry_subscribers").toArray().map((r) => r.session_id);
  }
}
