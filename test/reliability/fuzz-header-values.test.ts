/**
 * Property (2026-07-28 streamable-http.mdx "Value Encoding" and "Server Validation"): an
 * `Mcp-Name` or `Mcp-Param-*` value is plain visible ASCII (space and tab inside allowed) or
 * the base64 sentinel form; a raw value with a non-ASCII, control or DEL character is refused
 * with 400 -32020 and the request's id, even when its characters are exactly the body's value.
 * The same value sent as `=?base64?…?=` is compared decoded and accepted.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { envelope, MODERN } from "../helpers/era-2026";
import { post } from "./support/direct";
import { fuzzParameters, reportFigures } from "./support/settings";

/** Characters a header can carry to the Worker (no NUL, CR, LF: the runtime refuses those itself). */
const hostileChar = fc.oneof(
  fc.integer({ min: 0x01, max: 0x08 }),
  fc.integer({ min: 0x0b, max: 0x0c }),
  fc.integer({ min: 0x0e, max: 0x1f }),
  fc.constant(0x7f),
  fc.integer({ min: 0x80, max: 0xff }),
);
const plainChar = fc.integer({ min: 0x21, max: 0x7e });

/** A value with at least one hostile character among plain ones (never at the ends only as whitespace). */
const hostileValue = fc
  .tuple(fc.array(plainChar, { maxLength: 8 }), hostileChar, fc.array(fc.oneof(plainChar, hostileChar), { maxLength: 8 }))
  .map(([a, bad, b]) => String.fromCharCode(...a, bad, ...b));
const plainValue = fc.array(plainChar, { minLength: 1, maxLength: 16 }).map((codes) => String.fromCharCode(...codes));

function utf8Base64(value: string): string {
  return `=?base64?${btoa(String.fromCharCode(...new TextEncoder().encode(value)))}?=`;
}

function callWith(id: number, name: string, region: string, headers: Record<string, string>): Promise<Response> {
  const params = { name, arguments: { region }, _meta: envelope() };
  return post({ jsonrpc: "2.0", id, method: "tools/call", params }, undefined, {
    "MCP-Protocol-Version": MODERN,
    "Mcp-Method": "tools/call",
    ...headers,
  });
}

const figures = { cases: 0, refused: 0, acceptedEncoded: 0 };
afterAll(() => reportFigures("fuzz-header-values", figures));

async function codeOf(res: Response): Promise<{ status: number; id: unknown; code: number | undefined }> {
  const body = (await res.json()) as { id?: unknown; error?: { code: number } };
  return { status: res.status, id: body.id, code: body.error?.code };
}

describe("Mcp-Name and Mcp-Param-* values outside visible ASCII", () => {
  it("refuses a raw Mcp-Param-Region with a non-ASCII, control or DEL byte (-32020, the id), accepts it base64-encoded", async () => {
    await fc.assert(
      fc.asyncProperty(hostileValue, fc.integer({ min: 1, max: 1e6 }), async (value, id) => {
        figures.cases++;
        const raw = await callWith(id, "test_header_param", value, { "Mcp-Name": "test_header_param", "Mcp-Param-Region": value });
        expect(await codeOf(raw), JSON.stringify(value)).toEqual({ status: 400, id, code: -32020 });
        figures.refused++;
        const encoded = await callWith(id, "test_header_param", value, {
          "Mcp-Name": "test_header_param",
          "Mcp-Param-Region": utf8Base64(value),
        });
        expect(await codeOf(encoded), JSON.stringify(value)).toEqual({ status: 200, id, code: undefined });
        figures.acceptedEncoded++;
      }),
      fuzzParameters(100, 25),
    );
  });

  it("refuses a raw Mcp-Name with such a byte whatever the body's name (-32020); base64 passes the header check", async () => {
    await fc.assert(
      fc.asyncProperty(hostileValue, async (name) => {
        figures.cases++;
        expect(await codeOf(await callWith(5, name, "x", { "Mcp-Name": name })), JSON.stringify(name)).toEqual({
          status: 400,
          id: 5,
          code: -32020,
        });
        figures.refused++;
        // Encoded, the header agrees with the body: what remains is the tool's own answer (no such tool: -32602).
        const encoded = await codeOf(await callWith(6, name, "x", { "Mcp-Name": utf8Base64(name) }));
        expect(encoded.code, JSON.stringify(name)).not.toBe(-32020);
        figures.acceptedEncoded++;
      }),
      fuzzParameters(60, 26),
    );
  });

  it("still accepts plain visible-ASCII values, with spaces and tabs inside", async () => {
    await fc.assert(
      fc.asyncProperty(plainValue, plainValue, async (a, b) => {
        const region = `${a} \t${b}`;
        const res = await callWith(9, "test_header_param", region, { "Mcp-Name": "test_header_param", "Mcp-Param-Region": region });
        expect(await codeOf(res)).toEqual({ status: 200, id: 9, code: undefined });
      }),
      fuzzParameters(40, 27),
    );
  });
});
