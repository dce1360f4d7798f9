/**
 * The hub's 2026-07-28 listen streams, in memory only (a listen stream is not resumable, so
 * nothing about it is stored). Owns the order on each stream: the acknowledgement first, then
 * only the notifications its honoured filter names, each with the subscription id in `_meta`,
 * and on a graceful end the listen request's `complete` result. Connections, keep-alives and
 * write coalescing are LiveStreams' (shared with the session object).
 */
import { LiveStreams } from "../session/streams";
import { encodeSseEvent } from "../../src/wire/sse";
import type { RequestId } from "../../src/jsonrpc/messages";
import { SERVER_INFO_KEY, SUBSCRIPTION_ID_KEY, type ListenFilter, type ListenOpen, type PublishEvent } from "./contract";

/** SSE response header the 2026-07-28 transport asks for on streams: proxies must not buffer. */
const SSE_EXTRA_HEADERS = { "X-Accel-Buffering": "no" };

interface Listener {
  id: RequestId;
  filter: ListenFilter;
  subject: string | undefined;
  serverInfo: Record<string, unknown> | undefined;
}

export type OpenOutcome = { ok: true; response: Response } | { ok: false; reason: "limit"; limit: number };

export class ListenStreams {
  private live: LiveStreams | undefined;
  private readonly listeners = new Map<number, Listener>();
  /** Listen streams by subscribed resource URI and by task id, so an update touches only its own. */
  private readonly byUri = new Map<string, Set<number>>();
  private readonly byTask = new Map<string, Set<number>>();
  private next = 1;

  /** Opens a stream: its acknowledgement is written before this returns, so nothing can precede it. */
  open(request: ListenOpen): OpenOutcome {
    // The keep-alive interval is a server option: every Worker of one deployment sends the same.
    this.live ??= new LiveStreams(request.keepAliveMs);
    this.sweep();
    if (this.live.count() >= request.maxStreams) return { ok: false, reason: "limit", limit: request.maxStreams };
    const stream = this.next++;
    const response = this.live.attach(stream, SSE_EXTRA_HEADERS);
    const listener: Listener = { id: request.id, filter: request.filter, subject: request.subject, serverInfo: request.serverInfo };
    this.listeners.set(stream, listener);
    for (const uri of request.filter.resourceSubscriptions ?? []) indexAdd(this.byUri, uri, stream);
    for (const task of request.filter.taskIds ?? []) indexAdd(this.byTask, task, stream);
    this.write(stream, {
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { _meta: { [SUBSCRIPTION_ID_KEY]: request.id }, notifications: request.filter },
    });
    return { ok: true, response };
  }

  /** Writes the event to every stream that opted in to it; returns how many. */
  deliver(event: PublishEvent): number {
    let sent = 0;
    for (const stream of this.targets(event)) {
      const listener = this.listeners.get(stream);
      if (!listener || !this.live?.isAttached(stream)) {
        this.remove(stream);
        continue;
      }
      const message = toNotification(event, listener);
      if (!message) continue;
      this.write(stream, message);
      sent++;
    }
    return sent;
  }

  /** Ends every stream gracefully: the listen request's `complete` result, then close. Returns how many. */
  closeAll(): number {
    let closed = 0;
    for (const [stream, listener] of [...this.listeners]) {
      if (this.live?.isAttached(stream)) {
        const meta: Record<string, unknown> = { [SUBSCRIPTION_ID_KEY]: listener.id };
        if (listener.serverInfo) meta[SERVER_INFO_KEY] = listener.serverInfo;
        this.write(stream, { jsonrpc: "2.0", id: listener.id, result: { resultType: "complete", _meta: meta } });
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

  /** Forgets streams whose client went away (LiveStreams dropped their connection). */
  private sweep(): void {
    if (this.listeners.size <= this.count()) return;
    for (const stream of [...this.listeners.keys()]) if (!this.live?.isAttached(stream)) this.remove(stream);
  }

  private remove(stream: number): void {
    const listener = this.listeners.get(stream);
    if (!listener) return;
    this.listeners.delete(stream);
    for (const uri of listener.filter.resourceSubscriptions ?? []) indexRemove(this.byUri, uri, stream);
    for (const task of listener.filter.taskIds ?? []) indexRemove(this.byTask, task, stream);
  }
}

/** The notification a listener gets for an event, or undefined when its filter does not name it. */
function toNotification(event: PublishEvent, listener: Listener): Record<string, unknown> | undefined {
  const meta = { [SUBSCRIPTION_ID_KEY]: listener.id };
  switch (event.type) {
    case "resourceUpdated":
      return { jsonrpc: "2.0", method: "notifications/resources/updated", params: { _meta: meta, uri: event.uri } };
    case "listChanged": {
      const wanted = {
        tools: listener.filter.toolsListChanged,
        prompts: listener.filter.promptsListChanged,
        resources: listener.filter.resourcesListChanged,
      }[event.list];
      return wanted === true ? { jsonrpc: "2.0", method: `notifications/${event.list}/list_changed`, params: { _meta: meta } } : undefined;
    }
    case "taskStatus":
      // Only the principal that created a task may see it.
      if (event.owner !== undefined && event.owner !== listener.subject) return undefined;
      return { jsonrpc: "2.0", method: "notifications/tasks", params: { ...event.task, _meta: { ...metaOf(event.task), ...meta } } };
  }
}

function metaOf(task: Record<string, unknown>): Record<string, unknown> {
  const meta = task._meta;
  return typeof meta === "object" && meta !== null && !Array.isArray(meta) ? (meta as Record<string, unknown>) : {};
}

function indexAdd(index: Map<string, Set<number>>, key: string, stream: number): void {
  let set = index.get(key);
  if (!set) {
    set = new Set();
    index.set(key, set);
  }
  set.add(stream);
}

function indexRemove(index: Map<string, Set<number>>, key: string, stream: number): void {
  const set = index.get(key);
  if (!set) return;
  set.delete(stream);
  if (set.size === 0) index.delete(key);
}
