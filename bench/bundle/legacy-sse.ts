/** Sessions plus the 2024-11-05 HTTP+SSE transport (`legacySse()`: GET /sse, POST /messages). */
import { legacySse, sessions } from "../../src/features/sessions/index";
import { createMcpEdge } from "../../src/index";
import { server } from "./one-tool";

const edge = createMcpEdge(server, { features: [sessions(), legacySse()] });
export default edge.worker;
export const { McpSession } = edge.objects;
