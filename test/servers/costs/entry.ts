/**
 * The demo server with its objects metered (meter.ts: every request and every billed row counted)
 * and a short idle timeout (wrangler.toml's MCP_SESSION_IDLE_TIMEOUT_MS), so a test watches a
 * whole session life, alarms included, and holds docs/costs.md's table and the `onEvent`
 * counters against what the platform would bill.
 */
import { hubObject } from "../../../durable-objects/hub/mcp-hub";
import { taskObject } from "../../../src/tasks/task-object";
import { sessionObject } from "../../../durable-objects/session/mcp-session";
import { demoServer } from "../../../src/demo/server";
import { createMcpEdge } from "../../../src/edge";
import type { OperationEvent } from "../../../src/mcp/operations/observe";
import { metered } from "./meter";

/** Every operation event, as the onEvent hook hears it (one isolate runs the Worker and its objects). */
export const events: OperationEvent[] = [];

// Keep-alives every 0.1 s: an object notices a client that left (its next write fails) within 0.2 s.
const edge = createMcpEdge(demoServer, { session: { keepAliveMs: 200 }, onEvent: (event) => events.push(event) });

export default edge.worker;
export const McpSession = metered(sessionObject(edge), "session", ["init", "confirm", "resourceUpdated", "listChanged", "settled"]);
export const McpTask = metered(taskObject(edge), "task", [
  "taskCreate",
  "taskGet",
  "taskVisible",
  "taskUpdate",
  "taskCancel",
  "ledgerReserve",
  "ledgerRelease",
]);
export const McpHub = metered(hubObject(edge), "hub", [
  "register",
  "unregister",
  "forget",
  "publish",
  "activate",
  "deliver",
  "closeListeners",
]);
