/**
 * The shared core of a session object: the negotiated state and whether the session ended,
 * the event log and the live connections, emitting a message (stored, then sent), activity and
 * alarm scheduling. Every other part of the object works through it; it knows nothing of
 * routing, requests in flight, replay or the registry role.
 */
import { INTERNAL_ERROR, LIMIT_EXCEEDED, RpcError } from "../../src/jsonrpc/errors";
import { errorMessage, isResponse, toWire, type Message, type RequestMessage, type ResponseMessage } from "../../src/jsonrpc/messages";
import type { Principal } from "../../src/auth/principal";
import type { SessionState } from "../../src/mcp/context";
import type { ResolvedSessionOptions } from "../../src/options";
import { EventLog, fitsInEvent, MAX_EVENT_BYTES } from "./event-log";
import { SessionRecord } from "./session-record";
import { SessionTables } from "./session-tables";
import { LiveStreams } from "./streams";
import type { HeldSockets } from "../shared/held-sockets";
import { sseEventText } from "../../src/wire/sse";

/** Activity is persisted at most this often; idle expiry is accurate to this interval. */
const ACTIVITY_WRITE_INTERVAL_MS = 30_000;

/** Request ids are stored as their JSON text so 1 and "1" stay distinct. */
export function idKey(id: RequestMessage["id"]): string {
  return JSON.stringify(id);
}

export class SessionCore {
  /** The gate of its SQLite tables: closed for good when the session ends. */
  readonly tables: SessionTables;
  /** State, tombstone, activity time, counters and subscriptions. */
  readonly record: SessionRecord;
  /** Streams, their events and the requests in flight. */
  readonly log: EventLog;
  /** The POST streams of interactive calls: their handler is in memory anyway, so is their connection. */
  readonly live: LiveStreams;
  /**
   * Standalone GET and 2024-11-05 `/sse` streams, each held by the Worker invocation that answered
   * its client and reached over a hibernatable socket (durable-objects/shared/held-sockets.ts).
   */
  readonly held: HeldSockets<object>;
  /** The negotiated state; null before `initialize` and after the end. */
  state: SessionState | null = null;
  /** The session ended (DELETE or expiry); set before the log closes and never cleared. */
  terminated = false;
  private lastActivityWrite = 0;
  /** The alarm this object last set or read: undefined until known, null when none is set. */
  private alarmAt: number | null | undefined;

  constructor(
    private readonly storage: DurableObjectStorage,
    readonly options: ResolvedSessionOptions,
    held: HeldSockets<object>,
  ) {
    this.held = held;
    this.tables = new SessionTables(storage.sql);
    this.record = new SessionRecord(this.tables);
    this.log = new EventLog(this.tables, options.maxEventsPerStream);
    this.live = new LiveStreams(options.keepAliveMs);
  }

  /**
   * Whether this is a live session of this principal (neither has a subject without auth) on
   * this route (`route`: the request's route key; "" for a literal path and for sessions older than routes).
   */
  isOwnedBy(principal: Principal | undefined, route = ""): boolean {
    return this.state !== null && !this.terminated && this.state.subject === principal?.subject && (this.state.route ?? "") === route;
  }

  /**
   * Stores a message on a stream, then writes it to the stream's connection if one is attached.
   * A message too large to store is never sent: a request or notification throws (the handler
   * gets the error), a response is replaced by an error response so its request is still answered.
   */
  emit(stream: number, message: Message | ResponseMessage): void {
    // After termination, whatever still-running work emits is dropped quietly: there is no one to send it to.
    if (this.tables.isClosed) return;
    let data = JSON.stringify(toWire(message));
    if (!fitsInEvent(data)) {
      const limit = `larger than ${MAX_EVENT_BYTES} bytes, the most one stored SSE event can hold`;
      if (!isResponse(message)) throw new RpcError(LIMIT_EXCEEDED, `${message.method} was not sent: the message is ${limit}`);
      data = JSON.stringify(toWire(errorMessage(message.id, { code: LIMIT_EXCEEDED, message: `The response is ${limit}` })));
    }
    let id: string;
    try {
      id = this.log.append(stream, data);
    } catch (error) {
      // Never send what was not stored, and never show the storage engine's message.
      console.error("mcp-edge: storing an event failed", error);
      throw new RpcError(INTERNAL_ERROR, "The session could not store a message, so it was not sent");
    }
    if (this.live.isAttached(stream)) this.live.sendEvent(stream, id, data);
    else this.held.send(stream, sseEventText(data, id));
  }

  /** Ends a stream's connection, wherever it is (a POST stream resumed by GET is held by a Worker). */
  endStream(stream: number): void {
    this.live.close(stream);
    this.held.close(stream);
  }

  /** Open connections of every kind (the stream cap, and expiry waits for none). */
  openStreams(): number {
    return this.live.count() + this.held.count();
  }

  /** Ends every connection (the session ended): the Worker holding a GET stream ends its client's. */
  closeStreams(): void {
    this.live.closeAll();
    this.held.closeAll("the session ended");
  }

  /** Server messages unrelated to a request go on the newest open standalone stream, if any. */
  sendStandalone(message: Message): boolean {
    const stream = this.log.latestOpen("get");
    if (stream === undefined) return false;
    this.emit(stream, message);
    return true;
  }

  /** Notes activity; persisted at most every ACTIVITY_WRITE_INTERVAL_MS. */
  touch(force = false): void {
    if (this.terminated) return;
    const now = Date.now();
    if (!force && now - this.lastActivityWrite < ACTIVITY_WRITE_INTERVAL_MS) return;
    this.lastActivityWrite = now;
    this.record.setMeta("last_active", now);
    this.scheduleAlarm();
  }

  /**
   * Makes sure an alarm fires by the earliest time housekeeping could have work. Runs after
   * every finished stream, so the alarm's time is kept in memory: storage is read once per
   * object lifetime and written only when the alarm must move earlier.
   */
  scheduleAlarm(): void {
    if (this.terminated) return;
    const at = Date.now() + Math.min(this.options.idleTimeoutMs, this.options.completedStreamGraceMs) + 1;
    if (this.alarmAt !== undefined) {
      if (this.alarmAt === null || this.alarmAt > at) void this.setAlarmAt(at);
      return;
    }
    void this.storage.getAlarm().then((current) => {
      // A setAlarmAt while the read was in flight is newer than what was read.
      if (this.alarmAt === undefined) this.alarmAt = current;
      if (this.alarmAt === null || this.alarmAt > at) return this.setAlarmAt(at);
      return undefined;
    });
  }

  setAlarmAt(at: number): Promise<void> {
    this.alarmAt = at;
    return this.storage.setAlarm(at);
  }

  /** The alarm that is running is no longer set; whatever is set after this is the next one. */
  alarmFired(): void {
    this.alarmAt = null;
  }
}
