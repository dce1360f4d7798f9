/**
 * The demo Worker (wrangler.toml): the demo server in session mode at /mcp, and the same server
 * stateless at /stateless/mcp, with its Server Card at /mcp/server-card, the AI Catalog and a
 * registry key. A real project's entry looks the same with its own server.
 */
import { createMcpEdge, hubObject, sessionObject, taskObject, userObject } from "../index";
import { demoServer } from "./server";

const edge = createMcpEdge(demoServer, {
  path: "/mcp",
  statelessPath: "/stateless/mcp",
  discovery: {
    // A placeholder namespace (example.com is reserved): a real server uses the domain it verifies.
    name: "com.example.mcp-edge/demo",
    // The public half of a throwaway Ed25519 key (its private half was never kept): replace it with
    // the record `mcp-publisher` prints for your domain.
    registryAuth: "v=MCPv1; k=ed25519; p=5nrHg/hQWhzTYGJDQagZYKUWSz3gUb0ULiOHtvq7r7g=",
  },
});

export default edge.worker;
export const McpSession = sessionObject(edge);
export const McpHub = hubObject(edge);
export const McpTask = taskObject(edge);
export const McpUser = userObject(edge);
