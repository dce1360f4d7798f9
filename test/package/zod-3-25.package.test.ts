/**
 * A project on zod 3.25 (the devDependency "zod3" is zod 3.25.76 under an npm alias): its `zod/v4`
 * schemas cannot produce JSON Schema by themselves, so the server is given zod's converter once
 * (`defineServer({ toJSONSchema })`) and then lists, validates and elicits with them as with zod 4;
 * without the converter, and for a classic zod 3 schema, the definition fails saying what to do.
 */
import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { z as classic } from "zod3";
import * as z from "zod3/v4";
import { createMcpEdge, defineServer, text } from "../../src/index";
import { envelope, headers2026 } from "../helpers/era-2026";
import { ACCEPT_BOTH, MCP } from "../helpers/mcp";

const server = defineServer({ name: "zod-3-25", version: "1.0.0", toJSONSchema: z.toJSONSchema })
  .tool(
    "add",
    { description: "Adds a and b", input: { a: z.number().describe("the first number"), b: z.number().int().optional() } },
    ({ a, b }) => ({ content: [text(String(a + (b ?? 0)))] }),
  )
  .tool("greet", { description: "Greets someone", input: z.object({ name: z.string().min(1) }) }, ({ name }) => ({
    content: [text(`hello ${name}`)],
  }))
  .interactiveTool("register", { description: "Asks for a name" }, async (_args, ctx) => {
    const answer = await ctx.elicit("Who are you?", z.object({ name: z.string() }));
    return { content: [text(answer.action === "accept" ? `hi ${answer.content.name}` : answer.action)] };
  });
const edge = createMcpEdge(server);

/** One 2026-07-28 request to this test's own Worker, as a conforming client sends it. */
async function rpc(method: string, params: Record<string, unknown>, capabilities: Record<string, unknown> = {}) {
  const res = await edge.worker.fetch(
    new Request(MCP, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, ...headers2026(method, params) },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: envelope(capabilities) } }),
    }),
    env as never,
    createExecutionContext(),
  );
  expect(res.status).toBe(200);
  return (await res.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

describe("a server on zod 3.25's zod/v4", () => {
  it("lists its tools with JSON Schema made by zod's converter", async () => {
    const { result } = await rpc("tools/list", {});
    const tools = result?.tools as { name: string; inputSchema: Record<string, unknown> }[];
    expect(tools.map((t) => t.name)).toEqual(["add", "greet", "register"]);
    expect(tools[0]?.inputSchema).toEqual({
      type: "object",
      properties: {
        a: { type: "number", description: "the first number" },
        b: { type: "integer", minimum: expect.any(Number), maximum: expect.any(Number) },
      },
      required: ["a"],
    });
    expect(tools[1]?.inputSchema).toMatchObject({
      type: "object",
      properties: { name: { type: "string", minLength: 1 } },
      required: ["name"],
    });
    expect(JSON.stringify(tools)).not.toContain("$schema");
  });

  it("calls a tool with arguments its zod schemas validated, and refuses arguments they do not accept", async () => {
    const sum = await rpc("tools/call", { name: "add", arguments: { a: 40, b: 2 } });
    expect((sum.result?.content as { text: string }[])[0]?.text).toBe("42");
    const refused = await rpc("tools/call", { name: "greet", arguments: { name: "" } });
    // 2026-07-28 reports invalid arguments as a tool error the model can read (SEP-1303).
    expect(refused.result?.isError).toBe(true);
    expect((refused.result?.content as { text: string }[])[0]?.text).toMatch(/^Invalid arguments for tool "greet": \/name: /);
  });

  it("elicits with a zod/v4 form: the requested schema comes from zod's converter", async () => {
    const { result } = await rpc("tools/call", { name: "register", arguments: {} }, { elicitation: {} });
    expect(result?.resultType).toBe("input_required");
    const asks = Object.values(result?.inputRequests as Record<string, { params: Record<string, unknown> }>);
    expect(asks[0]?.params.requestedSchema).toEqual({ type: "object", properties: { name: { type: "string" } }, required: ["name"] });
  });
});

describe("zod schemas that cannot produce JSON Schema", () => {
  const ok = () => ({ content: [text("ok")] });

  it("refuses a zod/v4 schema of zod 3.25 without the converter, saying to pass z.toJSONSchema or upgrade", () => {
    const bare = defineServer({ name: "t", version: "1" });
    expect(() => bare.tool("t", { description: "d", input: { a: z.number() } }, ok)).toThrow(
      'tool "t" input: the schema of "a" is a zod schema that cannot produce JSON Schema by itself (zod 3.25\'s "zod/v4", or zod 4.0/4.1): pass zod\'s converter once, defineServer({ name, version, toJSONSchema: z.toJSONSchema }) with z from "zod/v4", or upgrade to zod 4.2 or later',
    );
  });

  it("refuses a classic zod 3 schema, saying to import from zod/v4 or upgrade to zod 4", () => {
    const withConverter = defineServer({ name: "t", version: "1", toJSONSchema: z.toJSONSchema });
    expect(() => withConverter.tool("t", { description: "d", input: classic.object({ a: classic.number() }) }, ok)).toThrow(
      /^tool "t" input is a zod 3 schema, which cannot produce JSON Schema: import \{ z \} from "zod\/v4" .*, or upgrade to zod 4$/,
    );
  });
});
