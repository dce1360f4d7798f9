/**
 * Accepted elicitation content is checked against the form the handler asked with, whether the
 * form is zod or plain JSON Schema, in both eras: 2025 (the session object runs the tool) and
 * 2026-07-28 (the Worker, a multi round-trip request). The outcome is the zod path's for both
 * (the client-answer row of docs/errors.md): the handler never sees content its own schema refuses.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createTestClient, TestRpcError, type Fetcher } from "../../src/testing/index";

const worker = (exports as unknown as { default: Fetcher }).default;

/** What the client sees of a call: the tool result's text and isError, or the JSON-RPC error. */
async function outcome(tool: string, answer: Record<string, unknown>, protocolVersion: string) {
  const client = createTestClient(worker, { protocolVersion, onElicit: () => answer });
  try {
    const result = await client.callTool(tool);
    return { kind: result.isError ? "tool error" : "ok", text: JSON.stringify(result.content) };
  } catch (error) {
    if (!(error instanceof TestRpcError)) throw error;
    return { kind: `rpc error ${error.code}`, text: error.message };
  }
}

const CASES: [string, Record<string, unknown>, RegExp][] = [
  ["accept without content", { action: "accept" }, /name/],
  ["a missing required field", { action: "accept", content: { name: "ada" } }, /age/],
  ["a field of the wrong type", { action: "accept", content: { name: "ada", age: "old" } }, /age/],
];

describe.each(["2025-11-25", "2026-07-28"])("a plain JSON Schema form, protocol %s", (protocolVersion) => {
  it("passes content that fits the form to the handler", async () => {
    const ok = await outcome("register_plain", { action: "accept", content: { name: "ada", age: 36 } }, protocolVersion);
    expect(ok).toEqual({ kind: "ok", text: JSON.stringify([{ type: "text", text: "ada is 37 next year" }]) });
  });

  it.each(CASES)("refuses %s as the zod form does, naming the field", async (_name, answer, field) => {
    const plain = await outcome("register_plain", answer, protocolVersion);
    const zod = await outcome("register", answer, protocolVersion);
    expect(plain.kind).not.toBe("ok");
    expect(plain.kind).toBe(zod.kind);
    expect(plain.text).toContain("does not match the requested schema");
    expect(plain.text).toMatch(field);
    expect(plain.text).not.toContain("undefined is");
    expect(plain.text).not.toContain("NaN");
  });

  it("refuses an extra field when the form says additionalProperties: false", async () => {
    const plain = await outcome("register_plain", { action: "accept", content: { name: "ada", age: 36, admin: true } }, protocolVersion);
    expect(plain.kind).not.toBe("ok");
    expect(plain.text).toContain("does not match the requested schema");
    expect(plain.text).toContain("admin");
  });
});

/**
 * A form with a string format and titled options (2025-11-25 SEP-1330) on a server with the core validator only
 * (no `jsonSchema: fullJsonSchema`): the options are asserted as the enum of their values, the format is sent to
 * the client's form and not re-checked (docs/server.md "Raw JSON Schema validation").
 */
describe.each(["2025-11-25", "2026-07-28"])("a form with format and titled options, core validator, protocol %s", (protocolVersion) => {
  const fits = { email: "ada@example.com", plan: "pro", topics: ["news"] };

  it("asks with the form as written and passes content that fits it", async () => {
    let asked: unknown;
    const client = createTestClient(worker, {
      protocolVersion,
      onElicit: (params) => {
        asked = params.requestedSchema;
        return { action: "accept", content: fits };
      },
    });
    const result = await client.callTool("contact_plain");
    expect(result.content).toEqual([{ type: "text", text: "ada@example.com on pro" }]);
    expect(asked).toMatchObject({ properties: { email: { format: "email" }, plan: { oneOf: [{ const: "free" }, { const: "pro" }] } } });
  });

  it.each([
    ["a plan that is none of the options", { ...fits, plan: "gold" }, /\/plan/],
    ["a topic that is none of the options", { ...fits, topics: ["spam"] }, /\/topics\/0/],
  ])("refuses %s, naming the field", async (_name, content, field) => {
    const refused = await outcome("contact_plain", { action: "accept", content }, protocolVersion);
    expect(refused.kind).not.toBe("ok");
    expect(refused.text).toContain("does not match the requested schema");
    expect(refused.text).toMatch(field);
  });

  it("leaves the e-mail's format to the client: the core validator does not check formats", async () => {
    const passed = await outcome("contact_plain", { action: "accept", content: { ...fits, email: "not an address" } }, protocolVersion);
    expect(passed).toEqual({ kind: "ok", text: JSON.stringify([{ type: "text", text: "not an address on pro" }]) });
  });
});
