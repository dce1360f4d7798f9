/**
 * Structured output of any JSON type (SEP-2106; 2026-07-28 server/tools.mdx "Structured Content"
 * and "Output Schema"): arrays and primitives checked against the output schema, a non-object value
 * mirrored as JSON text, and toward 2025-era clients (whose wire needs an object root) the schema
 * listed as { result: <schema> } and the value sent as { result: <value> }.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { text } from "../../src/mcp/definition/content";
import { dispatchContext, dispatchRequest, type DispatchContext } from "../../src/mcp/dispatch/dispatch";
import { fullJsonSchema } from "../../src/mcp/json-schema/compile";
import { compileSchema } from "../../src/mcp/definition/schema";
import { defineServer, type McpServer } from "../../src/mcp/definition/server";
import { wrapOutputSchema } from "../../src/mcp/definition/output-schema";
import type { CallToolResult } from "../../src/mcp/definition/types";
import { openSession, post } from "../helpers/mcp";
import { expectComplete, post2026 } from "../helpers/era-2026";
import { expectResult } from "../helpers/rpc-expect";

interface Tool {
  name: string;
  outputSchema?: Record<string, unknown>;
}

const WORDS = { text: "to be or not" };

describe("on 2026-07-28", () => {
  it("lists an array and a primitive output schema as written", async () => {
    const tools = (await expectComplete(await post2026("tools/list"))).tools as Tool[];
    expect(tools.find((t) => t.name === "split_words")?.outputSchema).toEqual({ type: "array", items: { type: "string" } });
    expect(tools.find((t) => t.name === "count_words")?.outputSchema).toMatchObject({ type: "integer" });
  });

  it("returns an array as structuredContent, with its JSON as text when the tool wrote none", async () => {
    const result = await expectComplete(await post2026("tools/call", { name: "split_words", arguments: WORDS }));
    expect(result.structuredContent).toEqual(["to", "be", "or", "not"]);
    expect(result.content).toEqual([{ type: "text", text: '["to","be","or","not"]' }]);
  });

  it("returns a bare number as structuredContent and keeps the tool's own text", async () => {
    const result = await expectComplete(await post2026("tools/call", { name: "count_words", arguments: WORDS }));
    expect(result.structuredContent).toBe(4);
    expect(result.content).toEqual([{ type: "text", text: "4 words" }]);
  });
});

describe("on a 2025-11-25 session", () => {
  let session: { sessionId: string; version: string };
  beforeAll(async () => {
    session = await openSession("2025-11-25");
  });

  it("lists a non-object output schema wrapped as { result }, and an object one unchanged", async () => {
    const result = await expectResult(await post({ jsonrpc: "2.0", id: 1, method: "tools/list" }, session));
    const tools = result.tools as Tool[];
    expect(tools.find((t) => t.name === "split_words")?.outputSchema).toEqual({
      type: "object",
      properties: { result: { type: "array", items: { type: "string" } } },
      required: ["result"],
    });
    expect(tools.find((t) => t.name === "add")?.outputSchema).toMatchObject({ type: "object", properties: { sum: { type: "number" } } });
  });

  it("sends the value as { result } with the same JSON text mirror", async () => {
    const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "split_words", arguments: WORDS } };
    const result = await expectResult(await post(call, session), 2);
    expect(result.structuredContent).toEqual({ result: ["to", "be", "or", "not"] });
    expect(result.content).toEqual([{ type: "text", text: '["to","be","or","not"]' }]);
  });

  it("leaves an object result of an object schema as it is", async () => {
    const call = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } };
    expect((await expectResult(await post(call, session), 3)).structuredContent).toEqual({ sum: 3 });
  });
});

function context(server: McpServer, protocolVersion: "2025-11-25" | "2025-06-18" = "2025-11-25"): DispatchContext<unknown> {
  return dispatchContext(server, {}, { era: "2025", sessions: false, session: undefined, protocolVersion });
}

async function callOn(server: McpServer, name: string): Promise<CallToolResult> {
  const reply = await dispatchRequest(
    { kind: "request", id: 1, method: "tools/call", params: { name, arguments: {} } },
    context(server),
    new AbortController(),
  );
  if (reply.kind !== "result") throw new Error(JSON.stringify(reply));
  return reply.result as unknown as CallToolResult;
}

describe("the output check", () => {
  const server = defineServer({ name: "s", version: "1" })
    .tool("wrong_type", { description: "d", output: { type: "array", items: { type: "integer" } } }, () => ({
      content: [],
      structuredContent: [1, "two"],
    }))
    .tool("missing", { description: "d", output: { type: "string" } }, () => ({ content: [text("no value")] }))
    .tool("null_ok", { description: "d", output: { type: "null" } }, () => ({ content: [], structuredContent: null }))
    .tool("no_schema", { description: "d" }, () => ({ content: [], structuredContent: "plain" }));

  it("fails the tool, naming the mismatch, when an array item has the wrong type", async () => {
    const result = await callOn(server, "wrong_type");
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("does not match its outputSchema");
  });

  it("fails the tool when a declared output schema gets no structuredContent", async () => {
    const result = await callOn(server, "missing");
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("returned no structuredContent");
  });

  it("accepts null when the schema says null, and wraps it for a 2025 client", async () => {
    expect(await callOn(server, "null_ok")).toEqual({
      content: [{ type: "text", text: "null" }],
      structuredContent: { result: null },
    });
  });

  it("wraps a non-object value of a tool without an output schema for a 2025 client", async () => {
    expect((await callOn(server, "no_schema")).structuredContent).toEqual({ result: "plain" });
  });
});

describe("the 2025 wrap of a schema", () => {
  const natural = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "array",
    items: { $ref: "#/$defs/point" },
    $defs: { point: { type: "object", properties: { x: { type: "number" } }, required: ["x"] } },
    examples: [[{ $ref: "#/not-a-pointer" }]],
  };

  it("keeps the author's $schema at the root and moves same-document $refs under properties/result", () => {
    expect(wrapOutputSchema(natural)).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        result: {
          type: "array",
          items: { $ref: "#/properties/result/$defs/point" },
          $defs: natural.$defs,
          examples: natural.examples,
        },
      },
      required: ["result"],
    });
  });

  it("still validates the wrapped value: the moved $ref resolves", async () => {
    const compiled = compileSchema(wrapOutputSchema(natural), "output", "wrapped", { jsonSchema: fullJsonSchema });
    expect(await compiled.validate({ result: [{ x: 1 }] })).toMatchObject({ ok: true });
    expect(await compiled.validate({ result: [{ y: 1 }] })).toMatchObject({ ok: false });
  });
});
