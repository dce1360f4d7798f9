// Cloudflare's authless remote-MCP quick start (a calculator on McpAgent), rewritten for mcp-edge.
// What each McpAgent piece became: docs/migrate-from-mcpagent.md.
// The quick start's zod 3.25 stays: its "zod/v4" schemas, with zod's converter handed to defineServer once
// (they cannot produce JSON Schema by themselves). On zod 4.2 or later, import from "zod" and drop toJSONSchema.
import { z } from "zod/v4";
import { createMcpEdge, defineServer, text, toolError } from "mcp-edge";
import { legacySse, sessions } from "mcp-edge/sessions";

// Was: class MyMCP extends McpAgent { server = new McpServer({ … }); async init() { this.server.tool(…) } }.
// The definition is a module-level value: built once per isolate, not once per session object.
const server = defineServer({ name: "Authless Calculator", version: "1.0.0", toJSONSchema: z.toJSONSchema });

server.tool("add", { description: "Adds two numbers", input: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
  content: [text(String(a + b))],
}));

const operations = {
  add: (a: number, b: number) => a + b,
  subtract: (a: number, b: number) => a - b,
  multiply: (a: number, b: number) => a * b,
  divide: (a: number, b: number) => a / b,
};

server.tool(
  "calculate",
  {
    description: "Applies an arithmetic operation to two numbers",
    input: { operation: z.enum(["add", "subtract", "multiply", "divide"]), a: z.number(), b: z.number() },
  },
  ({ operation, a, b }) => {
    // A result the model sees as a failed call (isError), with this message.
    if (operation === "divide" && b === 0) return toolError("Cannot divide by zero");
    return { content: [text(String(operations[operation](a, b)))] };
  },
);

// Was: fetch() routing /sse to MyMCP.serveSSE("/sse") and /mcp to MyMCP.serve("/mcp"). mcp-edge
// serves the same two URLs: /mcp (Streamable HTTP, 2025 sessions and 2026-07-28) and /sse with
// /messages (the 2024-11-05 transport, `legacySse()`), so clients keep the URLs they were given.
const edge = createMcpEdge(server, { features: [sessions(), legacySse()] });
export default edge.worker;
// The session Durable Object (2025-era sessions); wrangler.toml binds it and says what became of MyMCP.
export const { McpSession } = edge.objects;
