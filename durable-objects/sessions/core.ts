/**
 * The shared core of a session object: the negotiated state and whether the session ended,
 * the event log and the live connections, emitting a message (stored, then sent), activity and
 * alarm scheduling. Every other part of the object works through it; it knows nothing of
 * routing, requests in flight, replay or the registry role.
 */
import { INTERNAL_ERROR, LIMIT_EXCEEDED, RpcError } from "../../src/jsonrpc/errors";
import { errorMessage, isResponse, toWire, type Message, type RequestMessage, type ResponseMessage } from "../../src/jsonrpc/messages";
import type { Principal } from "../../src/auth/principal";
import type { SessionState } from "../../src/mcp/definition/context";
import type { ResolvedSessionOptions } from "../../src/kernel/options";
import type { RowCounter } from "../../src/mcp/operations/observe";
import { EventLog, fitsInEvent, MAX_EVENT_BYTES } from "./event-log";
import { SessionRecord, type StoredState } from "./session-record";
import { SessionTables } from "./session-tables";
import { LiveStreams } from "../../src/platform/live-streams";
import type { HeldSockets } from "../kit/held-sockets";
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
   * its client and reached over a hibernatable socket (durable-objects/kit/held-sockets.ts).
   */
  readonly held: HeldSockets<object>;
  /** The negotiated state; null before `initialize` and after the end. */
  state: SessionState | null = null;
  /** The session ended (DELETE or expiry); set before the log closes and never cleared. */
  terminated = false;
  /**
   * A deferred session's (durable-objects/sessions/deferred.ts): until when its tombstone must stay,
   * because until then its sealed id would pass for a live session whose object holds nothing; 0 otherwise.
   */
  rememberUntil = 0;
  /**
   * When the session began in this object (epoch ms; 0 for a session older than this field),
   * stored with its state: its last activity until the first write of `last_active`.
   */
  startedAt = 0;
  /**
   * A deferred session's (durable-objects/sessions/deferred.ts): the SHA-256 of its Mcp-Session-Id
   * (base64url), stored with its state when the object adopted it; undefined for any other session.
   */
  sealHash: string | undefined;
  private lastActivityWrite = 0;
  /** The last activity this instance saw (epoch ms; 0 before any). */
  private lastActive = 0;
  /** The alarm this object last set or read: undefined until known, null when none is set. */
  private alarmAt: number | null | undefined;

  /**
   * `storage`: the object's (durable-objects/kit/edge-object.ts), metered when observed; `meter`: its
   * row counter then, which the operation events read (`takeRows`).
   */
  constructor(
    private readonly storage: DurableObjectStorage,
    readonly options: ResolvedSessionOptions,
    held: HeldSockets<object>,
    private readonly meter: RowCounter | undefined,
  ) {
    this.held = held;
    this.tables = new SessionTables(storage.sql);
    this.record = new SessionRecord(this.tables, storage.kv);
    this.log = new EventLog(this.tables, options.maxEventsPerStream);
    this.live = new LiveStreams(options.keepAliveMs);
  }

  /** Whether the server is observed: the cost counters are kept. */
  get metered(): boolean {
    return this.meter !== undefined;
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

  /**
   * The one way the negotiated state changes: in memory and in the record, together. The record
   * keeps the session's start and seal hash beside it (one row: no write of their own).
   */
  saveState(state: SessionState): void {
    this.state = state;
    const stored: StoredState = { ...state, startedAt: this.startedAt };
    if (this.sealHash !== undefined) stored.sealHash = this.sealHash;
    this.record.setMeta("state", stored);
  }

  /** The state as stored (restoreSession): the negotiated part in `state`, the session's start and seal hash beside it. */
  loadState(): void {
    const stored = this.record.getMeta("state");
    if (stored === undefined) {
      this.state = null;
      return;
    }
    const { startedAt, sealHash, ...state } = stored;
    this.state = state;
    this.startedAt = startedAt ?? 0;
    this.sealHash = sealHash;
  }

  /**
   * The session ends: DELETE writes its tombstone first (a restart before the alarm must not
   * revive it); expiry writes none (deleteAll removes the state in one step). Never undone.
   */
  end(tombstone: boolean): void {
    this.terminated = true;
    this.state = null;
    if (tombstone) this.record.setMeta("terminated", this.rememberUntil || true);
  }

  /**
   * A new session: its state is stored with its start (`sealHash`: a deferred session's, see
   * `sealHash`), which stands for its activity until the first write of `last_active`
   * (ACTIVITY_WRITE_INTERVAL_MS later at the earliest), and its one alarm is set for its expiry.
   * The state is stored synchronously, before the returned promise.
   */
  start(state: SessionState, sealHash?: string): Promise<void> {
    const now = Date.now();
    this.startedAt = now;
    this.sealHash = sealHash;
    this.saveState(state);
    this.lastActive = now;
    this.lastActivityWrite = now;
    return this.setAlarmAt(now + this.options.idleTimeoutMs);
  }

  /**
   * Notes activity: in memory always, in storage at most every ACTIVITY_WRITE_INTERVAL_MS (idle
   * expiry is accurate to that). The alarm is not moved: when it fires at the old expiry it finds
   * the newer activity and sets itself again for the new one (one alarm per idle timeout, not
   * one `setAlarm` per request).
   */
  touch(force = false): void {
    if (this.terminated) return;
    const now = Date.now();
    this.lastActive = now;
    if (!force && now - this.lastActivityWrite < ACTIVITY_WRITE_INTERVAL_MS) return;
    this.lastActivityWrite = now;
    this.record.setMeta("last_active", now);
    this.ensureAlarm(now + this.options.idleTimeoutMs);
  }

  /**
   * The last activity, as stored (accurate to ACTIVITY_WRITE_INTERVAL_MS), else the session's
   * stored start or what this instance saw since, whichever is later (a session whose activity was
   * never written: all of it within that interval of its start). Never 0 for a session that
   * stored its start, whether or not the object slept since.
   */
  lastActiveAt(): number {
    return this.record.getMeta("last_active") ?? Math.max(this.startedAt, this.lastActive);
  }

  /**
   * A stream finished: its events are trimmed once its grace period is over, so an alarm must
   * fire by then. Set only when no alarm would fire by that time (the alarm's time is kept in
   * memory: storage is read once per object lifetime).
   */
  scheduleTrim(): void {
    this.ensureAlarm(Date.now() + this.options.completedStreamGraceMs + 1);
  }

  /** Makes sure an alarm fires by `at`: sets one only when none is set or the one set is later. */
  private ensureAlarm(at: number): void {
    if (this.terminated) return;
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

  /** Deletes all of this object's storage (the metered storage counts every row it removes). */
  deleteAll(): Promise<void> {
    return this.storage.deleteAll();
  }

  /** The rows written since the last call (0 unless observed): the operation event that ends now reports them. */
  takeRows(): number {
    return this.meter?.takeRows() ?? 0;
  }

  /** The alarm that is running is no longer set; whatever is set after this is the next one. */
  alarmFired(): void {
    this.alarmAt = null;
  }
}
