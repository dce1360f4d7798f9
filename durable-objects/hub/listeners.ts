/**
 * The hub's 2026-07-28 listen streams. Each is held by the Worker invocation that answered the
 * client (src/platform/held-stream.ts: keep-alives, the byte bound, the `complete` result at its
 * end) and reaches this shard as a hibernatable WebSocket (durable-objects/shared/held-sockets.ts),
 * so a shard whose streams are idle sleeps. What survives a sleep lives on the socket: tags for
 * the kind and the client (the per-client cap is counted from them, never from memory), and an
 * attachment with the listen request's id, subject and filter (a filter too large for an
 * attachment is stored in `hub_listen_filters` under the stream's number until the stream ends).
 * Owns the order on each stream: the acknowledgement first, then only the notifications its
 * honoured filter names, each with the subscription id in `_meta`. An index by URI and task id is
 * rebuilt from the sockets after a wake, so an update touches only its own streams.
 */
import { sseEventText } from "../../src/wire/sse";
import type { RequestId } from "../../src/jsonrpc/messages";
import { HeldSockets } from "../shared/held-sockets";

/**
 * A hub shard's held sockets, with the checks made on every open and every delivery: they read the
 * runtime's tagged list and look at a socket's own tags and state only when that list alone cannot
 * answer (filtering every socket on each open made opening n streams on one shard cost n² tag
 * reads: half of the isolate's CPU profile while 9,500 streams opened over 16 shards in one local
 * process). Here, not in HeldSockets, so a session object carries none of it.
 */
class CappedSockets<A extends object> extends HeldSockets<A> {
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
import { SUBSCRIPTION_ID_KEY, type ListenFilter, type ListenOpen, type PublishEvent } from "./contract";

/**
 * A socket attachment holds at most 16,384 bytes (workerd), and the Worker bounds what else it holds
 * (the request's id, the subject, the route key: src/features/hub/listen.ts); a filter whose JSON is
 * longer than this, or that does not fit beside them, is stored instead.
 */
const MAX_ATTACHED_FILTER = 1_500;
/** Tags are at most 256 characters: a longer client key is tagged by its hash. */
const MAX_TAG_KEY = 200;

interface Attached {
  id: RequestId;
  subject?: string;
  /** The route key it was opened on (absent for a literal path). */
  route?: string;
  /** When the stream's authorization ends (RFC 3339), said in the acknowledgement. */
  authorizedUntil?: string;
  /** The filter itself, or absent when it is stored (hub_listen_filters). */
  filter?: ListenFilter;
}

interface Listener {
  stream: number;
  id: RequestId;
  filter: ListenFilter;
  subject: string | undefined;
  /** The route key it was opened on ("" for a literal path). */
  route: string;
}

export type OpenOutcome =
  | { ok: true; response: Response }
  | { ok: false; reason: "limit"; limit: number }
  | { ok: false; reason: "client-limit"; limit: number };

export class ListenStreams {
  private readonly held: CappedSockets<Attached>;
  /** The listeners by socket, rebuilt from the sockets after a wake (undefined until needed). */
  private index: Map<WebSocket, Listener> | undefined;
  private readonly byUri = new Map<string, Set<WebSocket>>();
  private readonly byTask = new Map<string, Set<WebSocket>>();

  constructor(
    ctx: DurableObjectState,
    /** The shard's storage (metered when observed: hub/billing.ts). */
    private readonly storage: DurableObjectStorage = ctx.storage,
  ) {
    this.held = new CappedSockets(ctx, "listen");
  }

  /**
   * Opens a stream (its socket counts against the caps at once); its filter is the Worker's first
   * message on the socket (filtered), which the acknowledgement answers: nothing can precede it.
   */
  async open(request: ListenOpen): Promise<OpenOutcome> {
    const client = clientTag(request.client ?? "ip:unknown");
    const maxPerClient = request.maxPerClient ?? Number.POSITIVE_INFINITY;
    const clientFull = this.held.reaches(maxPerClient, client);
    // Each check reads the runtime's list of a tag (HeldSockets.reaches): below both caps, once each.
    if (clientFull || this.held.reaches(request.maxStreams)) {
      // At a cap, first find the streams whose client left without a word (their Worker answers a probe).
      if (clientFull) await this.probe(this.held.sockets(client));
      if (this.held.reaches(request.maxStreams)) await this.probe(this.held.sockets());
      // Counted again after the probes' await: the check and the accept below run without a gap.
      if (this.held.reaches(request.maxStreams)) return { ok: false, reason: "limit", limit: request.maxStreams };
      if (this.held.reaches(maxPerClient, client)) return { ok: false, reason: "client-limit", limit: maxPerClient };
    }
    const attached: Attached = { id: request.id };
    if (request.subject !== undefined) attached.subject = request.subject;
    if (request.route) attached.route = request.route;
    if (request.authorizedUntil !== undefined) attached.authorizedUntil = request.authorizedUntil;
    const { response } = this.held.open(newStreamNumber(), attached, [client]);
    return { ok: true, response };
  }

