/**
 * Sessions + tracing: one span per operation. A user passes `@opentelemetry/api`; this stand-in
 * hands out spans that record nothing, so the delta is mcp-edge's tracing code and not the API's.
 */
import { sessions } from "../../src/features/sessions/index";
import { observe } from "../../src/features/observe/index";
import { createMcpEdge, type OtelApi, type OtelSpan } from "../../src/index";
import { server } from "./one-tool";

const span = {
  spanContext: () => ({ traceId: "0".repeat(32), spanId: "0".repeat(16), traceFlags: 0 }),
  setAttribute: () => span,
  setStatus: () => span,
  recordException: () => {},
  end: () => {},
} as unknown as OtelSpan;

const otel: OtelApi = {
  trace: { getTracer: () => ({ startActiveSpan: () => span }) as never, setSpanContext: (context) => context },
  ROOT_CONTEXT: {},
};

const edge = createMcpEdge(server, { features: [sessions(), observe({ tracing: { api: otel } })] });
export default edge.worker;
export const { McpSession } = edge.objects;
