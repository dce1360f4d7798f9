/**
 * How every object is addressed: a session or task id is the string form of the object id the
 * namespace minted; a hub shard, a client's task ledger and a principal's store are named, so
 * every Worker finds the same object. The Worker, the core's seams and the objects all use these.
 */

const MINTED_ID_PATTERN = /^[0-9a-f]{64}$/;

/**
 * Mcp-Session-Id values (and task ids): 64 lower-case hex characters (visible ASCII, as
 * 2025-06-18 requires). A value that is not of that shape is refused without touching any
 * object; one that is but was not minted by this namespace makes `idFromString` throw, also
 * without waking an object.
 */
export function isWellFormedSessionId(value: string): boolean {
  return MINTED_ID_PATTERN.test(value);
}

/** The object id for a session id (or a task id), or undefined when the id is malformed or forged. */
export function sessionObjectId(namespace: { idFromString(id: string): DurableObjectId }, value: string): DurableObjectId | undefined {
  if (!isWellFormedSessionId(value)) return undefined;
  try {
    return namespace.idFromString(value);
  } catch {
    return undefined;
  }
}

/** The object id for a task id (minted by the task namespace, like a session id), or undefined when malformed or forged. */
export function taskObjectId(namespace: { idFromString(id: string): DurableObjectId }, taskId: string): DurableObjectId | undefined {
  return sessionObjectId(namespace, taskId);
}

/** Every server has one hub (of `listen.shards` objects) unless it names others (docs/hub.md "Subscriptions and the hub"). */
export const DEFAULT_HUB_SHARD = "default";

/** Hub objects a hub spreads over unless `listen.shards` says otherwise: 16 × 1,000 streams each. */
export const DEFAULT_HUB_SHARDS = 16;

/**
 * The object of one shard of a hub. A name, not a minted id: every Worker must find the same
 * objects. Shard 0 keeps the unsharded name, so a hub of one shard is the hub it always was.
 */
export function hubObjectId(
  namespace: { idFromName(name: string): DurableObjectId },
  shard: string = DEFAULT_HUB_SHARD,
  index = 0,
): DurableObjectId {
  return namespace.idFromName(index === 0 ? "hub:" + shard : `hub:${shard}#${index}`);
}

/** FNV-1a over a string: a stable, even spread of keys over shards (not a security boundary). */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The shard that holds a key's registrations or streams: the same on every Worker. */
export function shardOf(key: string, shards: number): number {
  return shards <= 1 ? 0 : hash(key) % shards;
}

/** A 2025-era session's registration: a resource URI it subscribed to, list changes, or its principal's subject (its streams end when that grant is revoked). */
export type HubTopic = { uri: string } | { lists: true } | { subject: string };

/** The shard a 2025-era session's registration lives on: by resource URI, by subject, list changes by session. */
export function registrationShard(sessionId: string, topic: HubTopic, shards: number): number {
  if ("subject" in topic) return shardOf("subject:" + topic.subject, shards);
  return shardOf("uri" in topic ? "uri:" + topic.uri : "session:" + sessionId, shards);
}

/** The name of the ledger object of a client key (the key is `sub:…` or `ip:…`, src/http/client-key.ts): a role of the task class. */
function ledgerName(clientKey: string): string {
  return `mcp-edge:tasks-in-flight:${clientKey}`;
}

/** The task ledger object of a client key. */
export function ledgerObjectId(namespace: { idFromName(name: string): DurableObjectId }, clientKey: string): DurableObjectId {
  return namespace.idFromName(ledgerName(clientKey));
}

/** The object of a principal's store. A name, not a minted id: every Worker must find the same object. */
export function userObjectId(namespace: { idFromName(name: string): DurableObjectId }, subject: string): DurableObjectId {
  return namespace.idFromName("user:" + subject);
}
