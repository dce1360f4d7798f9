/**
 * The demo server with a tiny held-stream CPU budget (`streamCpuBudgetMs: 1`, about 17 small events
 * a stream) and a short `retry:`, so a real client's GET stream ends and resumes many times in one
 * test (test/e2e/held-stream-resume.test.ts).
 */
import { createMcpEdge } from "../../../src/edge";
import { demoServer } from "../../../src/demo/server";
import { sessions } from "../../../src/features/sessions/index";
import { hub } from "../../../src/features/hub/index";

const edge = createMcpEdge(demoServer, { features: [sessions(), hub()], streamCpuBudgetMs: 1, session: { retryMs: 50 } });

export default edge.worker;
export const { McpSession, McpHub } = edge.objects;
