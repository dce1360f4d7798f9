/**
 * `observe({ tracing, onEvent, analytics })` (the subpath `mcp-edge/observe`): what an operator sees of each
 * MCP operation, as a feature: its span (OpenTelemetry, with `tracing`), and an event with its outcome and
 * what it cost in the platform's billed units, told to `onEvent` and written to a Workers Analytics Engine
 * dataset (`analytics`). One observation per operation in each place it runs (the Worker, its hop to the
 * session object, the session object, a task's run, and the objects' own units): docs/observe.md.
 * A Worker without this feature observes nothing and bundles none of it.
 */
import { observeObject } from "../../../durable-objects/observe/observed-object";
import type { Feature } from "../../kernel/feature";
import { targetOf } from "../../mcp/operations/middleware";
import type {
  EventOptions,
  Meter,
  Observation,
  ObservedKind,
  ObservedObject,
  Observer,
  OperationEvent,
  OwnUnits,
  Place,
} from "../../mcp/operations/observe";
import { Tracing, type Operation, type OperationSpan, type TracingOptions } from "../../mcp/operations/tracing";

export interface ObserveOptions extends EventOptions {
  /**
   * OpenTelemetry: `{ api }` with the `@opentelemetry/api` module (an optional peer), and optionally
   * a `tracer`. One span per MCP operation, continued from `_meta.traceparent` across the Worker,
   * the session object and task runs (docs/observe.md). Off unless given.
   */
  tracing?: TracingOptions;
}

interface AnalyticsDataset {
  writeDataPoint(point: { blobs?: string[]; doubles?: number[]; indexes?: string[] }): void;
}

/** The observer `observe()` makes for each edge it is passed to. */
class EdgeObserver implements Observer {
  /** The server's tracing (with `tracing`): also the objects' (the kernel hands them this observer). */
  readonly tracing: Tracing | undefined;
  /** Whether the missing Analytics Engine binding was reported: once per observer (per edge and isolate), not per event. */
  private reportedMissingDataset = false;

  constructor(
    tracing: TracingOptions | undefined,
    private readonly events: EventOptions,
  ) {
    this.tracing = tracing ? new Tracing(tracing) : undefined;
  }

  start(operation: Operation, place: Place, env: unknown): Observation {
    return new ObservedOperation(this.tracing?.start(operation), operation, this, { place, env });
  }

  get hasSink(): boolean {
    return this.events.onEvent !== undefined || this.events.analytics !== undefined;
  }

  emitOwn(place: Place, method: string, env: unknown, units: OwnUnits): void {
    if (this.hasSink) this.emit({ place, method, ...QUIET, ...units }, env);
  }

  observeObject(storage: DurableObjectStorage, kind: ObservedKind): ObservedObject | undefined {
    return observeObject(this, storage, kind);
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
        if (!this.reportedMissingDataset)
          console.error(
            `mcp-edge: observe({ analytics }) names the binding "${analytics.binding}", which this Worker does not have; its events are dropped. Add to wrangler.toml:\n\n[[analytics_engine_datasets]]\nbinding = "${analytics.binding}"\ndataset = "mcp_edge_operations"`,
          );
        this.reportedMissingDataset = true;
        return;
      }
      dataset.writeDataPoint({
        // blob1..5 and double1..7 in SQL: see docs/observe.md "Counters: `onEvent` and Analytics Engine".
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
    private readonly observer: EdgeObserver,
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

/** The options, checked when the feature is made: a wrong value is a programming error. */
function checkOptions(options: ObserveOptions): void {
  const { tracing, onEvent, analytics } = options;
  if (
    tracing !== undefined &&
    (typeof tracing !== "object" || tracing === null || typeof tracing.api?.trace?.setSpanContext !== "function")
  )
    throw new TypeError(
      'mcp-edge observe({ tracing }): pass { api } with the @opentelemetry/api module (import * as otel from "@opentelemetry/api")',
    );
  if (onEvent !== undefined && typeof onEvent !== "function")
    throw new TypeError("mcp-edge observe({ onEvent }): onEvent must be a function");
  if (analytics !== undefined && typeof analytics?.binding !== "string")
    throw new TypeError(
      'mcp-edge observe({ analytics }): pass { binding: "MCP_ANALYTICS" }, the name of an [[analytics_engine_datasets]] binding',
    );
}

/**
 * Observes every operation of the edge it is passed to: spans with `tracing`, events to `onEvent` and to
 * the `analytics` dataset binding (docs/observe.md: its tracing and its counters).
 */
export function observe<Env = unknown>(options: ObserveOptions): Feature<Env> {
  checkOptions(options);
  const { tracing, ...events } = options;
  return { name: "observe", seams: { observer: () => new EdgeObserver(tracing, events) } };
}
