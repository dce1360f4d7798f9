/** RpcError and the code constants (the HTTP layer is test/http/refusal-table.test.ts). */
import { describe, expect, it } from "vitest";
import * as codes from "../../src/jsonrpc/errors";
import { RpcError } from "../../src/jsonrpc/errors";

describe("RpcError", () => {
  it("serialises to code and message, and includes data only when given", () => {
    expect(JSON.parse(JSON.stringify(new RpcError(-32602, "bad")))).toEqual({ code: -32602, message: "bad" });
    expect(new RpcError(-32002, "nf", { uri: "x" }).toJSON()).toEqual({ code: -32002, message: "nf", data: { uri: "x" } });
  });
});

describe("error codes", () => {
  it("never gives one number two meanings", () => {
    const numbers = Object.entries(codes)
      .filter(([, v]) => typeof v === "number")
      .map(([, v]) => v);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it("keeps every server-defined code in -32000..-32099, except the 2026-07-28 lane's, which is outside the reserved range", () => {
    const standard: unknown[] = [
      codes.PARSE_ERROR,
      codes.INVALID_REQUEST,
      codes.METHOD_NOT_FOUND,
      codes.INVALID_PARAMS,
      codes.INTERNAL_ERROR,
    ];
    // 2026-07-28 basic/index.mdx "Error Codes": new codes SHOULD be allocated outside -32768..-32000.
    for (const code of [codes.LIMIT_EXCEEDED_2026, codes.AUTHORIZATION_REQUIRED_2026]) {
      expect(code < -32768 || code > -32000).toBe(true);
      standard.push(code);
    }
    const serverDefined = Object.values(codes as Record<string, unknown>).filter(
      (v): v is number => typeof v === "number" && !standard.includes(v),
    );
    expect(serverDefined.length).toBeGreaterThan(0);
    for (const code of serverDefined) expect(code >= -32099 && code <= -32000).toBe(true);
  });
});
