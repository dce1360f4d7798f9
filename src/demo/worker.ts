/**
 * The demo Worker (wrangler.toml): the demo server in session mode at /mcp, and the same server
 * stateless at /stateless/mcp. A real project's entry looks the same with its own server.
 */
import { createMcpEdge } from "../index";
import { demoServer } from "./server";

const edge = createMcpEdge(demoServer, { path: "/mcp", statelessPath: "/stateless/mcp" });

export default edge.worker;
export const McpSession = edge.SessionObject;
export const McpTask = edge.TaskObject;
export { McpHub, McpUser } from "../index";
