/**
 * Raw JSON Schema through a real edge (tools/call on 2026-07-28, no sessions): the core validator every Worker
 * carries answers an invalid argument with a tool error naming the problem; a server that passes
 * `jsonSchema: fullJsonSchema` (mcp-edge/json-schema) validates anyOf and format the same way; and without it a
 * tool whose schema goes beyond the core is refused when it is registered.
 */
import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createMcpEdge } from "../../src/edge";
import { fullJsonSchema } from "../../src/json-schema";
import type { EdgeEnv } from "../../src/kernel/env";
import { text } from "../../src/mcp/definition/content";
import { defineServer, type McpServer } from "../../src/mcp/definition/server";
import { expectComplete, headers2026, envelope } from "../helpers/era-2026";
import { ACCEPT_BOTH } from "../helpers/mcp";

const COUNT_SCHEMA = {
  type: "object",
  properties: { count: { type: "integer", minimum: 1, maximum: 10 }, label: { type: "string", pattern: "^[a-z]+$" } },
  required: ["count"],
  additionalProperties: false,
};
const CONTACT_SCHEMA = {
  type: "object",
  properties: { contact: { anyOf: [{ type: "string", format: "email" }, { type: "null" }] } },
  required: ["contact"],
};

function callTool(server: McpServer<EdgeEnv>, name: string, args: Record<string, unknown>): Promise<Response> {
  const worker = createMcpEdge(server, { sessions: false }).worker;
  const params = { name, arguments: args };
  const request = new Request("http://localhost/mcp", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, ...headers2026("tools/call", params) },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { ...params, _meta: envelope() } }),
  });
  const env = { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef" };
  return Promise.resolve(worker.fetch!(request as never, env as EdgeEnv, createExecutionContext()));
}

function echoing(server: McpServer<EdgeEnv>, name: string, input: Record<string, unknown>): McpServer<EdgeEnv> {
  return server.tool(name, { description: "Echoes its arguments", input }, (args) => ({ content: [text(JSON.stringify(args))] }));
}

/** The tool error a call's invalid arguments get: isError, with the validator's problems in its text. */
async function toolError(response: Response): Promise<string> {
  const result = await expectComplete(response);
  expect(result.isError).toBe(true);
  return (result.content as { text: string }[])[0]!.text;
}

describe("the core validator (every Worker's default)", () => {
  const server = echoing(defineServer<EdgeEnv>({ name: "core", version: "1.0.0" }), "count", COUNT_SCHEMA);

  it("runs a tool whose arguments are valid (a whole number written 3.0 is an integer)", async () => {
    const result = await expectComplete(await callTool(server, "count", { count: 3.0, label: "abc" }));
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([{ type: "text", text: '{"count":3,"label":"abc"}' }]);
  });

  it("answers invalid arguments with a tool error naming each problem where it is", async () => {
    const message = await toolError(await callTool(server, "count", { count: 11, label: "ABC", extra: true }));
    expect(message).toContain('/count: must be at most 10; /label: must match the pattern "^[a-z]+$"; /: must not have property "extra"');
  });

  it("refuses, when the tool is registered, a schema beyond its vocabulary, naming the keyword, the tool and the fix", () => {
    const bare = defineServer<EdgeEnv>({ name: "core", version: "1.0.0" });
    expect(() => echoing(bare, "contact", CONTACT_SCHEMA)).toThrow(
      new TypeError(
        'tool "contact" input: the JSON Schema\'s #/properties/contact/anyOf needs the full JSON Schema validator ("anyOf" is not ' +
          "in the core vocabulary): pass defineServer({ name, version, jsonSchema: fullJsonSchema }) with fullJsonSchema from " +
          '"mcp-edge/json-schema", or use a Standard Schema such as zod, which validates itself',
      ),
    );
  });
});

describe("defineServer({ jsonSchema: fullJsonSchema })", () => {
  const server = echoing(defineServer<EdgeEnv>({ name: "full", version: "1.0.0", jsonSchema: fullJsonSchema }), "contact", CONTACT_SCHEMA);

  it("validates anyOf and format: an email or null passes", async () => {
    for (const contact of ["a@example.com", null]) {
      const result = await expectComplete(await callTool(server, "contact", { contact }));
      expect(result.isError).toBeUndefined();
    }
  });

  it("answers an argument that meets no branch with a tool error", async () => {
    expect(await toolError(await callTool(server, "contact", { contact: "not an email" }))).toContain(
      "/contact: must be a valid email string",
    );
  });

  it("refuses a jsonSchema that is not a function", () => {
    expect(() => defineServer({ name: "x", version: "1", jsonSchema: "full" as never })).toThrow(
      /jsonSchema must be a JSON Schema compiler/,
    );
  });
});
