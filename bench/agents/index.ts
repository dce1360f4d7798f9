/**
 * The bench's reference server: the same echo tool served by the `agents` package's stateless
 * `createMcpHandler` (an SDK v2 server factory per request), which answers 2026-07-28 requests.
 * scripts/bench.mjs drives it with the same tools/call as mcp-edge and the floor.
 */
import { McpServer } from "@modelcontextprotocol/server";
import { createMcpHandler } from "agents/mcp/server";
import { z } from "zod";

function build(): McpServer {
  const server = new McpServer({ name: "bench-agents", version: "1.0.0" });
  server.registerTool("echo", { description: "Echoes a text", inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  return server;
}

const handler = createMcpHandler(build);
export default { fetch: (request: Request, env: unknown, ctx: ExecutionContext) => handler(request, env, ctx) };
