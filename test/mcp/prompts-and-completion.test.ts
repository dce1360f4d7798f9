/** prompts/list, prompts/get and completion/complete (2025-06-18 "Prompts" and "Completion"). */
import { beforeAll, describe, expect, it } from "vitest";
import { INVALID_PARAMS } from "../../src/jsonrpc/errors";
import { PNG_1X1_BASE64 } from "../../src/demo/assets";
import { openSession, post } from "../helpers/mcp";
import { expectResult, expectRpcError } from "../helpers/rpc-expect";

let session: { sessionId: string; version: string };
beforeAll(async () => {
  session = await openSession("2025-06-18");
});

function rpc(method: string, params: Record<string, unknown> = {}): Promise<Response> {
  return post({ jsonrpc: "2.0", id: 1, method, params }, session);
}

function complete(ref: Record<string, unknown>, name: string, value: string): Promise<Response> {
  return rpc("completion/complete", { ref, argument: { name, value } });
}

describe("prompts/list", () => {
  it("lists the fixture prompts with their arguments (the four of 0.1.16, then 0.2's interactive one)", async () => {
    const result = await expectResult(await rpc("prompts/list"));
    const prompts = result.prompts as { name: string; arguments?: unknown[] }[];
    expect(prompts.map((p) => p.name)).toEqual([
      "test_simple_prompt",
      "test_prompt_with_arguments",
      "test_prompt_with_embedded_resource",
      "test_prompt_with_image",
      "test_input_required_result_prompt",
    ]);
    expect(prompts[0]).not.toHaveProperty("arguments");
    expect(prompts[1]?.arguments).toEqual([
      { name: "arg1", description: "First test argument", required: true },
      { name: "arg2", description: "Second test argument", required: true },
    ]);
  });
});

describe("prompts/get", () => {
  it("returns a prompt without arguments", async () => {
    expect(await expectResult(await rpc("prompts/get", { name: "test_simple_prompt" }))).toEqual({
      messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }],
    });
  });

  it("substitutes the arguments", async () => {
    const result = await expectResult(
      await rpc("prompts/get", { name: "test_prompt_with_arguments", arguments: { arg1: "hello", arg2: "world" } }),
    );
    expect(result.messages).toEqual([
      { role: "user", content: { type: "text", text: "Prompt with arguments: arg1='hello', arg2='world'" } },
    ]);
  });

  it("embeds the resource named by its argument", async () => {
    const result = await expectResult(
      await rpc("prompts/get", { name: "test_prompt_with_embedded_resource", arguments: { resourceUri: "test://x" } }),
    );
    expect(result.messages).toEqual([
      {
        role: "user",
        content: {
          type: "resource",
          resource: { uri: "test://x", mimeType: "text/plain", text: "Embedded resource content for testing." },
        },
      },
      { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
    ]);
  });

  it("includes an image", async () => {
    const result = await expectResult(await rpc("prompts/get", { name: "test_prompt_with_image" }));
    expect(result.messages).toEqual([
      { role: "user", content: { type: "image", data: PNG_1X1_BASE64, mimeType: "image/png" } },
      { role: "user", content: { type: "text", text: "Please analyze the image above." } },
    ]);
  });

  it("answers a missing required argument with -32602", async () => {
    await expectRpcError(await rpc("prompts/get", { name: "test_prompt_with_embedded_resource", arguments: {} }), 200, INVALID_PARAMS, 1);
  });
});

describe("completion/complete", () => {
  const prompt = { type: "ref/prompt", name: "test_prompt_with_arguments" };
  const template = { type: "ref/resource", uri: "test://template/{id}/data" };

  it("completes a prompt argument by prefix", async () => {
    expect(await expectResult(await complete(prompt, "arg1", "te"))).toEqual({
      completion: { values: ["test", "testing", "tested"], total: 3, hasMore: false },
    });
  });

  it("completes the other prompt argument from its own list", async () => {
    const result = await expectResult(await complete(prompt, "arg2", "value"));
    expect(result.completion).toMatchObject({ values: ["value", "value1", "value2"] });
  });

  it("returns an empty list when nothing matches", async () => {
    expect((await expectResult(await complete(prompt, "arg1", "zzz"))).completion).toMatchObject({ values: [], hasMore: false });
  });

  it("completes a resource template variable", async () => {
    expect((await expectResult(await complete(template, "id", "1"))).completion).toMatchObject({
      values: ["1", "123"],
      total: 2,
      hasMore: false,
    });
  });

  it("returns no values for an argument that has no completer", async () => {
    const ref = { type: "ref/prompt", name: "test_prompt_with_embedded_resource" };
    expect(await expectResult(await complete(ref, "resourceUri", "t"))).toEqual({ completion: { values: [], hasMore: false } });
  });

  it("answers completion for an unknown prompt with -32602", async () => {
    await expectRpcError(await complete({ type: "ref/prompt", name: "nope" }, "a", ""), 200, INVALID_PARAMS, 1);
  });

  it("answers completion for an unknown template with -32602", async () => {
    await expectRpcError(await complete({ type: "ref/resource", uri: "test://other/{x}" }, "x", ""), 200, INVALID_PARAMS, 1);
  });

  it("answers completion without an argument object with -32602", async () => {
    await expectRpcError(await rpc("completion/complete", { ref: prompt }), 200, INVALID_PARAMS, 1);
  });
});
