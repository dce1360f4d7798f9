/**
 * The demo server with deferred sessions: `deferredSessions()` makes the session class and
 * has the Worker mint sealed session ids (MCP_STATE_SECRET is bound by vitest.config.ts), with
 * the default 30-minute idle timeout, so a test can look at an object before any alarm runs.
 */
import { demoServer } from "../../../src/demo/server";
import { createMcpEdge } from "../../../src/edge";
import { deferredSessions } from "../../../src/features/sessions/index";
import { hub } from "../../../src/features/hub/index";
import { tasks } from "../../../src/features/tasks/index";

const edge = createMcpEdge(demoServer, { features: [deferredSessions(), hub(), tasks()] });

export default edge.worker;
export const { McpSession, McpHub, McpTask } = edge.objects;
