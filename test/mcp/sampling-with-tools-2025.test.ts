/**
 * Sampling with tools on a 2025-11-25 session (SEP-1577 came with 2025-11-25): the session's
 * declared capabilities decide, so a client without `sampling.tools` is never sent tools (the tool
 * fails with the reason), and one with it gets the tools and answers with tool_use blocks.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createTestClient, type Fetcher } from "../../src/testing/index";

const worker = (exports as unknown as { default: Fetcher }).default;
const URL = "http://127.0.0.1:8787/mcp";
const QUESTION = { question: "What is the capital of Japan?" };

describe("sampling with tools on a 2025-11-25 session", () => {
  it("fails the tool without asking when the session did not declare sampling.tools", async () => {
    let asked = 0;
    const client = createTestClient(worker, {
      url: URL,
      capabilities: { sampling: {} },
      onSample: () => {
        asked++;
        return { role: "assistant", model: "m", content: { type: "text", text: "?" } };
      },
    });
    const result = await client.callTool("ask_with_tools", QUESTION);
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain('did not declare "sampling.tools"');
    expect(asked).toBe(0);
  });

  it("sends the tools to a session that declared sampling.tools and runs the model's tool_use", async () => {
    const asked: Record<string, unknown>[] = [];
    const client = createTestClient(worker, {
      url: URL,
      capabilities: { sampling: { tools: {} } },
      onSample: (params) => {
        asked.push(params);
        if (asked.length === 1)
          return {
            role: "assistant",
            model: "m",
            stopReason: "toolUse",
            content: [{ type: "tool_use", id: "t1", name: "capital_of", input: { country: "Japan" } }],
          };
        return { role: "assistant", model: "m", stopReason: "endTurn", content: [{ type: "text", text: "Tokyo." }] };
      },
    });
    const result = await client.callTool("ask_with_tools", QUESTION);
    expect(result.content).toEqual([{ type: "text", text: "Tokyo." }]);
    expect(asked[0]).toMatchObject({ tools: [{ name: "capital_of" }], toolChoice: { mode: "auto" } });
    expect((asked[1]?.messages as unknown[])[2]).toEqual({
      role: "user",
      content: [{ type: "tool_result", toolUseId: "t1", content: [{ type: "text", text: "Tokyo" }], isError: false }],
    });
  });
});
