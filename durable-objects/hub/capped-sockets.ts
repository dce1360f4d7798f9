/**
 * A hub shard's held sockets (durable-objects/kit/held-sockets.ts), with the checks made on every
 * open and every delivery, and the tag a client's sockets carry (the per-client cap is counted
 * from it, never from memory). Here, not in HeldSockets, so a session object carries none of it.
 */
import { HeldSockets } from "../kit/held-sockets";

/** Tags are at most 256 characters: a longer client key is tagged by its hash. */
const MAX_TAG_KEY = 200;

/**
 * The checks read the runtime's tagged list and look at a socket's own tags and state only when that
 * list alone cannot answer (filtering every socket on each open made opening n streams on one shard
 * cost n² tag reads: half of the isolate's CPU profile while 9,500 streams opened over 16 shards in
 * one local process).
 */
export class CappedSockets<A extends object> extends HeldSockets<A> {
  /**
   * Whether at least `limit` open sockets carry `tag` too, the same answer as `count(tag) >= limit`:
   * the runtime's list of the tag is a bound from above (it may hold closing sockets, and another
   * registry's), so below `limit` it answers alone.
   */
  reaches(limit: number, tag?: string): boolean {
    const tagged = this.ctx.getWebSockets(tag ?? this.kind);
    if (tagged.length < limit) return false;
    let open = 0;
    for (const ws of tagged) if (this.isOpen(ws) && ++open >= limit) return true;
    return false;
  }

  /** Whether any socket is open (`count() > 0`, stopping at the first). */
  any(): boolean {
    return this.ctx.getWebSockets(this.kind).some((ws) => this.isOpen(ws));
  }

  private isOpen(ws: WebSocket): boolean {
    return ws.readyState === WebSocket.OPEN && this.owns(ws);
  }
}

/** The tag a client's sockets carry (a long key by its hash: tags hold at most 256 characters). */
export function clientTag(client: string): string {
  return `c:${client.length <= MAX_TAG_KEY ? client : `#${fnv(client)}`}`;
}

function fnv(key: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36) + key.length.toString(36);
}
