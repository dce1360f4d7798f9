/**
 * tools/list and tools/call of the demo's simple tools, answered in the Worker (2025-06-18
 * "Tools"; the official conformance suite's tool fixtures). A failing tool is a
 * result with isError, not a protocol error; invalid arguments are -32602 up to 2025-06-18
 * and a tool error from 2025-11-25 (SEP-1303).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { INVALID_PARAMS } from "../../src/jsonrpc/errors";
import { PNG_1X1_BASE64, WAV_EMPTY_BASE64 } from "../../src/demo/assets";
import { openSession, post } from "../helpers/mcp";
import { expectResult, expectRpcError, statelessCall } from "../helpers/rpc-expect";

interface Tool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

let session: { sessionId: string; version: string };
beforeAll(async () => {
  session = await openSession("2025-06-18");
});

function callTool(name: string, args?: Record<string, unknown>, s = session): Promise<Response> {
  const params: Record<string, unknown> = args === undefined ? { name } : { name, arguments: args };
  return post({ jsonrpc: "2.0", id: 1, method: "tools/call", params }, s);
}

async function listTools(): Promise<Tool[]> {
  const result = await expectResult(await post({ jsonrpc: "2.0", id: 1, method: "tools/list" }, session));
  expect(result.nextCursor).toBeUndefined();
  return result.tools as Tool[];
}

describe("tools/list", () => {
  it("lists every conformance fixture tool with a name, description and object inputSchema", async () => {
    const tools = await listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        "test_simple_text",
        "test_image_content",
        "test_audio_content",
        "test_embedded_resource",
        "test_multiple_content_types",
        "test_tool_with_logging",
        "test_tool_with_progress",
        "test_error_handling",
        "test_sampling",
        "test_elicitation",
        "test_elicitation_sep1034_defaults",
        "test_elicitation_sep1330_enums",
        "json_schema_2020_12_tool",
        "test_reconnection",
        "echo",
        "add",
      ]),
    );
    for (const tool of tools) {
      expect(tool.description).toEqual(expect.stringMatching(/./));
      expect(tool.inputSchema.type).toBe("object");
    }
  });

  it("gives a tool without arguments the schema {type: object, properties: {}}", async () => {
    const tool = (await listTools()).find((t) => t.name === "test_simple_text");
    expect(tool?.inputSchema).toEqual({ type: "object", properties: {} });
    expect(tool?.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
  });

  it("lists a JSON Schema 2020-12 input schema verbatim: $schema, $defs with $anchor, allOf/anyOf, if/then/else, additionalProperties: false", async () => {
    const tool = (await listTools()).find((t) => t.name === "json_schema_2020_12_tool");
    expect(tool?.inputSchema).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: {
        address: { $anchor: "addressDef", type: "object", properties: { street: { type: "string" }, city: { type: "string" } } },
      },
      properties: {
        name: { type: "string" },
        address: { $ref: "#/$defs/address" },
        contactMethod: { type: "string", enum: ["phone", "email"] },
        phone: { type: "string" },
        email: { type: "string" },
      },
      allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
      if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
      then: { required: ["phone"] },
      else: { required: ["email"] },
      additionalProperties: false,
    });
  });

  // The root `$schema` zod's conversion adds is dropped (2020-12 is the default dialect; Genkit's
  // client refuses any tool that carries one); the raw schema above keeps the author's.
  it("lists a zod input schema as JSON Schema with its descriptions and required fields, without a root $schema", async () => {
    const echo = (await listTools()).find((t) => t.name === "echo");
    expect(echo?.inputSchema).toEqual({
      type: "object",
      properties: { text: { type: "string", description: "The text to echo" } },
      required: ["text"],
    });
  });

  it("lists the outputSchema of a tool that declares one, without a root $schema", async () => {
    const add = (await listTools()).find((t) => t.name === "add");
    expect(add?.outputSchema).toEqual({
      type: "object",
      properties: { sum: { type: "number" } },
      required: ["sum"],
      additionalProperties: false,
    });
  });
});

describe("tools/call of the content fixtures", () => {
  it("calls test_simple_text with no arguments field at all", async () => {
    expect(await expectResult(await callTool("test_simple_text"))).toEqual({
      content: [{ type: "text", text: "This is a simple text response for testing." }],
    });
  });

  it("calls test_simple_text with empty arguments", async () => {
    expect((await expectResult(await callTool("test_simple_text", {}))).content).toEqual([
      { type: "text", text: "This is a simple text response for testing." },
    ]);
  });

  it("returns a base64 PNG from test_image_content", async () => {
    expect(await expectResult(await callTool("test_image_content", {}))).toEqual({
      content: [{ type: "image", data: PNG_1X1_BASE64, mimeType: "image/png" }],
    });
  });

  it("returns base64 audio with mimeType audio/wav from test_audio_content", async () => {
    expect(await expectResult(await callTool("test_audio_content", {}))).toEqual({
      content: [{ type: "audio", data: WAV_EMPTY_BASE64, mimeType: "audio/wav" }],
    });
  });

  it("returns an embedded text resource from test_embedded_resource", async () => {
    expect(await expectResult(await callTool("test_embedded_resource", {}))).toEqual({
      content: [
        {
          type: "resource",
          resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." },
        },
      ],
    });
  });

  it("returns text, image and embedded resource from test_multiple_content_types", async () => {
    const result = await expectResult(await callTool("test_multiple_content_types", {}));
    expect(result.content).toEqual([
      { type: "text", text: "Multiple content types test:" },
      { type: "image", data: PNG_1X1_BASE64, mimeType: "image/png" },
      {
        type: "resource",
        resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: '{"test":"data","value":123}' },
      },
    ]);
  });

  it("reports test_error_handling as a result with isError true and a text, not a JSON-RPC error", async () => {
    expect(await expectResult(await callTool("test_error_handling", {}))).toEqual({
      content: [{ type: "text", text: "This tool intentionally returns an error for testing" }],
      isError: true,
    });
  });
});

describe("tools/call of echo and add", () => {
  it("echoes the given text", async () => {
    expect(await expectResult(await callTool("echo", { text: "héllo ✓" }))).toEqual({ content: [{ type: "text", text: "héllo ✓" }] });
  });

  it("returns the sum as text and as structuredContent", async () => {
    expect(await expectResult(await callTool("add", { a: 2, b: 3.5 }))).toEqual({
      content: [{ type: "text", text: "2 + 3.5 = 5.5" }],
      structuredContent: { sum: 5.5 },
    });
  });

  it("calls json_schema_2020_12_tool with arguments valid under its $ref'd $defs", async () => {
    const args = { name: "n", address: { street: "s", city: "c" }, email: "n@example.com" };
    expect((await expectResult(await callTool("json_schema_2020_12_tool", args))).content).toEqual([
      { type: "text", text: `Received: ${JSON.stringify(args)}` },
    ]);
  });
});

describe("argument validation", () => {
  it("answers invalid arguments with -32602 in a 2025-06-18 session", async () => {
    const body = await expectRpcError(await callTool("echo", { text: 5 }), 200, INVALID_PARAMS, 1);
    expect(body.error?.message).toContain("echo");
  });

  it("answers a missing required argument with -32602 in a 2025-06-18 session", async () => {
    await expectRpcError(await callTool("add", { a: 1 }), 200, INVALID_PARAMS, 1);
  });

  it("enforces additionalProperties: false of a raw JSON Schema", async () => {
    await expectRpcError(await callTool("json_schema_2020_12_tool", { name: "n", extra: 1 }), 200, INVALID_PARAMS, 1);
  });

  it("validates through $ref into $defs", async () => {
    await expectRpcError(await callTool("json_schema_2020_12_tool", { address: { city: 7 } }), 200, INVALID_PARAMS, 1);
  });

  it("reports invalid arguments as a tool error result in a 2025-11-25 session", async () => {
    const s = await openSession("2025-11-25");
    const result = await expectResult(await callTool("echo", { text: 5 }, s));
    expect(result.isError).toBe(true);
    const content = result.content as { type: string; text: string }[];
    expect(content).toHaveLength(1);
    expect(content[0]?.type).toBe("text");
    expect(content[0]?.text).toContain('Invalid arguments for tool "echo"');
  });

  it("answers invalid arguments with -32602 in a 2025-03-26 session", async () => {
    const s = await openSession("2025-03-26");
    await expectRpcError(await callTool("add", { a: "1", b: 2 }, s), 200, INVALID_PARAMS, 1);
  });

  it("keys the choice on the header version in stateless mode", async () => {
    const params = { name: "echo", arguments: {} };
    await expectRpcError(await statelessCall("tools/call", params, { version: "2025-06-18" }), 200, INVALID_PARAMS, 1);
    expect((await expectResult(await statelessCall("tools/call", params, { version: "2025-11-25" }))).isError).toBe(true);
  });

  it("still answers an unknown tool with -32602 in a 2025-11-25 session", async () => {
    const s = await openSession("2025-11-25");
    await expectRpcError(await callTool("no_such_tool", {}, s), 200, INVALID_PARAMS, 1);
  });
});
