/**
 * Tracing through OpenTelemetry, without depending on it: the user passes the
 * `@opentelemetry/api` module (an optional peer; nothing here imports it) and mcp-edge starts one
 * SERVER span per MCP operation, named and attributed by the OpenTelemetry MCP semantic
 * conventions (span name `{mcp.method.name} {target}`; mcp.method.name, gen_ai.tool.name,
 * gen_ai.prompt.name, mcp.resource.uri, mcp.session.id, mcp.protocol.version, jsonrpc.request.id,
 * error.type, rpc.response.status_code). The parent is the request's `_meta.traceparent` (W3C
 * Trace Context; reserved by 2026-07-28), or the hop before it: the Worker passes its span to the
 * session object in an internal header, and a task's record keeps the span of the request that
 * created it, so one call is one trace. Without `tracing` nothing of this runs (observe.ts decides).
 */
import type { Params } from "../../jsonrpc/messages";

/** The parts of `@opentelemetry/api` mcp-edge uses (structurally: pass the module itself). */
export interface OtelApi {
  trace: {
    getTracer(name: string, version?: string): OtelTracer;
    setSpanContext(context: unknown, spanContext: OtelSpanContext): unknown;
  };
  ROOT_CONTEXT: unknown;
}

export interface OtelSpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
  isRemote?: boolean;
}

export interface OtelSpan {
  spanContext(): OtelSpanContext;
  setAttribute(key: string, value: string | number | boolean): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: unknown): unknown;
  end(): void;
}

export interface OtelTracer {
  startSpan(name: string, options?: { kind?: number; attributes?: Record<string, string | number | boolean> }, context?: unknown): OtelSpan;
}

export interface TracingOptions {
  /** The `@opentelemetry/api` module: `import * as otel from "@opentelemetry/api"`. */
  api: OtelApi;
  /** The tracer to use (default: `api.trace.getTracer("mcp-edge")`). */
  tracer?: OtelTracer;
}

/** SpanKind.SERVER, SpanKind.CLIENT and SpanStatusCode.ERROR of @opentelemetry/api (stable values). */
const SPAN_KIND_SERVER = 1;
const SPAN_KIND_CLIENT = 2;
const STATUS_ERROR = 2;

/** What a lane knows of the operation a span describes. */
export interface Operation {
  method: string;
  params: Params;
  requestId?: string | number;
  sessionId?: string;
  protocolVersion?: string;
  /** The hop before this one (a W3C traceparent), which wins over `_meta.traceparent`. */
  parent?: string;
}

/** One MCP operation's span. */
export interface OperationSpan {
  /** This span as a W3C traceparent, for the next hop (undefined when not traced). */
  readonly traceparent: string | undefined;
  /** A JSON-RPC error answered the request: its code. */
  failed(code: number, message: string): void;
  /** A tool result with isError. */
  toolFailed(): void;
  /** An exception escaped (the client saw a reference). */
  threw(error: unknown): void;
  /** Sets one more attribute (the cost counters, before `end`). */
  attribute(key: string, value: number | string): void;
  end(): void;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** A W3C traceparent as a remote span context, or undefined when absent or malformed (all-zero ids are invalid). */
function parseTraceparent(value: unknown): OtelSpanContext | undefined {
  if (typeof value !== "string") return undefined;
  const m = TRACEPARENT.exec(value.trim());
  if (!m || /^0+$/.test(m[1] as string) || /^0+$/.test(m[2] as string)) return undefined;
  return { traceId: m[1] as string, spanId: m[2] as string, traceFlags: Number.parseInt(m[3] as string, 16), isRemote: true };
}

function formatTraceparent(spanContext: OtelSpanContext): string {
  return `00-${spanContext.traceId}-${spanContext.spanId}-${(spanContext.traceFlags & 0xff).toString(16).padStart(2, "0")}`;
}

const NAMED: Readonly<Record<string, [field: string, attribute: string, inName: boolean]>> = {
  "tools/call": ["name", "gen_ai.tool.name", true],
  "prompts/get": ["name", "gen_ai.prompt.name", true],
  // A URI is high-cardinality: an attribute, never the span name (semantic conventions).
  "resources/read": ["uri", "mcp.resource.uri", false],
  "notifications/resources/updated": ["uri", "mcp.resource.uri", false],
};

/** A server's tracing, once configured: starts operation spans. */
export class Tracing {
  private readonly tracer: OtelTracer;

  constructor(private readonly options: TracingOptions) {
    this.tracer = options.tracer ?? options.api.trace.getTracer("mcp-edge");
  }

  /**
   * `kind` "client": an operation the server initiates (the hub's delivery of a notification:
   * the semantic conventions' `mcp.client` span, "reported by the MCP server when server initiates the operation").
   */
  start(operation: Operation, kind: "server" | "client" = "server"): OperationSpan {
    const attributes: Record<string, string | number | boolean> = { "mcp.method.name": operation.method };
    let name = operation.method;
    const named = Object.hasOwn(NAMED, operation.method) ? NAMED[operation.method] : undefined;
    const target = named ? operation.params[named[0]] : undefined;
    if (named && typeof target === "string") {
      attributes[named[1]] = target;
      if (named[2]) name = `${operation.method} ${target}`;
    }
    if (operation.method === "tools/call") attributes["gen_ai.operation.name"] = "execute_tool";
    if (operation.requestId !== undefined) attributes["jsonrpc.request.id"] = String(operation.requestId);
    if (operation.sessionId !== undefined) attributes["mcp.session.id"] = operation.sessionId;
    if (operation.protocolVersion !== undefined) attributes["mcp.protocol.version"] = operation.protocolVersion;
    const meta = operation.params._meta;
    const remote =
      parseTraceparent(operation.parent) ??
      parseTraceparent(typeof meta === "object" && meta !== null ? (meta as Params).traceparent : undefined);
    const api = this.options.api;
    const parent = remote ? api.trace.setSpanContext(api.ROOT_CONTEXT, remote) : api.ROOT_CONTEXT;
    const spanKind = kind === "server" ? SPAN_KIND_SERVER : SPAN_KIND_CLIENT;
    return new TracedOperation(this.tracer.startSpan(name, { kind: spanKind, attributes }, parent));
  }
}

/** One operation's span (docs/engine-notes.md "Classes for what a request builds"). */
class TracedOperation implements OperationSpan {
  #traceparent: string | undefined;

  constructor(private readonly span: OtelSpan) {}

  /** Formatted only for a hop that needs it (a forward, a task's creation). */
  get traceparent(): string {
    this.#traceparent ??= formatTraceparent(this.span.spanContext());
    return this.#traceparent;
  }

  failed(code: number, message: string): void {
    this.span.setAttribute("error.type", String(code));
    this.span.setAttribute("rpc.response.status_code", String(code));
    this.span.setStatus({ code: STATUS_ERROR, message });
  }

  toolFailed(): void {
    this.span.setAttribute("error.type", "tool_error");
    this.span.setStatus({ code: STATUS_ERROR });
  }

  threw(error: unknown): void {
    this.span.setAttribute("error.type", error instanceof Error ? error.name : "_OTHER");
    this.span.recordException(error);
    this.span.setStatus({ code: STATUS_ERROR });
  }

  attribute(key: string, value: number | string): void {
    this.span.setAttribute(key, value);
  }

  end(): void {
    this.span.end();
  }
}
