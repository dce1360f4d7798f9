/**
 * An in-memory stand-in for `@opentelemetry/api` with a recording tracer: the members mcp-edge
 * uses (trace.getTracer, trace.setSpanContext, ROOT_CONTEXT) with the API's shapes, and every
 * ended span kept with its name, kind, parent, attributes and status, as an in-memory exporter would.
 */
import type { OtelApi, OtelSpan, OtelSpanContext, OtelTracer } from "../../../src/mcp/operations/tracing";

export interface FinishedSpan {
  name: string;
  kind: number | undefined;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  attributes: Record<string, string | number | boolean>;
  status: { code: number; message?: string } | undefined;
  exceptions: unknown[];
}

export const finished: FinishedSpan[] = [];

function hex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

interface Context {
  span?: OtelSpanContext;
}

const ROOT_CONTEXT: Context = {};

const tracer: OtelTracer = {
  startSpan(name, options = {}, context) {
    const parent = (context as Context | undefined)?.span;
    const own: OtelSpanContext = { traceId: parent?.traceId ?? hex(16), spanId: hex(8), traceFlags: 1 };
    const record: FinishedSpan = {
      name,
      kind: options.kind,
      traceId: own.traceId,
      spanId: own.spanId,
      parentSpanId: parent?.spanId,
      attributes: { ...options.attributes },
      status: undefined,
      exceptions: [],
    };
    let ended = false;
    const span: OtelSpan = {
      spanContext: () => own,
      setAttribute(key, value) {
        record.attributes[key] = value;
        return span;
      },
      setStatus(status) {
        record.status = status;
        return span;
      },
      recordException(exception) {
        record.exceptions.push(exception);
      },
      end() {
        if (ended) throw new Error(`span "${name}" ended twice`);
        ended = true;
        finished.push(record);
      },
    };
    return span;
  },
};

export const memoryOtel: OtelApi = {
  ROOT_CONTEXT,
  trace: {
    getTracer: () => tracer,
    setSpanContext: (context, spanContext) => ({ ...(context as Context), span: spanContext }),
  },
};
