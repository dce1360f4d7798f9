/** The baseline: the one-tool server with sessions only (a 2025 session's object made at initialize). */
import { createMcpEdge, sessionObject } from "../../src/index";
import { server } from "./one-tool";

const edge = createMcpEdge(server);
export default edge.worker;
export const McpSession = sessionObject(edge);
