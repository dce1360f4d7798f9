/**
 * The demo server with small session limits, for tests of behaviour that the defaults make
 * slow or unreachable (keep-alives, request timeouts, SSE polling, the stream and
 * subscription caps, handlers running at once).
 */
import { createMcpEdge } from "../../../src/edge";
import { sessions } from "../../../src/features/sessions/index";
import { hub } from "../../../src/features/hub/index";
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

const edge = createMcpEdge(demoServer, { features: [sessions(TUNED), hub()] });

export default edge.worker;
export const { McpSession, McpHub } = edge.objects;
