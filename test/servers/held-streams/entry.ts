/**
 * The demo server with a tiny held-stream CPU budget (`streamCpuBudgetMs: 1`, about 17 small events
 * a stream) and a short `retry:`, so a real client's GET stream ends and resumes many times in one
 * test (test/e2e/held-stream-resume.test.ts).
 */
import { createMcpEdge } from "../../../src/edge";
import { hubObject } from "../../../durable-objects/hub/mcp-hub";
import { sessionObject } from "../../../durable-objects/sessions/classes";
import { demoServer } from "../../../src/demo/server";

const edge = createMcpEdge(demoServer, { streamCpuBudgetMs: 1, session: { retryMs: 50 } });

export default edge.worker;
export const McpSession = sessionObject(edge);
export const McpHub = hubObject(edge);
