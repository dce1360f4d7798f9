/**
 * The bench's operate Worker (scripts/bench.mjs, scenario "operate"): the demo's echo tool on
 * three servers of the same definition, each served 2026-07-28 tools/call at its own path:
 * `/plain/mcp` (no middleware, no tracer), `/operated/mcp` (one middleware and tracing on, the
 * issue's budget: ≤ +10 % CPU per call) and `/middleware/mcp` (the middleware alone, to tell the
 * two costs apart). The tracer stands in for an SDK's with a no-op exporter: it records each span
 * (random ids, attributes, status) and hands it, ended, to an exporter that drops it.
 */
import { z } from "zod";
import { createMcpEdge } from "../../src/edge";
import type { EdgeEnv } from "../../src/kernel/env";
import { text } from "../../src/mcp/definition/content";
import { defineServer } from "../../src/mcp/definition/server";
import type { OtelApi, OtelSpan, OtelSpanContext, OtelTracer } from "../../src/mcp/operations/tracing";

function echoServer(name: string) {
  return defineServer<EdgeEnv>({ name, version: "1.0.0" }).tool(
    "echo",
    { description: "Echoes the given text back unchanged.", input: z.object({ text: z.string().describe("The text to echo") }) },
    ({ text: value }) => ({ content: [text(value)] }),
  );
}

/** One middleware as an operator writes it: counts calls per tool, then runs the call. */
function withMiddleware<S extends ReturnType<typeof echoServer>>(server: S): S {
  const calls = new Map<string, number>();
  server.use(async (call, next) => {
    if (call.method === "tools/call") calls.set(call.name, (calls.get(call.name) ?? 0) + 1);
    return next();
  });
  return server;
}

// ---- a recording tracer with a no-op exporter ---------------------------------------------

type Attributes = Record<string, string | number | boolean>;
interface Context {
  span?: OtelSpanContext;
}

const ids = new Uint8Array(24);
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

function hex(from: number, to: number): string {
  let out = "";
  for (let i = from; i < to; i++) out += HEX[ids[i] as number];
  return out;
}

/** What an SDK exporter would be handed; this one drops it. */
interface Finished {
  name: string;
  context: OtelSpanContext;
  parentSpanId: string | undefined;
  attributes: Attributes;
  status: { code: number; message?: string } | undefined;
  startTime: number;
  endTime: number;
}
const exporter = { export: (_span: Finished) => undefined };

class RecordingSpan implements OtelSpan {
  private readonly attributes: Attributes;
  private status: Finished["status"];
  private readonly startTime = Date.now();

  constructor(
    private readonly name: string,
    private readonly context: OtelSpanContext,
    private readonly parentSpanId: string | undefined,
    attributes: Attributes | undefined,
  ) {
    this.attributes = { ...attributes };
  }

  spanContext(): OtelSpanContext {
    return this.context;
  }
  setAttribute(key: string, value: string | number | boolean): this {
    this.attributes[key] = value;
    return this;
  }
  setStatus(status: { code: number; message?: string }): this {
    this.status = status;
    return this;
  }
  recordException(_exception: unknown): void {}
  end(): void {
    const { name, context, parentSpanId, attributes, status, startTime } = this;
    exporter.export({ name, context, parentSpanId, attributes, status, startTime, endTime: Date.now() });
  }
}

const tracer: OtelTracer = {
  startSpan(name, options = {}, context) {
    const parent = (context as Context | undefined)?.span;
    crypto.getRandomValues(ids);
    const own = { traceId: parent?.traceId ?? hex(8, 24), spanId: hex(0, 8), traceFlags: 1 };
    return new RecordingSpan(name, own, parent?.spanId, options.attributes);
  },
};

const otel: OtelApi = {
  ROOT_CONTEXT: {},
  trace: { getTracer: () => tracer, setSpanContext: (context, span) => ({ ...(context as Context), span }) },
};

// ---- the three servers ---------------------------------------------------------------------

const plain = createMcpEdge(echoServer("bench-plain"), { path: "/plain/mcp", sessions: false });
const operated = createMcpEdge(withMiddleware(echoServer("bench-operated")), {
  path: "/operated/mcp",
  sessions: false,
  tracing: { api: otel },
});
const middlewareOnly = createMcpEdge(withMiddleware(echoServer("bench-middleware")), { path: "/middleware/mcp", sessions: false });

export default {
  async fetch(request, env, ctx) {
    const path = new URL(request.url).pathname;
    const edge = path === "/operated/mcp" ? operated : path === "/middleware/mcp" ? middlewareOnly : plain;
    return edge.worker.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<EdgeEnv>;
