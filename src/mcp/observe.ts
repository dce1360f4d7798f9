/**
 * What an operator sees of each MCP operation: its span (tracing.ts, with tracing on), and an
 * event with its outcome and what it cost in the platform's billed units, told to the `onEvent`
 * hook and written to a Workers Analytics Engine dataset when one is bound. One observation per
 * operation in each place it runs: the Worker ("worker"), the Worker's hop to the session object
 * ("forward"), the session object ("session") and a task's run ("task"). Without tracing, hook or
 * dataset nothing is observed and nothing here runs.
 */
import { Tracing, type Operation, type OperationSpan, type TracingOptions } from "./tracing";

export type Place = "worker" | "forward" | "session" | "task";

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
  /** Durable Object requests this place made for the operation (a forward, a `confirm`, a task object call). */
  doRequests: number;
  sessionId: string | undefined;
  protocolVersion: string | undefined;
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
}

const NAMED: Readonly<Record<string, string>> = { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" };

const NO_SPAN: OperationSpan = { traceparent: "", failed() {}, toolFailed() {}, threw() {}, attribute() {}, end() {} };

export class Observer {
  private readonly tracing: Tracing | undefined;

  constructor(
    tracing: TracingOptions | undefined,
    private readonly events: EventOptions,
  ) {
    this.tracing = tracing ? new Tracing(tracing) : undefined;
  }

  get traced(): boolean {
    return this.tracing !== undefined;
  }

  start(op: Operation, place: Place, env: unknown): Observation {
    const span = this.tracing?.start(op) ?? NO_SPAN;
    const field = Object.hasOwn(NAMED, op.method) ? NAMED[op.method] : undefined;
    const target = field === undefined ? undefined : op.params[field];
    const event: OperationEvent = {
      place,
      method: op.method,
      name: typeof target === "string" ? target : undefined,
      outcome: "ok",
      errorCode: undefined,
      durationMs: 0,
      doRequests: 0,
      sessionId: op.sessionId,
      protocolVersion: op.protocolVersion,
    };
    const started = Date.now();
    const emit = () => this.emit(event, env);
    return {
      get traceparent() {
        return span.traceparent || undefined;
      },
      countDoRequests(n = 1) {
        event.doRequests += n;
      },
      failed(code, message) {
        event.outcome = "error";
        event.errorCode = code;
        span.failed(code, message);
      },
      toolFailed() {
        event.outcome = "tool_error";
        span.toolFailed();
      },
      threw(error) {
        event.outcome = "error";
        span.threw(error);
      },
      attribute(key, value) {
        span.attribute(key, value);
      },
      end() {
        event.durationMs = Date.now() - started;
        // The cost counters as span attributes (mcp-edge's own names).
        span.attribute("mcp_edge.place", place);
        span.attribute("mcp_edge.do_requests", event.doRequests);
        span.end();
        emit();
      },
    } as Observation;
  }

  private emit(event: OperationEvent, env: unknown): void {
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
        // blob1..5 and double1..3 in SQL: see docs/operating.md "Counters".
        blobs: [event.method, event.name ?? "", event.place, event.outcome, event.errorCode === undefined ? "" : String(event.errorCode)],
        doubles: [event.durationMs, event.doRequests, 1],
        indexes: [event.name ?? event.method],
      });
    }
  }
}

// The observer of each served server (createMcpEdge sets it): read by the dispatcher, the
// forwarding hop and the task run without threading it through every lane.
const observers = new WeakMap<object, Observer>();

export function setObserver(server: object, tracing: TracingOptions | undefined, events: EventOptions): void {
  if (tracing === undefined && events.onEvent === undefined && events.analytics === undefined) return;
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
  observers.set(server, new Observer(tracing, events));
}

export function observerOf(server: object): Observer | undefined {
  return observers.get(server);
}

// The observation of the request a handler context serves, for the hops it starts (a task's creation).
const observations = new WeakMap<object, Observation>();

export function bindObservation(ctx: object, observation: Observation): void {
  observations.set(ctx, observation);
}

/** The observation of the operation `ctx` serves, when observed. */
export function observationOf(ctx: object): Observation | undefined {
  return observations.get(ctx);
}
