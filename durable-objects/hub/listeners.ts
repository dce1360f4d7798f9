/**
 * The hub's 2026-07-28 listen streams, in memory only (a listen stream is not resumable, so
 * nothing about it is stored). Owns the order on each stream: the acknowledgement first, then
 * only the notifications its honoured filter names, each with the subscription id in `_meta`,
 * and on a graceful end the listen request's `complete` result. Connections, keep-alives and
 * write coalescing are LiveStreams' (shared with the session object).
 * Bounded and fair: a stream's unsent bytes are capped (a client that falls behind gets the
 * `complete` result and the rest is dropped), and one client (its clientKey) holds at most
 * `maxPerClient` streams of this shard. A stream's slot is freed the moment its connection goes;
 * a client that left without a word is found by a probe when a cap is reached, not minutes later.
 */
import { LiveStreams } from "../session/streams";
import { encodeSseEvent } from "../../src/wire/sse";
import type { RequestId } from "../../src/jsonrpc/messages";
import { SERVER_INFO_KEY, SUBSCRIPTION_ID_KEY, type ListenFilter, type ListenOpen, type PublishEvent } from "./contract";

/** SSE response header the 2026-07-28 transport asks for on streams: proxies must not buffer. */
const SSE_EXTRA_HEADERS = { "X-Accel-Buffering": "no" };

/** How long a probe waits for a quiet client to take a keep-alive before counting it as there. */
const PROBE_TIMEOUT_MS = 250;
/** Unsent bytes all streams of one shard may hold together; past it the largest backlog is ended first. */
const MAX_SHARD_BUFFERED_BYTES = 32 * 1024 * 1024;
/** How long a batch waits, at most, for a client to take a write while a stream is past half its buffer. */
const DRAIN_WAIT_MS = 50;
/** A stream ended for falling behind is aborted if its client takes nothing for this long more. */
const TRUNCATE_GRACE_MS = 10_000;

interface Listener {
  id: RequestId;
  filter: ListenFilter;
  subject: string | undefined;
  /** The route key it was opened on ("" for a literal path). */
  route: string;
  serverInfo: Record<string, unknown> | undefined;
  client: string;
}

export type OpenOutcome =
  | { ok: true; response: Response }
  | { ok: false; reason: "limit"; limit: number }
  | { ok: false; reason: "client-limit"; limit: number };

export class ListenStreams {
  private live: LiveStreams | undefined;
  private readonly listeners = new Map<number, Listener>();
  /** Open streams by clientKey: the per-client cap. */
  private readonly byClient = new Map<string, Set<number>>();
  /** Listen streams by subscribed resource URI and by task id, so an update touches only its own. */
  private readonly byUri = new Map<string, Set<number>>();
  private readonly byTask = new Map<string, Set<number>>();
  private next = 1;

  /** Opens a stream: its acknowledgement is written before this returns, so nothing can precede it. */
  async open(request: ListenOpen): Promise<OpenOutcome> {
    // The keep-alive interval and buffer are server options: every Worker of one deployment sends the same.
    this.live ??= new LiveStreams(request.keepAliveMs, {
      maxBufferedBytes: request.maxBufferedBytes,
      maxTotalBufferedBytes: MAX_SHARD_BUFFERED_BYTES,
      onOverflow: (stream) => this.fellBehind(stream),
      onDrop: (stream) => this.remove(stream),
    });
    const live = this.live;
    const client = request.client ?? "ip:unknown";
    const maxPerClient = request.maxPerClient ?? Number.POSITIVE_INFINITY;
    // At a cap, first find the streams whose client left without a word (noticed only at a write).
    if ((this.byClient.get(client)?.size ?? 0) >= maxPerClient) await this.probe(this.byClient.get(client) ?? []);
    if (live.count() >= request.maxStreams) await this.probe(this.listeners.keys());
    // Checked again after the probes' await: the check and the attach below run without a gap.
    if (live.count() >= request.maxStreams) return { ok: false, reason: "limit", limit: request.maxStreams };
    if ((this.byClient.get(client)?.size ?? 0) >= maxPerClient) return { ok: false, reason: "client-limit", limit: maxPerClient };
    const stream = this.next++;
    const response = live.attach(stream, SSE_EXTRA_HEADERS);
    const listener: Listener = {
      id: request.id,
      filter: request.filter,
      subject: request.subject,
      route: request.route ?? "",
      serverInfo: request.serverInfo,
      client,
    };
    this.listeners.set(stream, listener);
    indexAdd(this.byClient, client, stream);
    for (const uri of request.filter.resourceSubscriptions ?? []) indexAdd(this.byUri, uri, stream);
    for (const task of request.filter.taskIds ?? []) indexAdd(this.byTask, task, stream);
    this.write(stream, {
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { _meta: { [SUBSCRIPTION_ID_KEY]: request.id }, notifications: request.filter },
    });
    return { ok: true, response };
  }

