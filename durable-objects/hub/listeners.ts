/**
 * The hub's 2026-07-28 listen streams. Each is held by the Worker invocation that answered the
 * client (src/platform/held-stream.ts: keep-alives, the byte bound, the `complete` result at its
 * end) and reaches this shard as a hibernatable WebSocket (durable-objects/kit/held-sockets.ts),
 * so a shard whose streams are idle sleeps. What survives a sleep lives on the socket: tags for
 * the kind and the client (the per-client cap is counted from them, never from memory), and an
 * attachment with the listen request's id, subject and filter (a filter too large for an
 * attachment is stored in `hub_listen_filters` under the stream's number until the stream ends).
 * Owns the order on each stream: the acknowledgement first, then only the notifications its
 * honoured filter names (listen-events.ts). An index by URI and task id is rebuilt from the
 * sockets after a wake, so an update touches only its own streams.
 */
import { sseEventText } from "../../src/wire/sse";
import type { RequestId } from "../../src/jsonrpc/messages";
import { CappedSockets, clientTag } from "./capped-sockets";
import { StoredFilters } from "./listen-filters";
import { toNotification, wants, type ListenEvent, type Listener } from "./listen-events";
import { SUBSCRIPTION_ID_KEY, type ListenFilter, type ListenOpen, type PublishEvent } from "./contract";

/**
 * A socket attachment holds at most 16,384 bytes (workerd), and the Worker bounds what else it holds
 * (the request's id, the subject, the route key: src/features/hub/listen.ts); a filter whose JSON is
 * longer than this, or that does not fit beside them, is stored instead.
 */
const MAX_ATTACHED_FILTER = 1_500;

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

  /** Filters too large for their socket's attachment. */
  private readonly filters: StoredFilters;

  /** `storage`: the shard's (metered when observed: durable-objects/observe/metered-storage.ts). */
  constructor(ctx: DurableObjectState, storage: DurableObjectStorage) {
    this.held = new CappedSockets(ctx, "listen");
    this.filters = new StoredFilters(storage);
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
      this.filters.store(attached.stream, filter);
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
    if (!this.held.attachment(socket).filter) this.filters.drop(listener.stream);
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
    const filter = attached.filter ?? this.filters.read(attached.stream);
    if (!filter) return undefined;
    return { stream: attached.stream, id: attached.id, filter, subject: attached.subject, route: attached.route ?? "" };
  }

  private add(socket: WebSocket, listener: Listener): void {
    const index = this.listeners();
    index.set(socket, listener);
    for (const uri of listener.filter.resourceSubscriptions ?? []) indexAdd(this.byUri, uri, socket);
    for (const task of listener.filter.taskIds ?? []) indexAdd(this.byTask, task, socket);
  }

  private targets(event: ListenEvent): WebSocket[] {
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
