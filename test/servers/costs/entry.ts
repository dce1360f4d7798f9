/**
 * The demo server with its objects metered (meter.ts: every request and every billed row counted)
 * and a short idle timeout (wrangler.toml's MCP_SESSION_IDLE_TIMEOUT_MS), so a test watches a
 * whole session life, alarms included, and holds docs/costs.md's table and the `onEvent`
 * counters against what the platform would bill.
 */
import { demoServer } from "../../../src/demo/server";
import { createMcpEdge } from "../../../src/edge";
import type { EdgeEnv } from "../../../src/http/runtime";
import type { OperationEvent } from "../../../src/mcp/operations/observe";
import { meteredObjects } from "./meter";
import { sessions } from "../../../src/features/sessions/index";
import { observe } from "../../../src/features/observe/index";
import { hub } from "../../../src/features/hub/index";
import { tasks } from "../../../src/features/tasks/index";

/** Every operation event, as the onEvent hook hears it (one isolate runs the Worker and its objects). */
export const events: OperationEvent[] = [];

// Keep-alives every 0.1 s: an object notices a client that left (its next write fails) within 0.2 s.
const edge = createMcpEdge(demoServer, {
  session: { keepAliveMs: 200 },
  features: [sessions(), hub(), tasks(), observe({ onEvent: (event) => events.push(event) })],
});
/** The same server with deferred sessions at /deferred/mcp (meteredObjects makes deferredSessionObject's class, which serves `edge`'s eager sessions the same). */
const deferred = createMcpEdge(demoServer, {
  path: "/deferred/mcp",
  session: { keepAliveMs: 200 },
  features: [sessions(), hub(), tasks(), observe({ onEvent: (event) => events.push(event) })],
});

export default {
  fetch(request, env, ctx) {
    const worker = new URL(request.url).pathname === "/deferred/mcp" ? deferred.worker : edge.worker;
    return worker.fetch!(request, env, ctx);
  },
} satisfies ExportedHandler<EdgeEnv>;
export const { McpSession, McpTask, McpHub } = meteredObjects(edge, deferred);
