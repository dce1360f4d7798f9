import { z } from "zod";
import { createMcpEdge, defineServer, text } from "mcp-edge";
import { sessions } from "mcp-edge/sessions";

const server = defineServer({ name: "my-mcp-server", version: "1.0.0" });

// A simple tool: answered by the Worker as JSON.
server.tool("add", { description: "Adds two numbers", input: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
  content: [text(String(a + b))],
}));

// An interactive tool: runs in the session's Durable Object and may ask the user.
server.interactiveTool("greet", { description: "Asks the user's name, then greets them" }, async (_args, ctx) => {
  const answer = await ctx.elicit("What is your name?", z.object({ name: z.string() }));
  return { content: [text(answer.action === "accept" ? `Hello, ${answer.content.name}!` : "Hello, stranger!")] };
});

const edge = createMcpEdge(server, { features: [sessions()] });
export default edge.worker;
export const { McpSession } = edge.objects;
