/**
 * The demo Worker (wrangler.toml): the demo server in session mode at /mcp, the same server
 * stateless at /stateless/mcp, with its Server Card at /mcp/server-card, the AI Catalog and a
 * registry key, and at /deferred/mcp with deferred sessions (their object made when they first
 * need state; with MCP_STATE_SECRET set). A real project's entry looks the same with its own server.
 */
import { createMcpEdge, deferredSessionObject, type EdgeEnv, hubObject, taskObject, userObject } from "../index";
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

/** The same server at /deferred/mcp; its sessions share the session class below with /mcp's. */
const deferred = createMcpEdge(demoServer, { path: "/deferred/mcp" });

export default {
  fetch(request, env, ctx) {
    return (new URL(request.url).pathname === "/deferred/mcp" ? deferred : edge).worker.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<EdgeEnv>;
// deferredSessionObject's class serves /mcp's sessions (made at initialize) exactly as sessionObject's.
export const McpSession = deferredSessionObject(deferred);
export const McpHub = hubObject(edge);
export const McpTask = taskObject(edge);
export const McpUser = userObject(edge);
