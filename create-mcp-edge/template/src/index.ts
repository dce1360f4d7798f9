import { z } from "zod";
import { createMcpEdge, defineServer, text } from "mcp-edge";
import { deferredSessions } from "mcp-edge/sessions";

const server = defineServer({ name: "my-mcp-server", version: "1.0.0" });

// A simple tool: answered by the Worker as JSON.
server.tool("add", { description: "Adds two numbers", input: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
  content: [text(String(a + b))],
}));

// An interactive tool: it asks the user. 2025 clients: in the session's Durable Object;
// 2026-07-28 clients: a multi round-trip request signed with MCP_STATE_SECRET (.dev.vars).
server.interactiveTool("greet", { description: "Asks the user's name, then greets them" }, async (_args, ctx) => {
  const answer = await ctx.elicit("What is your name?", z.object({ name: z.string() }));
  return { content: [text(answer.action === "accept" ? `Hello, ${answer.content.name}!` : "Hello, stranger!")] };
});

// The features this Worker serves; each brings its Durable Object class. A 2025 session gets its
// object only when it first needs state; until then its id carries the session, sealed with
// MCP_STATE_SECRET (`sessions()` makes one at initialize instead). For clients that speak only the
// 2024-11-05 HTTP+SSE transport (GET /sse), add `legacySse()` from "mcp-edge/sessions" to the features.
const edge = createMcpEdge(server, { features: [deferredSessions()] });
export default edge.worker;
// The class wrangler.toml names.
export const { McpSession } = edge.objects;
