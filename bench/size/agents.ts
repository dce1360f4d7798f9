/** The size comparison's server, built with Cloudflare's `agents` createMcpHandler (SDK v2 server factory), stateless. */
import { McpServer } from "@modelcontextprotocol/server";
import { createMcpHandler } from "agents/mcp/server";
import { z } from "zod";

function build(): McpServer {
  const server = new McpServer({ name: "size", version: "1.0.0" });
  server.registerTool("echo", { description: "Echoes a text", inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  server.registerTool("add", { description: "Adds two numbers", inputSchema: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => ({
    content: [{ type: "text", text: String(a + b) }],
  }));
  server.registerResource("about", "info://about", { mimeType: "text/plain" }, (uri) => ({
    contents: [{ uri: uri.href, text: "a small server" }],
  }));
  server.registerPrompt("greet", { description: "Greets someone", argsSchema: z.object({ name: z.string() }) }, ({ name }) => ({
    messages: [{ role: "user", content: { type: "text", text: `Say hello to ${name}` } }],
  }));
  return server;
}

const handler = createMcpHandler(build);
export default { fetch: (request: Request, env: unknown, ctx: ExecutionContext) => handler(request, env, ctx) };
