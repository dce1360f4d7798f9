/** Sessions + rate limits: one rule on a Workers Rate Limiting binding. */
import { sessions } from "../../src/features/sessions/index";
import { rateLimits } from "../../src/features/rate-limits/index";
import { createMcpEdge } from "../../src/index";
import { server } from "./one-tool";

const edge = createMcpEdge(server, { features: [sessions(), rateLimits([{ binding: "MCP_RATE_LIMIT" }])] });
export default edge.worker;
export const { McpSession } = edge.objects;
