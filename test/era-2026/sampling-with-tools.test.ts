/**
 * Sampling with tools (SEP-1577; 2026-07-28 client/sampling.mdx "Tool Use"): `ctx.sample` sends
 * `tools`/`toolChoice` only to a request that declared `sampling.tools` (else 400 -32021 naming it),
 * and hands the handler every block of the answer, `tool_use` included, so it can run the tools and
 * ask again. Driven through the demo's ask_with_tools over MRTR rounds.
 */
import { describe, expect, it } from "vitest";
import { expectComplete, expectInputRequired, expect2026Error, post2026 } from "../helpers/era-2026";

const TOOLS = { sampling: { tools: {} } };
const QUESTION = { question: "What is the capital of France?" };
const USE = { type: "tool_use", id: "use-1", name: "capital_of", input: { country: "France" } };

function call(capabilities: Record<string, unknown>, extra: Record<string, unknown> = {}, id = 1) {
  return post2026("tools/call", { name: "ask_with_tools", arguments: QUESTION, ...extra }, { capabilities, id });
}

describe("sampling with tools on 2026-07-28", () => {
  it("refuses with 400 -32021 naming sampling.tools when the request declared sampling without tools", async () => {
    const body = await expect2026Error(await call({ sampling: {} }), 400, -32021);
    expect(body.error?.data).toEqual({ requiredCapabilities: { sampling: { tools: {} } } });
  });

  it("asks with the tools and toolChoice when the request declared sampling.tools", async () => {
    const first = await expectInputRequired(await call(TOOLS));
    expect(first.inputRequests.round_0).toEqual({
      method: "sampling/createMessage",
      params: {
        messages: [{ role: "user", content: { type: "text", text: QUESTION.question } }],
        maxTokens: 200,
        tools: [
          {
            name: "capital_of",
            description: "The capital city of a country",
            inputSchema: { type: "object", properties: { country: { type: "string" } }, required: ["country"] },
          },
        ],
        toolChoice: { mode: "auto" },
      },
    });
  });

  it("gives the handler a multi-block answer with tool_use, whose result goes back in the next round", async () => {
    const first = await expectInputRequired(await call(TOOLS));
    const toolTurn = { role: "assistant", model: "m", stopReason: "toolUse", content: [{ type: "text", text: "Let me check." }, USE] };
    const second = await expectInputRequired(
      await call(TOOLS, { inputResponses: { round_0: toolTurn }, requestState: first.requestState }, 2),
      2,
    );
    expect(second.inputRequests.round_1?.params.messages).toEqual([
      { role: "user", content: { type: "text", text: QUESTION.question } },
      { role: "assistant", content: toolTurn.content },
      { role: "user", content: [{ type: "tool_result", toolUseId: "use-1", content: [{ type: "text", text: "Paris" }], isError: false }] },
    ]);
    const final = { role: "assistant", model: "m", stopReason: "endTurn", content: [{ type: "text", text: "It is Paris." }] };
    const done = await expectComplete(
      await call(TOOLS, { inputResponses: { round_0: toolTurn, round_1: final }, requestState: second.requestState }, 3),
      3,
    );
    expect(done.content).toEqual([{ type: "text", text: "It is Paris." }]);
  });

  it("refuses a tool_use block without an object input as a malformed answer (-32602)", async () => {
    const first = await expectInputRequired(await call(TOOLS));
    const bad = { role: "assistant", model: "m", content: [{ type: "tool_use", id: "u", name: "capital_of", input: "France" }] };
    const body = await expect2026Error(
      await call(TOOLS, { inputResponses: { round_0: bad }, requestState: first.requestState }, 2),
      200,
      -32602,
      2,
    );
    expect(body.error?.message).toContain('(tool_use) needs an object "input"');
  });
});
