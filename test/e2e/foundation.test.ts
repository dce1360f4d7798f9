// The basic MCP calls, made by the official SDK client over real HTTP against the Worker under
// `wrangler dev`: session mode at /mcp, then the same calls statelessly at /stateless/mcp.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SDK_ROWS, useCompatRecord } from "./clients/helpers/record";
import { firstText } from "./helpers/results";
import { useWorker } from "./helpers/server";

const PNG_MAGIC_BASE64 = "iVBORw0KGgo"; // base64 of the PNG signature's first bytes

const server = useWorker();
useCompatRecord(SDK_ROWS.foundation);

/** A connected SDK client on the given path; closed by the caller's afterAll. */
async function connect(path: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: "e2e-foundation", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(path, server.url));
  await client.connect(transport);
  return { client, transport };
}

describe("session mode (/mcp)", () => {
  let client: Client;
  let transport: StreamableHTTPClientTransport;

  beforeAll(async () => {
    ({ client, transport } = await connect("/mcp"));
  });

  afterAll(async () => {
    await client?.close();
  });

  it("negotiates the SDK's latest protocol version and hands out a session id", () => {
    expect(transport.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(transport.sessionId).toMatch(/^[\x21-\x7E]+$/);
    expect(client.getServerVersion()).toMatchObject({ name: "mcp-edge-demo", version: "0.1.0" });
    expect(client.getInstructions()).toContain("mcp-edge");
  });

  it("declares tools, resources, prompts, logging and completions capabilities", () => {
    expect(client.getServerCapabilities()).toMatchObject({
      tools: {},
      resources: { subscribe: true },
      prompts: {},
      logging: {},
      completions: {},
    });
  });

  it("lists the tools, echo among them with its input schema", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "add", "test_error_handling", "stream_progress", "slow_countdown", "ask_roots"]));
    const echo = tools.find((t) => t.name === "echo");
    expect(echo?.inputSchema).toMatchObject({
      type: "object",
      properties: { text: { type: "string", description: "The text to echo" } },
      required: ["text"],
    });
    expect(echo?.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
  });

  it("keeps a JSON Schema 2020-12 input schema verbatim in the tool list", async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === "json_schema_2020_12_tool");
    expect(tool?.inputSchema).toMatchObject({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $defs: { address: { type: "object" } },
      properties: { address: { $ref: "#/$defs/address" } },
      additionalProperties: false,
    });
  });

  it("lists add with an output schema and returns matching structured content", async () => {
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "add")?.outputSchema).toMatchObject({ type: "object", properties: { sum: { type: "number" } } });
    const result = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
    expect(result.structuredContent).toEqual({ sum: 42 });
    expect(firstText(result)).toBe("2 + 40 = 42");
  });

  it("calls echo and gets the same text back", async () => {
    const result = await client.callTool({ name: "echo", arguments: { text: "hello, édge ✓" } });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: "text", text: "hello, édge ✓" }]);
  });

  it("reports test_error_handling's failure as a tool result with isError, not a protocol error", async () => {
    const result = await client.callTool({ name: "test_error_handling", arguments: {} });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toBe("This tool intentionally returns an error for testing");
  });

  it("lists the static resources and the resource template", async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining(["test://static-text", "test://static-binary", "test://watched-resource"]),
    );
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual(
      expect.arrayContaining([expect.objectContaining({ uriTemplate: "test://template/{id}/data", mimeType: "application/json" })]),
    );
  });

  it("reads a text resource", async () => {
    const { contents } = await client.readResource({ uri: "test://static-text" });
    expect(contents).toEqual([
      { uri: "test://static-text", mimeType: "text/plain", text: "This is the content of the static text resource." },
    ]);
  });

  it("reads a binary resource as a base64 blob", async () => {
    const { contents } = await client.readResource({ uri: "test://static-binary" });
    expect(contents).toHaveLength(1);
    expect(contents[0]).toMatchObject({ uri: "test://static-binary", mimeType: "image/png" });
    const blob = (contents[0] as { blob?: string }).blob;
    expect(blob?.startsWith(PNG_MAGIC_BASE64)).toBe(true);
    expect(atob(blob ?? "").length).toBeGreaterThan(8);
  });

  it("reads a templated resource with the id substituted", async () => {
    const { contents } = await client.readResource({ uri: "test://template/123/data" });
    expect(contents[0]).toMatchObject({ uri: "test://template/123/data", mimeType: "application/json" });
    const text = (contents[0] as { text?: string }).text ?? "";
    expect(JSON.parse(text)).toEqual({ id: "123", templateTest: true, data: "Data for ID: 123" });
  });

  it("lists the prompts with their arguments", async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(
      expect.arrayContaining(["test_simple_prompt", "test_prompt_with_arguments", "test_prompt_with_image"]),
    );
    const withArgs = prompts.find((p) => p.name === "test_prompt_with_arguments");
    expect(withArgs?.arguments).toEqual([
      expect.objectContaining({ name: "arg1", required: true }),
      expect.objectContaining({ name: "arg2", required: true }),
    ]);
  });

  it("gets a prompt with its arguments filled in", async () => {
    const result = await client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "alpha", arg2: "beta" } });
    expect(result.messages).toEqual([
      { role: "user", content: { type: "text", text: "Prompt with arguments: arg1='alpha', arg2='beta'" } },
    ]);
  });

  it("completes arg1 of test_prompt_with_arguments from the typed prefix", async () => {
    const { completion } = await client.complete({
      ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
      argument: { name: "arg1", value: "test" },
    });
    expect([...completion.values].sort()).toEqual(["test", "tested", "testing"]);
  });

  it("answers ping", async () => {
    await expect(client.ping()).resolves.toEqual({});
  });
});

