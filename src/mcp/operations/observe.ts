/**
 * What an operator sees of each MCP operation: its span (tracing.ts, with tracing on), and an
 * event with its outcome and what it cost in the platform's billed units, told to the `onEvent`
 * hook and written to a Workers Analytics Engine dataset when one is bound. One observation per
 * operation in each place it runs: the Worker ("worker"), the Worker's hop to the session object
 * ("forward"), the session object ("session"), a task's run ("task"), and as events only the
 * objects' own units that no operation carries (a hub shard's requests, "hub"; a task's client
 * ledger, "ledger"; an events object's, "events"; durable-objects/observe/billing.ts). Without tracing, hook or
 * dataset nothing is observed and nothing here runs. This module holds what the runtime reads (the shapes, the
 * meters, the observer of each served server); the `observe()` feature (src/features/observe) makes the observer.
 */
import type { Params } from "../../jsonrpc/messages";
import type { Operation, OperationSpan, Tracing } from "./tracing";

export type Place = "worker" | "forward" | "session" | "task" | "ledger" | "hub" | "events";

/** One MCP operation as it ended in one place. */
export interface OperationEvent {
  place: Place;
  method: string;
  /** The tool or prompt name, or the resource URI; undefined for other methods. */
  name: string | undefined;
  /** "error": a JSON-RPC error answered it; "tool_error": a tool result with isError. */
  outcome: "ok" | "error" | "tool_error";
  /** The JSON-RPC error code, when `outcome` is "error". */
  errorCode: number | undefined;
  /** Wall time in the place (Workers advance the clock only across I/O). */
  durationMs: number;
  /**
   * Durable Object requests this place made for the operation (a forward, a `confirm`, `init`, a task
   * object call), or, for an object's own alarm (method "alarm", place "session"), the alarm itself.
   */
  doRequests: number;
  /** SSE events this place sent for the operation (notifications, server requests, and a stored response). */
  sseEvents: number;
  /**
   * Rows written for it, as the platform bills them: in the session object every row its storage
   * wrote since its previous event (event log, record, table creation, `setAlarm`, deletes); in a
   * task's run the rows of its record and asks.
   */
  rowsWritten: number;
  /** Bytes of JSON in those events. */
  bytesWritten: number;
  /**
   * WebSocket messages the object received for it (billed at 1/20 of a request each): a held
   * stream's socket carries a listen stream's filter and the Worker's answers to probes.
   */
  webSocketMessages: number;
  /** Open streams of the session when the operation started (the Worker's own lanes: 0). */
  openStreams: number;
  sessionId: string | undefined;
  protocolVersion: string | undefined;
}

/**
 * What one operation made the platform send and store, counted where it happens: the session
 * object's channel (each event stored, then sent) and the Worker's 2026 streaming reply (sent
 * only). Lanes build one only when the server is observed, so an unobserved call counts nothing.
 */
export interface Meter {
  sseEvents: number;
  rowsWritten: number;
  bytesWritten: number;
  openStreams: number;
  /**
   * Where the place counts every row its storage wrote (the session object: SQL cursors, key-value
   * puts, alarms, deletes): read at the operation's end instead of `rowsWritten`.
   */
  rows?: () => number;
  /** WebSocket messages an object received for the operation (billed at 1/20 of a request each). */
  webSocketMessages?: number;
}

export function newMeter(openStreams = 0): Meter {
  return { sseEvents: 0, rowsWritten: 0, bytesWritten: 0, openStreams };
}

/** One SSE event sent; `stored`: its JSON, when the session object's event log stored it first. */
export function meterEvent(meter: Meter | undefined, stored?: string): void {
  if (!meter) return;
  meter.sseEvents += 1;
  if (stored !== undefined) {
    meter.rowsWritten += 1;
    meter.bytesWritten += stored.length;
  }
}

export interface EventOptions {
  /** Told every operation event; its failure is logged, never thrown into the request. */
  onEvent?: (event: OperationEvent) => void;
  /** A Workers Analytics Engine dataset binding (`[[analytics_engine_datasets]]`) to write each event to. */
  analytics?: { binding: string };
}

/** An operation being observed: its span's outcome marks and its cost counters. */
export interface Observation extends OperationSpan {
  /** Counts Durable Object requests made for this operation. */
  countDoRequests(n?: number): void;
  /** What the operation sent and stored (its lane's meter). */
  measure(meter: Meter): void;
}

/**
 * The observer of one served server, made by the `observe()` feature: the Worker's lanes, the dispatcher
 * and the objects start observations with it and emit their own units.
 */
