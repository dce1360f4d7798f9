/** The baseline: the one-tool server with sessions only (a 2025 session's object made at initialize). */
import { sessions } from "../../src/features/sessions/index";
import { createMcpEdge } from "../../src/index";
import { server } from "./one-tool";

const edge = createMcpEdge(server, { features: [sessions()] });
export default edge.worker;
export const { McpSession } = edge.objects;
