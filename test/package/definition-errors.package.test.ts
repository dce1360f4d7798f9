/**
 * Mistakes in a tool's schema fail where the server is defined, naming the tool and the key,
 * instead of failing the Worker at startup with an unrelated error (DataCloneError).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineServer, text } from "../../src/index";

const ok = () => ({ content: [text("ok")] });

describe("schema mistakes at definition", () => {
  it("refuses an object mixing zod schemas with plain JSON Schema values, naming the key", () => {
    const server = defineServer({ name: "t", version: "1" });
    const input = { a: z.number(), type: "object" } as unknown as Record<string, unknown>;
    expect(() => server.tool("mixed", { description: "d", input }, ok)).toThrow(
      /tool "mixed" input: "a" is a zod schema but other keys are not/,
    );
  });

  it("refuses a JSON Schema that is not plain JSON with a TypeError naming the tool", () => {
    const server = defineServer({ name: "t", version: "1" });
    const input = { type: "object", properties: {}, default: () => 1 };
    expect(() => server.tool("fn", { description: "d", input }, ok)).toThrow(/tool "fn" input: a JSON Schema must be plain JSON/);
  });

  it("accepts an empty shape as a tool without arguments", () => {
    const server = defineServer({ name: "t", version: "1" }).tool("none", { description: "d", input: {} }, ok);
    expect(server.tools.get("none")?.listing.inputSchema).toEqual({ type: "object", properties: {} });
  });

  it("refuses a zod elicitation schema outside the spec's flat subset before anything is sent", async () => {
    const { toFormRequest } = await import("../../src/mcp/asks/elicitation-request");
    expect(() => toFormRequest(z.object({ nested: z.object({ a: z.string() }) }))).toThrow(/elicitation schema: property "nested"/);
  });
});
