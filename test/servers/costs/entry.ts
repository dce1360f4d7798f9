/**
 * The demo server with its objects metered (meter.ts: every request and every billed row counted)
 * and a short idle timeout (wrangler.toml's MCP_SESSION_IDLE_TIMEOUT_MS), so a test watches a
 * whole session life, alarms included, and holds docs/costs.md's table and the `onEvent`
 * counters against what the platform would bill.
 */
import { demoServer } from "../../../src/demo/server";
import { createMcpEdge } from "../../../src/edge";
import type { OperationEvent } from "../../../src/mcp/operations/observe";
import { meteredObjects } from "./meter";

/** Every operation event, as the onEvent hook hears it (one isolate runs the Worker and its objects). */
export const events: OperationEvent[] = [];

// Keep-alives every 0.1 s: an object notices a client that left (its next write fails) within 0.2 s.
const edge = createMcpEdge(demoServer, { session: { keepAliveMs: 200 }, onEvent: (event) => events.push(event) });

export default edge.worker;
export const { McpSession, McpTask, McpHub } = meteredObjects(edge);
