import { exports } from "cloudflare:workers";
import { createTestClient } from "mcp-edge/testing";
import { describe, expect, it } from "vitest";

// The Worker under test, reached through its front door like a real client would.
const worker = (exports as unknown as { default: { fetch(request: Request): Promise<Response> } }).default;

describe("my MCP server", () => {
  it("lists its tools", async () => {
    const tools = await createTestClient(worker).listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["add", "greet"]);
  });

  it("adds two numbers", async () => {
    const result = await createTestClient(worker).callTool("add", { a: 2, b: 40 });
    expect(result.content).toEqual([{ type: "text", text: "42" }]);
  });

  it("greets the user by the name they give", async () => {
    const client = createTestClient(worker, { onElicit: () => ({ action: "accept", content: { name: "Ada" } }) });
    const result = await client.callTool("greet");
    expect(result.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
  });
});
