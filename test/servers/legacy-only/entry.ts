/**
 * The demo server serving the 2025 era only (`eras: ["2025"]`): what dual-era clients meet
 * at a server that does not speak 2026-07-28 (test/e2e/clients/legacy-only-server.test.ts).
 */
import { createMcpEdge } from "../../../src/edge";
import { sessionObject } from "../../../durable-objects/sessions/classes";
import { demoServer } from "../../../src/demo/server";

const edge = createMcpEdge(demoServer, { eras: ["2025"] });

export default edge.worker;
export const McpSession = sessionObject(edge);