  /** The stream's filter arrived (the socket's first message): from now on it is delivered to, after its acknowledgement. */
  private filtered(socket: WebSocket, filter: ListenFilter): void {
    const attached = this.held.attachment(socket);
    if (attached.filter || this.listeners().has(socket)) return;
    if (!(JSON.stringify(filter).length <= MAX_ATTACHED_FILTER && attach(socket, { ...attached, filter })))
      this.storeFilter(attached.stream, filter);
    const params: Record<string, unknown> = { _meta: { [SUBSCRIPTION_ID_KEY]: attached.id }, notifications: filter };
    // The draft "Authorization Lifetime for Subscription Streams": the time the stream ends with its token.
    if (attached.authorizedUntil !== undefined) params.authorizedUntil = attached.authorizedUntil;
    socket.send(sseEventText(JSON.stringify({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params })));
    this.add(socket, { stream: attached.stream, id: attached.id, filter, subject: attached.subject, route: attached.route ?? "" });
  }

  /**
   * Sends the event to every stream that opted in to it; returns how many. The frame differs
   * between streams only by the listen request's id (the subscription id), so it is encoded
   * once per distinct id, not once per stream.
   */
  deliver(event: PublishEvent): number {
    if (event.type === "authorizationEnded") return this.revoke(event.subject);
    let sent = 0;
    const frames = new Map<RequestId, string>();
    for (const socket of this.targets(event)) {
      const listener = this.listeners().get(socket);
      if (!listener || socket.readyState !== WebSocket.OPEN) {
        this.ended(socket);
        continue;
      }
      if (!wants(event, listener)) continue;
      let frame = frames.get(listener.id);
      if (!frame) {
        frame = sseEventText(JSON.stringify(toNotification(event, listener.id)));
        frames.set(listener.id, frame);
      }
      try {
        socket.send(frame);
        sent++;
      } catch {
        this.ended(socket);
      }
    }
    return sent;
  }

  /** The grant of `subject` was revoked: the Worker holding each of its streams ends it (HELD_REVOKED). */
  private revoke(subject: string): number {
    let told = 0;
    for (const [socket, listener] of this.listeners()) {
      if (listener.subject !== subject || socket.readyState !== WebSocket.OPEN) continue;
      if (this.held.revoke(socket)) told++;
    }
    return told;
  }

  /** Sends a batch, in order (the Worker holding each stream bounds a client that falls behind). */
  async deliverBatch(events: PublishEvent[]): Promise<number[]> {
    return events.map((event) => this.deliver(event));
  }

  /** Ends every stream gracefully: each Worker writes the listen request's `complete` result, then closes. */
  closeAll(): number {
    const closed = this.held.closeAll("the server closed its listen streams");
    for (const socket of [...this.listeners().keys()]) this.ended(socket);
    return closed;
  }

  count(): number {
    return this.held.count();
  }

  /** Whether any stream is open (checked after every delivery: stops at the first socket). */
  any(): boolean {
    return this.held.any();
  }

  /** Open streams of one client (its clientKey). */
  countOf(client: string): number {
    return this.held.count(clientTag(client));
  }

  /** Whether a socket is one of these streams (the hub's webSocket handlers ask). */
  owns(socket: WebSocket): boolean {
    return this.held.owns(socket);
  }

  /** A message from the Worker: the stream's filter (its first), or a probe's answer. */
  received(socket: WebSocket, message: string | ArrayBuffer): void {
    if (typeof message === "string" && message.startsWith("{")) this.filtered(socket, JSON.parse(message) as ListenFilter);
    else this.held.received(socket, message);
  }

  /** The socket closed (client left, stream ended, Worker gone): its slot and stored filter go. */
  ended(socket: WebSocket): void {
    const listener = this.index?.get(socket) ?? this.fromSocket(socket);
    this.held.ended(socket);
    if (!listener) return;
    this.index?.delete(socket);
    for (const uri of listener.filter.resourceSubscriptions ?? []) indexRemove(this.byUri, uri, socket);
    for (const task of listener.filter.taskIds ?? []) indexRemove(this.byTask, task, socket);
    if (!this.held.attachment(socket).filter) this.dropFilter(listener.stream);
  }

  private async probe(sockets: WebSocket[]): Promise<void> {
    await Promise.all(sockets.map((socket) => this.held.probe(socket)));
  }

  /** The listeners of the open sockets: after a wake, read once from their attachments. */
  private listeners(): Map<WebSocket, Listener> {
    if (this.index) return this.index;
    this.index = new Map();
    for (const socket of this.held.sockets()) {
      const listener = this.fromSocket(socket);
      if (listener) this.add(socket, listener);
    }
    return this.index;
  }

  private fromSocket(socket: WebSocket): Listener | undefined {
    const attached = this.held.attachment(socket);
    const filter = attached.filter ?? this.storedFilter(attached.stream);
    if (!filter) return undefined;
    return { stream: attached.stream, id: attached.id, filter, subject: attached.subject, route: attached.route ?? "" };
  }

