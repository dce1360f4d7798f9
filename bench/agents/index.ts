/**
 * The bench's reference servers: the same echo tool served by the `agents` package's stateless
 * `createMcpHandler` (an SDK v2 server factory per request), which answers 2026-07-28 requests,
 * and by its `McpAgent` (a Durable Object per 2025-era session, SDK v1) at /agent/mcp, the
 * reference for session creation. bench/run.mjs drives them with the same requests as
 * mcp-edge and the floor.
 */
import { McpServer as McpServerV1 } from "@modelcontextprotocol/sdk/server/mcp.js";
import { McpServer } from "@modelcontextprotocol/server";
import { McpAgent } from "agents/mcp";
import { createMcpHandler } from "agents/mcp/server";
import { z } from "zod";

function build(): McpServer {
  const server = new McpServer({ name: "bench-agents", version: "1.0.0" });
  server.registerTool("echo", { description: "Echoes a text", inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  return server;
}

/** One 2025-era session per object, as McpAgent serves it. */
export class EchoAgent extends McpAgent {
  server = new McpServerV1({ name: "bench-mcpagent", version: "1.0.0" });

  async init(): Promise<void> {
    this.server.registerTool("echo", { description: "Echoes a text", inputSchema: { text: z.string() } }, ({ text }) => ({
      content: [{ type: "text", text }],
    }));
  }
}

const handler = createMcpHandler(build);
const agent = EchoAgent.serve("/agent/mcp");
export default {
  fetch: (request: Request, env: unknown, ctx: ExecutionContext) =>
    new URL(request.url).pathname.startsWith("/agent/mcp") ? agent.fetch(request, env, ctx) : handler(request, env, ctx),
};
