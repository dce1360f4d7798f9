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
import { defineMethod } from "../../src/mcp/handlers/methods";
import { defineEvent } from "../../src/features/events/define";
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

/** One 2026-07-28 request to a stateless edge serving `server`. */
function call(server: McpServer<EdgeEnv>, method: string, params: Record<string, unknown>): Promise<Response> {
  const worker = createMcpEdge(server, { sessions: false }).worker;
  const request = new Request("http://localhost/mcp", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, ...headers2026(method, params) },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: envelope() } }),
  });
  const env = { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef" };
  return Promise.resolve(worker.fetch!(request as never, env as EdgeEnv, createExecutionContext()));
}

function callTool(server: McpServer<EdgeEnv>, name: string, args: Record<string, unknown>): Promise<Response> {
  return call(server, "tools/call", { name, arguments: args });
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
          'in the core vocabulary): pass jsonSchema: fullJsonSchema (from "mcp-edge/json-schema") in the config that defines the ' +
          "schema (defineServer, defineMethod, defineNotification or defineEvent), or use a Standard Schema such as zod",
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

/** An extension's own schemas are defined apart from any server, so defineMethod and defineEvent take the option too. */
describe("jsonSchema in defineMethod's and defineEvent's config", () => {
  const lookup = (jsonSchema?: typeof fullJsonSchema) =>
    defineMethod<EdgeEnv, typeof CONTACT_SCHEMA>("com.example/lookup", { params: CONTACT_SCHEMA, jsonSchema }, (params) => ({
      found: params.contact,
    }));

  it("refuses, without it, a params schema beyond the core, naming the method and the fix", () => {
    expect(() => lookup()).toThrow(/^method "com\.example\/lookup" params: the JSON Schema's #\/properties\/contact\/anyOf .*defineMethod/);
  });

  it("checks params with the full validator when given: a valid call runs, an invalid one is -32602 naming the field", async () => {
    const server = defineServer<EdgeEnv>({ name: "methods", version: "1.0.0" }).add(lookup(fullJsonSchema));
    const found = await expectComplete(await call(server, "com.example/lookup", { contact: "a@example.com" }));
    expect(found.found).toBe("a@example.com");
    const refused = (await (await call(server, "com.example/lookup", { contact: "nobody" })).json()) as {
      error: { code: number; message: string };
    };
    expect(refused.error.code).toBe(-32602);
    expect(refused.error.message).toContain("/contact: must be a valid email string");
  });

  it("compiles an event's input and payload with it, and refuses them without it", () => {
    const config = { description: "A contact changed", input: CONTACT_SCHEMA, payload: CONTACT_SCHEMA };
    expect(() => defineEvent("contact.changed", config)).toThrow(/^event "contact\.changed" input: .*#\/properties\/contact\/anyOf/);
    const event = defineEvent("contact.changed", { ...config, jsonSchema: fullJsonSchema });
    expect(event.payload.validate({ contact: null })).toEqual({ ok: true, value: { contact: null } });
    expect(event.payload.validate({ contact: "nobody" })).toMatchObject({ ok: false, message: "/contact: must be a valid email string" });
  });

  it("refuses a jsonSchema that is not a function, naming the definition", () => {
    expect(() => defineMethod("com.example/x", { jsonSchema: "full" as never }, () => ({}))).toThrow(
      'method "com.example/x": jsonSchema is a JSON Schema compiler',
    );
    expect(() => defineEvent("x", { description: "x", jsonSchema: "full" as never })).toThrow(
      'event "x": jsonSchema is a JSON Schema compiler',
    );
  });
});