  private add(socket: WebSocket, listener: Listener): void {
    const index = this.listeners();
    index.set(socket, listener);
    for (const uri of listener.filter.resourceSubscriptions ?? []) indexAdd(this.byUri, uri, socket);
    for (const task of listener.filter.taskIds ?? []) indexAdd(this.byTask, task, socket);
  }

  private targets(event: Exclude<PublishEvent, { type: "authorizationEnded" }>): WebSocket[] {
    const index = this.listeners();
    switch (event.type) {
      case "resourceUpdated":
        return [...(this.byUri.get(event.uri) ?? [])];
      case "taskStatus":
        return [...(this.byTask.get(event.task.taskId) ?? [])];
      case "listChanged":
        return [...index.keys()];
    }
  }

  // ---- filters too large for an attachment (rare: many URIs or task ids on one stream) ----------

  private storeFilter(stream: number, filter: ListenFilter): void {
    const sql = this.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS hub_listen_filters (stream INTEGER PRIMARY KEY, filter TEXT NOT NULL)");
    sql.exec("INSERT OR REPLACE INTO hub_listen_filters (stream, filter) VALUES (?, ?)", stream, JSON.stringify(filter));
  }

  private storedFilter(stream: number): ListenFilter | undefined {
    if (!this.hasFilterTable()) return undefined;
    const row = this.storage.sql.exec<{ filter: string }>("SELECT filter FROM hub_listen_filters WHERE stream = ?", stream).toArray()[0];
    return row ? (JSON.parse(row.filter) as ListenFilter) : undefined;
  }

  private dropFilter(stream: number): void {
    if (!this.hasFilterTable()) return;
    const sql = this.storage.sql;
    sql.exec("DELETE FROM hub_listen_filters WHERE stream = ?", stream);
    if (sql.exec("SELECT 1 FROM hub_listen_filters LIMIT 1").toArray().length === 0) sql.exec("DROP TABLE hub_listen_filters");
  }

  private hasFilterTable(): boolean {
    return this.storage.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'hub_listen_filters'").toArray().length > 0;
  }
}

/** Puts the attachment on the socket; false when it does not fit (workerd's 16,384 bytes), leaving the old one. */
function attach(socket: WebSocket, attachment: object): boolean {
  try {
    socket.serializeAttachment(attachment);
    return true;
  } catch {
    return false;
  }
}

/** A stream number no open socket of this shard uses, whatever this instance remembers. */
function newStreamNumber(): number {
  return Math.floor(Math.random() * 2 ** 48);
}

/** The tag a client's sockets carry (a long key by its hash: tags hold at most 256 characters). */
function clientTag(client: string): string {
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

/** Whether a listener's filter names the event (a task's status only for the principal that created it; a routed event only on its route). */
function wants(event: Exclude<PublishEvent, { type: "authorizationEnded" }>, listener: Listener): boolean {
  if (event.route !== undefined && event.route !== listener.route) return false;
  switch (event.type) {
    case "resourceUpdated":
      return true; // targets() found the stream by the URI it subscribed to
    case "taskStatus":
      // Only the principal that created a task may see it.
      return event.owner === undefined || event.owner === listener.subject;
    case "listChanged":
      return (
        {
          tools: listener.filter.toolsListChanged,
          prompts: listener.filter.promptsListChanged,
          resources: listener.filter.resourcesListChanged,
        }[event.list] === true
      );
  }
}

/** The notification for an event on the stream of listen request `id`. */
function toNotification(event: Exclude<PublishEvent, { type: "authorizationEnded" }>, id: RequestId): Record<string, unknown> {
  const meta = { [SUBSCRIPTION_ID_KEY]: id };
  switch (event.type) {
    case "resourceUpdated":
      return { jsonrpc: "2.0", method: "notifications/resources/updated", params: { _meta: meta, uri: event.uri } };
    case "listChanged":
      return { jsonrpc: "2.0", method: `notifications/${event.list}/list_changed`, params: { _meta: meta } };
    case "taskStatus":
      return { jsonrpc: "2.0", method: "notifications/tasks", params: { ...event.task, _meta: { ...metaOf(event.task), ...meta } } };
  }
}

function metaOf(task: Record<string, unknown>): Record<string, unknown> {
  const meta = task._meta;
  return typeof meta === "object" && meta !== null && !Array.isArray(meta) ? (meta as Record<string, unknown>) : {};
}

function indexAdd<K>(index: Map<K, Set<WebSocket>>, key: K, socket: WebSocket): void {
  let set = index.get(key);
  if (!set) {
    set = new Set();
    index.set(key, set);
  }
  set.add(socket);
}

function indexRemove<K>(index: Map<K, Set<WebSocket>>, key: K, socket: WebSocket): void {
  const set = index.get(key);
  if (!set) return;
  set.delete(socket);
  if (set.size === 0) index.delete(key);
}