export interface Observer {
  /** The server's tracing (with `observe({ tracing })`): also the objects'. */
  readonly tracing: Tracing | undefined;
  /** Starts observing one operation in one place. */
  start(operation: Operation, place: Place, env: unknown): Observation;
  /** Whether anyone hears events (else none is built). */
  readonly hasSink: boolean;
  /**
   * An object's own billed units outside any MCP operation (a request to a hub shard, a WebSocket
   * message a held stream's socket brought): an event only, no span (the hub's spans are its
   * deliveries'). `doRequests` counts the request itself when no observed caller counted it.
   */
  emitOwn(place: Place, method: string, env: unknown, units: OwnUnits): void;
  /**
   * An object's part of the observer (durable-objects/observe/): its metered storage, its row counter and
   * its bill, made by the object kit with `ctx.storage`; undefined when no one reads the kind's rows.
   */
  observeObject(storage: DurableObjectStorage, kind: ObservedKind): ObservedObject | undefined;
}

/** What an object kind tells its observer (durable-objects/kit/edge-object.ts `ObjectKind`, with its env). */
export interface ObservedKind {
  /** Where its own events come from; none for an object that reports none (the user store). */
  readonly place?: Place;
  /**
   * Who reads its rows: "spans" when its operations' spans carry them (a session's, a task's run: its
   * storage is metered whenever the server is observed), "events" when only its own events do (a hub
   * shard's: metered with `onEvent` or a dataset).
   */
  readonly rows: "spans" | "events";
  /** Told with each of its own events: the session they are about (a session object's id). */
  readonly about?: Pick<OwnUnits, "sessionId">;
  readonly env: unknown;
}

/** An observed object's row counter. */
export interface RowCounter {
  /** The rows written since the previous call: the operation event that ends now reports them. */
  takeRows(): number;
}

/** An observed object's part of its observer: the storage view that counts its rows, and its bill. */
export interface ObservedObject extends RowCounter {
  /** The object's storage, every billed row counted: it uses this in place of `ctx.storage`. */
  readonly storage: DurableObjectStorage;
  /** With `onEvent` or a dataset, for a kind with a place: what it costs where no operation counts it. */
  readonly bill: ObjectBill | undefined;
  /**
   * An operation of the object's own, with its span and event (a session's `initialize`, its alarm):
   * `doRequests` it received that no one else counts, `openStreams` it holds, the rows written since
   * the previous event. Nothing for a kind without a place.
   */
  ownOperation(method: string, doRequests: number, openStreams: number): void;
  /** Runs `deliver` (a hub delivery to a session) inside its span, the child of the hub's; returns what it delivered. */
  delivery<T extends string>(delivery: Delivery, deliver: () => T): T;
}

/** A hub delivery's event: the child of the hub's span for it (a notification the server initiates: kind client). */
export interface Delivery {
  readonly method: string;
  readonly params: Params;
  /** The hub's span; without one (or without tracing) the delivery has no span. */
  readonly parent: string | undefined;
}

/** What an object costs where no MCP operation counts it, told as its own events (Observer.emitOwn). */
export interface ObjectBill {
  /** Requests this object made that their receiver does not report. */
  made(n: number): void;
  /** Work started by the request being served that may outlive it (an outbox's send). */
  follow(work: Promise<unknown>): void;
  /** One request served (`received`: 1, or 0 for one its caller counts), reported once its follow-up work settled. */
  report(method: string, received: number, messages?: number, place?: Place): Promise<void>;
}

/** What an object's own event (Observer.emitOwn) reports. */
export interface OwnUnits {
  doRequests: number;
  rowsWritten: number;
  webSocketMessages?: number;
  openStreams?: number;
  durationMs?: number;
  sessionId?: string;
}

// The observer of each served server: a symbol-keyed property of the edge's own view of the server
// (the kernel sets it), read by the Worker's lanes and the dispatcher without threading it through
// every lane; another edge's view of the same definition has its own. The object classes are handed
// it instead (durable-objects/shared/edge-binding.ts).
const OBSERVER = Symbol("mcp-edge.observer");

/** Records the observer of a server view (the kernel, once per edge, when a feature observes it). */
export function recordObserver(server: object, observer: Observer): void {
  Object.defineProperty(server, OBSERVER, { value: observer });
}

export function observerOf(server: object): Observer | undefined {
  return (server as { [OBSERVER]?: Observer })[OBSERVER];
}

// The observation of the request a handler context serves, for the hops it starts (a task's
// creation): a symbol-keyed property of the context (docs/engine-notes.md "A symbol on the context, not a WeakMap").
const OBSERVATION = Symbol("mcp-edge.observation");

export function bindObservation(ctx: object, observation: Observation): void {
  (ctx as { [OBSERVATION]?: Observation })[OBSERVATION] = observation;
}

/** The observation of the operation `ctx` serves, when observed. */
export function observationOf(ctx: object): Observation | undefined {
  return (ctx as { [OBSERVATION]?: Observation })[OBSERVATION];
}
