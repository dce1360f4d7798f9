/** parseBody / parseMessage: untrusted text to JSON-RPC messages (JSON-RPC 2.0 §4-6, MCP "Messages"). */
import { describe, expect, it } from "vitest";
import { INVALID_REQUEST, PARSE_ERROR, RpcError } from "../../src/jsonrpc/errors";
import { parseBody, parseMessage, type ParsedEntry } from "../../src/jsonrpc/parse";

function rejected(entry: ParsedEntry): { code: number; id: unknown } {
  if (entry.ok) throw new Error(`expected a rejection, got ${JSON.stringify(entry.message)}`);
  return { code: entry.error.code, id: entry.id };
}

describe("parseBody", () => {
  it("returns -32700 for text that is not JSON", () => {
    const parsed = parseBody("{oops");
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error).toBeInstanceOf(RpcError);
      expect(parsed.error.code).toBe(PARSE_ERROR);
    }
  });

  it("returns -32600 for an empty array", () => {
    const parsed = parseBody("[]");
    expect(parsed.ok ? undefined : parsed.error.code).toBe(INVALID_REQUEST);
  });

  it("returns one entry for a single message", () => {
    expect(parseBody('{"jsonrpc":"2.0","id":1,"method":"ping"}')).toEqual({
      ok: true,
      batch: false,
      entry: { ok: true, message: { kind: "request", id: 1, method: "ping", params: undefined } },
    });
  });

  it("returns an entry per batch element, keeping invalid elements in place", () => {
    const parsed = parseBody('[{"jsonrpc":"2.0","id":1,"method":"ping"}, 5, {"jsonrpc":"2.0","method":"n"}]');
    expect(parsed.ok && parsed.batch).toBe(true);
    if (parsed.ok && parsed.batch) {
      expect(parsed.entries.map((e) => (e.ok ? e.message.kind : "invalid"))).toEqual(["request", "invalid", "notification"]);
    }
  });

  it("treats a batch of one as a batch", () => {
    const parsed = parseBody('[{"jsonrpc":"2.0","id":1,"method":"ping"}]');
    expect(parsed.ok && parsed.batch && parsed.entries.length).toBe(1);
  });
});

describe("parseMessage: requests and notifications", () => {
  it("parses a request with string id and object params", () => {
    expect(parseMessage({ jsonrpc: "2.0", id: "a", method: "tools/call", params: { name: "x" } })).toEqual({
      ok: true,
      message: { kind: "request", id: "a", method: "tools/call", params: { name: "x" } },
    });
  });

  it("parses a message without id as a notification", () => {
    expect(parseMessage({ jsonrpc: "2.0", method: "notifications/initialized" })).toEqual({
      ok: true,
      message: { kind: "notification", method: "notifications/initialized", params: undefined },
    });
  });

  it("keeps id 0 as a request id (0 is not absent)", () => {
    const entry = parseMessage({ jsonrpc: "2.0", id: 0, method: "ping" });
    expect(entry.ok && entry.message.kind === "request" && entry.message.id).toBe(0);
  });

  it("rejects id null on a request (MCP: the id MUST NOT be null) and answers with id null", () => {
    expect(rejected(parseMessage({ jsonrpc: "2.0", id: null, method: "ping" }))).toEqual({ code: INVALID_REQUEST, id: null });
  });

  it("rejects a wrong jsonrpc version and keeps the id for the answer", () => {
    expect(rejected(parseMessage({ jsonrpc: "1.0", id: 4, method: "ping" }))).toEqual({ code: INVALID_REQUEST, id: 4 });
  });

  it("rejects params that are an array (MCP params are by name) and keeps the id", () => {
    expect(rejected(parseMessage({ jsonrpc: "2.0", id: "p", method: "ping", params: [] }))).toEqual({ code: INVALID_REQUEST, id: "p" });
  });

  it("rejects params that are null", () => {
    expect(rejected(parseMessage({ jsonrpc: "2.0", id: 1, method: "ping", params: null })).code).toBe(INVALID_REQUEST);
  });

  it("rejects an empty method name", () => {
    expect(rejected(parseMessage({ jsonrpc: "2.0", id: 2, method: "" }))).toEqual({ code: INVALID_REQUEST, id: 2 });
  });

  it("rejects an id that is a boolean or an object, answering with id null", () => {
    expect(rejected(parseMessage({ jsonrpc: "2.0", id: true, method: "ping" }))).toEqual({ code: INVALID_REQUEST, id: null });
    expect(rejected(parseMessage({ jsonrpc: "2.0", id: {}, method: "ping" }))).toEqual({ code: INVALID_REQUEST, id: null });
  });

  it("rejects a non-finite numeric id", () => {
    expect(rejected(parseMessage({ jsonrpc: "2.0", id: Number.NaN, method: "ping" })).id).toBeNull();
  });

  it("rejects values that are not objects", () => {
    for (const value of [null, 1, "x", [], true]) {
      expect(rejected(parseMessage(value))).toEqual({ code: INVALID_REQUEST, id: null });
    }
  });
});

describe("parseMessage: responses", () => {
  it("parses a result", () => {
    expect(parseMessage({ jsonrpc: "2.0", id: 3, result: {} })).toEqual({ ok: true, message: { kind: "result", id: 3, result: {} } });
  });

  it("parses an error with data, and an error with id null", () => {
    expect(parseMessage({ jsonrpc: "2.0", id: 3, error: { code: -1, message: "m", data: { x: 1 } } })).toEqual({
      ok: true,
      message: { kind: "error", id: 3, error: { code: -1, message: "m", data: { x: 1 } } },
    });
    const entry = parseMessage({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "bad" } });
    expect(entry.ok && entry.message.kind === "error" && entry.message.id).toBeNull();
  });

  it("rejects a response with both result and error", () => {
    expect(rejected(parseMessage({ jsonrpc: "2.0", id: 3, result: {}, error: { code: 1, message: "m" } })).code).toBe(INVALID_REQUEST);
  });

  it("rejects a result without an id", () => {
    expect(rejected(parseMessage({ jsonrpc: "2.0", result: {} })).code).toBe(INVALID_REQUEST);
  });

  it("rejects a result that is not an object", () => {
    expect(rejected(parseMessage({ jsonrpc: "2.0", id: 1, result: 5 })).code).toBe(INVALID_REQUEST);
  });

  it("rejects an error object without a numeric code or a string message", () => {
    expect(rejected(parseMessage({ jsonrpc: "2.0", id: 1, error: { code: "x", message: "m" } })).code).toBe(INVALID_REQUEST);
    expect(rejected(parseMessage({ jsonrpc: "2.0", id: 1, error: { code: 1 } })).code).toBe(INVALID_REQUEST);
  });

  it("rejects an object with neither method, result nor error, with its id when the id is valid", () => {
    expect(rejected(parseMessage({ jsonrpc: "2.0", id: 1 }))).toEqual({ code: INVALID_REQUEST, id: 1 });
    expect(rejected(parseMessage({ jsonrpc: "2.0", id: [1] }))).toEqual({ code: INVALID_REQUEST, id: null });
  });
});
