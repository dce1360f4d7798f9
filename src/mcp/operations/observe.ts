/**
 * What an operator sees of each MCP operation: its span (tracing.ts, with tracing on), and an
 * event with its outcome and what it cost in the platform's billed units, told to the `onEvent`
 * hook and written to a Workers Analytics Engine dataset when one is bound. One observation per
 * operation in each place it runs: the Worker ("worker"), the Worker's hop to the session object
 * ("forward"), the session object ("session"), a task's run ("task"), and as events only the
 * objects' own units that no operation carries (a hub shard's requests, "hub"; a task's client
 * ledger, "ledger"; durable-objects/kit/billing.ts). Without tracing, hook or
 * dataset nothing is observed and nothing here runs.
 */
import { targetOf } from "./middleware";
import { Tracing, type Operation, type OperationSpan, type TracingOptions } from "./tracing";

export type Place = "worker" | "forward" | "session" | "task" | "ledger" | "hub";

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

interface AnalyticsDataset {
  writeDataPoint(point: { blobs?: string[]; doubles?: number[]; indexes?: string[] }): void;
}

/** An operation being observed: its span's outcome marks and its cost counters. */
export interface Observation extends OperationSpan {
  /** Counts Durable Object requests made for this operation. */
  countDoRequests(n?: number): void;
  /** What the operation sent and stored (its lane's meter). */
  measure(meter: Meter): void;
}

export class Observer {
  /** The server's tracing (with the `tracing` option): also the objects' (createMcpEdge hands them this observer). */
  readonly tracing: Tracing | undefined;

  constructor(
    tracing: TracingOptions | undefined,
    private readonly events: EventOptions,
  ) {
    this.tracing = tracing ? new Tracing(tracing) : undefined;
  }

  start(operation: Operation, place: Place, env: unknown): Observation {
    return new ObservedOperation(this.tracing?.start(operation), operation, this, { place, env });
  }

  /** Whether anyone hears events (else none is built). */
  get hasSink(): boolean {
    return this.events.onEvent !== undefined || this.events.analytics !== undefined;
  }

  /**
   * An object's own billed units outside any MCP operation (a request to a hub shard, a WebSocket
   * message a held stream's socket brought): an event only, no span (the hub's spans are its
   * deliveries'). `doRequests` counts the request itself when no observed caller counted it.
   */
  emitOwn(place: Place, method: string, env: unknown, units: OwnUnits): void {
    if (this.hasSink) this.emit({ place, method, ...QUIET, ...units }, env);
  }

  emit(event: OperationEvent, env: unknown): void {
    const { onEvent, analytics } = this.events;
    if (onEvent) {
      try {
        onEvent(event);
      } catch (error) {
        console.error("mcp-edge: the onEvent hook failed", error);
      }
    }
    if (analytics) {
      const dataset = (env as Record<string, unknown> | undefined)?.[analytics.binding] as AnalyticsDataset | undefined;
      if (typeof dataset?.writeDataPoint !== "function") {
        console.error(
          `mcp-edge: the analytics option names the binding "${analytics.binding}", which this Worker does not have. Add to wrangler.toml:\n\n[[analytics_engine_datasets]]\nbinding = "${analytics.binding}"\ndataset = "mcp_edge_operations"`,
        );
        return;
      }
      dataset.writeDataPoint({
        // blob1..5 and double1..7 in SQL: see docs/operating.md "Counters: `onEvent` and Analytics Engine".
        blobs: [event.method, event.name ?? "", event.place, event.outcome, event.errorCode === undefined ? "" : String(event.errorCode)],
        doubles: [event.durationMs, event.doRequests, 1, event.sseEvents, event.rowsWritten, event.bytesWritten, event.openStreams],
        indexes: [event.name ?? event.method],
      });
    }
  }
}

/** An own event's fields that its units do not set (in the event's key order). */
const QUIET = {
  name: undefined,
  outcome: "ok",
  errorCode: undefined,
  durationMs: 0,
  doRequests: 0,
  sseEvents: 0,
  rowsWritten: 0,
  bytesWritten: 0,
  webSocketMessages: 0,
  openStreams: 0,
  sessionId: undefined,
  protocolVersion: undefined,
} as const;

/** What an object's own event (Observer.emitOwn) reports. */
export interface OwnUnits {
  doRequests: number;
  rowsWritten: number;
  webSocketMessages?: number;
  openStreams?: number;
  durationMs?: number;
  sessionId?: string;
}

