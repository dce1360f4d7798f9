/**
 * The demo server with small session limits, for tests of behaviour that the defaults make
 * slow or unreachable (keep-alives, request timeouts, SSE polling, the stream and
 * subscription caps, handlers running at once).
 */
import { createMcpEdge } from "../../../src/edge";
import { sessionObject } from "../../../durable-objects/sessions/classes";
import { demoServer } from "../../../src/demo/server";

export const TUNED = {
  keepAliveMs: 100,
  requestTimeoutMs: 300,
  pollAfterMs: 150,
  maxStreams: 2,
  maxPendingRequests: 32,
  maxSubscriptions: 3,
  maxConcurrentRuns: 3,
} as const;

const edge = createMcpEdge(demoServer, { session: TUNED });

export default edge.worker;
// The deprecated forms on purpose (the factory, the bare McpHub): they keep working for one release.
export const McpSession = sessionObject(edge);
export { McpHub } from "../../../src/index";