  /**
   * Writes the event to every stream that opted in to it; returns how many. The frame differs
   * between streams only by the listen request's id (the subscription id), so it is encoded
   * once per distinct id, not once per stream: with thousands of streams the JSON and UTF-8
   * work of a publish does not grow with them.
   */
  deliver(event: PublishEvent): number {
    let sent = 0;
    const frames = new Map<RequestId, Uint8Array>();
    for (const stream of this.targets(event)) {
      const listener = this.listeners.get(stream);
      if (!listener || !this.live?.isAttached(stream)) {
        this.remove(stream);
        continue;
      }
      if (!wants(event, listener)) continue;
      let frame = frames.get(listener.id);
      if (!frame) {
        frame = encodeSseEvent(JSON.stringify(toNotification(event, listener.id)));
        frames.set(listener.id, frame);
      }
      this.live.send(stream, frame);
      // A client that fell behind had its stream ended by this write instead.
      if (this.listeners.has(stream)) sent++;
    }
    return sent;
  }

  /**
   * Writes a batch, in order: what `deliver` does for each event. A batch is written faster
   * than any client reads, so while a stream holds more than half its buffer, the writer waits
   * for a client to take a write before the next event: a client that reads keeps up with a
   * burst larger than its buffer, and one that does not is ended as before (its buffer fills).
   * When no client takes anything for DRAIN_WAIT_MS, the batch stops waiting.
   */
  async deliverBatch(events: PublishEvent[]): Promise<number[]> {
    const sent: number[] = [];
    let draining = true;
    for (const [i, event] of events.entries()) {
      sent.push(this.deliver(event));
      if (!draining || i === events.length - 1 || !this.live || this.live.pressure() === 0) continue;
      draining = await this.live.nextWrite(DRAIN_WAIT_MS);
    }
    return sent;
  }

  /** Ends every stream gracefully: the listen request's `complete` result, then close. Returns how many. */
  closeAll(): number {
    let closed = 0;
    for (const [stream, listener] of [...this.listeners]) {
      if (this.live?.isAttached(stream)) {
        this.write(stream, completeResult(listener));
        this.live.close(stream);
        closed++;
      }
      this.remove(stream);
    }
    return closed;
  }

  count(): number {
    return this.live?.count() ?? 0;
  }

  /** Open streams of one client (its clientKey). */
  countOf(client: string): number {
    return this.byClient.get(client)?.size ?? 0;
  }

  /**
   * A stream's client stopped taking what is sent: what is queued is dropped, the listen
   * request's `complete` result follows the write in flight, and the slot is freed now. The
   * client re-listens (subscriptions.mdx "Graceful Closure") and re-reads what it follows.
   */
  private fellBehind(stream: number): void {
    const listener = this.listeners.get(stream);
    if (!listener || !this.live) return;
    this.live.truncate(stream, encodeSseEvent(JSON.stringify(completeResult(listener))), TRUNCATE_GRACE_MS);
    this.remove(stream);
  }

  /** Writes a keep-alive to each stream and waits (briefly): a client that left is dropped (onDrop). */
  private async probe(streams: Iterable<number>): Promise<void> {
    const live = this.live;
    if (!live) return;
    await Promise.all([...streams].map((stream) => live.probe(stream, PROBE_TIMEOUT_MS)));
  }

  private targets(event: PublishEvent): Iterable<number> {
    switch (event.type) {
      case "resourceUpdated":
        return [...(this.byUri.get(event.uri) ?? [])];
      case "taskStatus":
        return [...(this.byTask.get(event.task.taskId) ?? [])];
      case "listChanged":
        return [...this.listeners.keys()];
    }
  }

  private write(stream: number, message: Record<string, unknown>): void {
    this.live?.send(stream, encodeSseEvent(JSON.stringify(message)));
  }

  private remove(stream: number): void {
    const listener = this.listeners.get(stream);
    if (!listener) return;
    this.listeners.delete(stream);
    indexRemove(this.byClient, listener.client, stream);
    for (const uri of listener.filter.resourceSubscriptions ?? []) indexRemove(this.byUri, uri, stream);
    for (const task of listener.filter.taskIds ?? []) indexRemove(this.byTask, task, stream);
  }
}

/** The listen request's `complete` result: the graceful end of its stream (subscriptions.mdx "Graceful Closure"). */
function completeResult(listener: Listener): Record<string, unknown> {
  const meta: Record<string, unknown> = { [SUBSCRIPTION_ID_KEY]: listener.id };
  if (listener.serverInfo) meta[SERVER_INFO_KEY] = listener.serverInfo;
  return { jsonrpc: "2.0", id: listener.id, result: { resultType: "complete", _meta: meta } };
}

/** Whether a listener's filter names the event (a task's status only for the principal that created it; a routed event only on its route). */
function wants(event: PublishEvent, listener: Listener): boolean {
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
function toNotification(event: PublishEvent, id: RequestId): Record<string, unknown> {
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

function indexAdd<K>(index: Map<K, Set<number>>, key: K, stream: number): void {
  let set = index.get(key);
  if (!set) {
    set = new Set();
    index.set(key, set);
  }
  set.add(stream);
}

function indexRemove<K>(index: Map<K, Set<number>>, key: K, stream: number): void {
  const set = index.get(key);
  if (!set) return;
  set.delete(stream);
  if (set.size === 0) index.delete(key);
}