/** One operation being observed; the event is built at its end (docs/engine-notes.md "Classes for what a request builds"). */
class ObservedOperation implements Observation {
  private readonly started = Date.now();
  private doRequests = 0;
  private meter: Meter | undefined;
  private outcome: OperationEvent["outcome"] = "ok";
  private errorCode: number | undefined;

  constructor(
    private readonly span: OperationSpan | undefined,
    private readonly operation: Operation,
    private readonly observer: Observer,
    private readonly at: { place: Place; env: unknown },
  ) {}

  get traceparent(): string | undefined {
    return this.span?.traceparent;
  }

  countDoRequests(n = 1): void {
    this.doRequests += n;
  }

  measure(meter: Meter): void {
    this.meter = meter;
  }

  /** Read once: a place's own count (`rows`) is taken, not peeked. */
  private rowsWritten(): number {
    const meter = this.meter;
    if (!meter) return 0;
    if (meter.rows) {
      meter.rowsWritten = meter.rows();
      meter.rows = undefined;
    }
    return meter.rowsWritten;
  }

  failed(code: number, message: string): void {
    this.outcome = "error";
    this.errorCode = code;
    this.span?.failed(code, message);
  }

  toolFailed(): void {
    this.outcome = "tool_error";
    this.span?.toolFailed();
  }

  threw(error: unknown): void {
    this.outcome = "error";
    this.span?.threw(error);
  }

  attribute(key: string, value: number | string): void {
    this.span?.attribute(key, value);
  }

  end(): void {
    if (this.span) {
      // The cost counters as span attributes (mcp-edge's own names).
      this.span.attribute("mcp_edge.place", this.at.place);
      this.span.attribute("mcp_edge.do_requests", this.doRequests);
      if (this.meter) {
        this.span.attribute("mcp_edge.sse_events", this.meter.sseEvents);
        this.span.attribute("mcp_edge.rows_written", this.rowsWritten());
        this.span.attribute("mcp_edge.bytes_written", this.meter.bytesWritten);
        this.span.attribute("mcp_edge.open_streams", this.meter.openStreams);
        if (this.meter.webSocketMessages) this.span.attribute("mcp_edge.websocket_messages", this.meter.webSocketMessages);
      }
      this.span.end();
    }
    if (!this.observer.hasSink) return;
    const { operation } = this;
    const target = targetOf(operation.method, operation.params);
    this.observer.emit(
      {
        place: this.at.place,
        method: operation.method,
        name: target,
        outcome: this.outcome,
        errorCode: this.errorCode,
        durationMs: Date.now() - this.started,
        doRequests: this.doRequests,
        sseEvents: this.meter?.sseEvents ?? 0,
        rowsWritten: this.rowsWritten(),
        bytesWritten: this.meter?.bytesWritten ?? 0,
        webSocketMessages: this.meter?.webSocketMessages ?? 0,
        openStreams: this.meter?.openStreams ?? 0,
        sessionId: operation.sessionId,
        protocolVersion: operation.protocolVersion,
      },
      this.at.env,
    );
  }
}

// The observer of each served server (createMcpEdge sets it): read by the Worker's lanes and the
// dispatcher without threading it through every lane. The object classes are handed it instead
// (durable-objects/shared/edge-binding.ts).
const observers = new WeakMap<object, Observer>();

/** Makes and records the observer of a server (none when nothing observes it); createMcpEdge also hands it to the objects. */
export function setObserver(server: object, tracing: TracingOptions | undefined, events: EventOptions): Observer | undefined {
  if (tracing === undefined && events.onEvent === undefined && events.analytics === undefined) return undefined;
  if (
    tracing !== undefined &&
    (typeof tracing !== "object" || tracing === null || typeof tracing.api?.trace?.setSpanContext !== "function")
  )
    throw new TypeError(
      'mcp-edge option tracing: pass { api } with the @opentelemetry/api module (import * as otel from "@opentelemetry/api")',
    );
  if (events.onEvent !== undefined && typeof events.onEvent !== "function")
    throw new TypeError("mcp-edge option onEvent must be a function");
  if (events.analytics !== undefined && typeof events.analytics?.binding !== "string")
    throw new TypeError(
      'mcp-edge option analytics: pass { binding: "MCP_ANALYTICS" }, the name of an [[analytics_engine_datasets]] binding',
    );
  const observer = new Observer(tracing, events);
  observers.set(server, observer);
  return observer;
}

export function observerOf(server: object): Observer | undefined {
  return observers.get(server);
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
