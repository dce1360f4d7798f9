// The Vercel AI SDK's MCP client (@ai-sdk/mcp) in its default mode, which probes
// server/discover first: against the demo under wrangler dev it must settle on 2026-07-28, list
// and call tools, and answer an eliciting tool through MRTR with its elicitation handler.
import { createMCPClient, ElicitationRequestSchema, type MCPClient } from "@ai-sdk/mcp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startWorker, type WorkerServer } from "../../../scripts/worker-server.mjs";
import { useCompatRecord } from "./helpers/record";
import { packageVersion } from "./helpers/compat.mjs";

useCompatRecord({
  id: "ai-sdk-mcp",
  order: 16,
  client: "Vercel AI SDK MCP client",
  version: `@ai-sdk/mcp ${packageVersion("@ai-sdk/mcp")}`,
  transport: "Streamable HTTP (default: server/discover probe)",
  exercised: ["server/discover probe", "tools/list", "tools/call", "MRTR elicitation"],
  protocol: "2026-07-28",
});

let server: WorkerServer | undefined;
let client: MCPClient | undefined;

beforeAll(async () => {
  const secret = [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("");
  server = await startWorker({ vars: { MCP_STATE_SECRET: secret } });
  client = await createMCPClient({ transport: { type: "http", url: server.mcpUrl }, capabilities: { elicitation: {} } });
  client.onElicitationRequest(ElicitationRequestSchema, async () => ({ action: "accept", content: { name: "Alice" } }));
}, 150_000);

afterAll(async () => {
  await client?.close();
  await server?.stop();
}, 30_000);

it("connects in its default mode and learns the server from server/discover", () => {
  expect(client!.serverInfo).toMatchObject({ name: "mcp-edge-demo" });
  expect(client!.initializeResult.protocolVersion).toBe("2026-07-28");
});

it("lists the tools and calls a simple one", async () => {
  const { tools } = await client!.listTools();
  expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["echo", "add"]));
  const result = await client!.callTool({ name: "echo", arguments: { text: "from the AI SDK" } });
  expect(result.content).toEqual([{ type: "text", text: "from the AI SDK" }]);
});

it("answers an eliciting tool through MRTR", async () => {
  const result = await client!.callTool({ name: "test_input_required_result_elicitation", arguments: {} });
  expect(result.content).toEqual([{ type: "text", text: "Hello, Alice!" }]);
});
