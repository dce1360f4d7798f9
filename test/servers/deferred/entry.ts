/**
 * The demo server with deferred sessions: `deferredSessionObject(edge)` makes the session class and
 * has the Worker mint sealed session ids (MCP_STATE_SECRET is bound by vitest.config.ts), with
 * the default 30-minute idle timeout, so a test can look at an object before any alarm runs.
 */
import { deferredSessionObject } from "../../../durable-objects/sessions/deferred";
import { hubObject } from "../../../durable-objects/hub/mcp-hub";
import { demoServer } from "../../../src/demo/server";
import { createMcpEdge } from "../../../src/edge";
import { taskObject } from "../../../src/tasks/task-object";

const edge = createMcpEdge(demoServer);

export default edge.worker;
export const McpSession = deferredSessionObject(edge);
export const McpHub = hubObject(edge);
export const McpTask = taskObject(edge);
