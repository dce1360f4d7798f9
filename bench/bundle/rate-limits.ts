/** Sessions + rate limits: one rule on a Workers Rate Limiting binding. */
import { createMcpEdge, sessionObject } from "../../src/index";
import { server } from "./one-tool";

const edge = createMcpEdge(server, { rateLimits: [{ binding: "MCP_RATE_LIMIT" }] });
export default edge.worker;
export const McpSession = sessionObject(edge);
