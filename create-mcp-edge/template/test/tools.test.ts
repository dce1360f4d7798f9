import { exports } from "cloudflare:workers";
import { createTestClient } from "mcp-edge/testing";
import { describe, expect, it } from "vitest";

// The Worker under test, reached through its front door like a real client would.
const worker = (exports as unknown as { default: { fetch(request: Request): Promise<Response> } }).default;

// The same tests for a 2025 client (a session) and a 2026-07-28 client (no session; an ask is a
// multi round-trip request: the call answers input_required, the client answers and retries).
describe.each(["2025-11-25", "2026-07-28"])("my MCP server, protocol %s", (protocolVersion) => {
  it("lists its tools", async () => {
    const tools = await createTestClient(worker, { protocolVersion }).listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["add", "greet"]);
  });

  it("adds two numbers", async () => {
    const result = await createTestClient(worker, { protocolVersion }).callTool("add", { a: 2, b: 40 });
    expect(result.content).toEqual([{ type: "text", text: "42" }]);
  });

  it("greets the user by the name they give", async () => {
    const client = createTestClient(worker, { protocolVersion, onElicit: () => ({ action: "accept", content: { name: "Ada" } }) });
    const result = await client.callTool("greet");
    expect(result.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
    // 2026-07-28: one round asked, the second (with the answer) completed; the handler ran twice.
    expect(client.rounds).toBe(protocolVersion === "2026-07-28" ? 2 : 1);
  });
});