describe("stateless mode (/stateless/mcp)", () => {
  let client: Client;
  let transport: StreamableHTTPClientTransport;

  beforeAll(async () => {
    ({ client, transport } = await connect("/stateless/mcp"));
  });

  afterAll(async () => {
    await client?.close();
  });

  it("connects without a session id", () => {
    expect(transport.sessionId).toBeUndefined();
    expect(transport.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(client.getServerVersion()?.name).toBe("mcp-edge-demo");
  });

  it("lists the tools statelessly", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["echo", "test_error_handling"]));
  });

  it("calls echo statelessly and gets the text back", async () => {
    const result = await client.callTool({ name: "echo", arguments: { text: "stateless hello" } });
    expect(result.content).toEqual([{ type: "text", text: "stateless hello" }]);
  });

  it("reports test_error_handling as isError statelessly", async () => {
    const result = await client.callTool({ name: "test_error_handling", arguments: {} });
    expect(result.isError).toBe(true);
  });

  it("reads text, binary and templated resources statelessly", async () => {
    const text = await client.readResource({ uri: "test://static-text" });
    expect((text.contents[0] as { text?: string }).text).toBe("This is the content of the static text resource.");
    const binary = await client.readResource({ uri: "test://static-binary" });
    expect((binary.contents[0] as { blob?: string }).blob?.startsWith(PNG_MAGIC_BASE64)).toBe(true);
    const templated = await client.readResource({ uri: "test://template/7/data" });
    expect(JSON.parse((templated.contents[0] as { text?: string }).text ?? "")).toMatchObject({ id: "7" });
  });

  it("gets a prompt with arguments statelessly", async () => {
    const result = await client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "x", arg2: "y" } });
    expect(result.messages[0]?.content).toEqual({ type: "text", text: "Prompt with arguments: arg1='x', arg2='y'" });
  });

  it("completes a prompt argument statelessly", async () => {
    const { completion } = await client.complete({
      ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
      argument: { name: "arg2", value: "val" },
    });
    expect([...completion.values].sort()).toEqual(["value", "value1", "value2"]);
  });

  it("answers ping statelessly", async () => {
    await expect(client.ping()).resolves.toEqual({});
  });

  it("streams progress of an interactive tool statelessly", async () => {
    const seen: number[] = [];
    const result = await client.callTool({ name: "stream_progress", arguments: { count: 5 } }, undefined, {
      onprogress: (p) => seen.push(p.progress),
    });
    expect(firstText(result)).toBe("done 5");
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it("fails test_sampling statelessly with a clear error instead of hanging", async () => {
    const started = Date.now();
    const outcome = await client.callTool({ name: "test_sampling", arguments: { prompt: "hi" } }).then(
      (result) => ({ result, error: undefined }),
      (error: unknown) => ({ result: undefined, error }),
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    // Either a JSON-RPC error or an isError result is acceptable; it must name sampling.
    const message = outcome.error instanceof Error ? outcome.error.message : firstText(outcome.result);
    if (outcome.result) expect(outcome.result.isError).toBe(true);
    expect(message).toMatch(/sampling/i);
  });
});
