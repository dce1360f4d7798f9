/**
 * The demo Worker (wrangler.toml): the demo server in session mode at /mcp, the same server
 * stateless at /stateless/mcp, with its Server Card at /mcp/server-card, the AI Catalog and a
 * registry key, the 2024-11-05 HTTP+SSE transport at /sse and /messages, and at /deferred/mcp with deferred sessions (their object made when they first
 * need state; with MCP_STATE_SECRET set). /mcp serves the demo's event types (events.ts), and
 * POST /events/notes emits one. A real project's entry looks the same with its own server.
 */
import { createMcpEdge, type EdgeEnv } from "../index";
import { deferredSessions, legacySse, sessions } from "../features/sessions/index";
import { tasks } from "../features/tasks/index";
import { hub } from "../features/hub/index";
import { user } from "../features/user/index";
import { discovery } from "../features/discovery/index";
import { demoEvents, postNote } from "./events";
import { demoServer } from "./server";

const edge = createMcpEdge(demoServer, {
  features: [
    sessions(),
    // GET /sse and POST /messages, for clients that speak only the 2024-11-05 HTTP+SSE transport.
    legacySse(),
    tasks(),
    hub(),
    user(),
    demoEvents,
    discovery({
      // A placeholder namespace (example.com is reserved): a real server uses the domain it verifies.
      name: "com.example.mcp-edge/demo",
      // The public half of a throwaway Ed25519 key (its private half was never kept): replace it with
      // the record `mcp-publisher` prints for your domain.
      registryAuth: "v=MCPv1; k=ed25519; p=5nrHg/hQWhzTYGJDQagZYKUWSz3gUb0ULiOHtvq7r7g=",
    }),
  ],
  path: "/mcp",
  statelessPath: "/stateless/mcp",
});

/** The same server at /deferred/mcp; its sessions share the session class below with /mcp's. */
const deferred = createMcpEdge(demoServer, {
  path: "/deferred/mcp",
  // legacySse() here too: this edge's session class serves /mcp's sessions, those of /sse included.
  features: [deferredSessions(), legacySse(), tasks(), hub(), user()],
});

export default {
  fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    // The demo's inbound route: what a Stripe or GitHub webhook route of a real server does (emits an event).
    if (pathname === "/events/notes") return postNote(request, env);
    return (pathname === "/deferred/mcp" ? deferred : edge).worker.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<EdgeEnv>;
// The deferred session class serves /mcp's sessions (made at initialize) exactly as the plain one.
export const { McpSession } = deferred.objects;
export const { McpHub, McpTask, McpUser, McpEvents } = edge.objects;
