/**
 * Error messages never echo secrets or internals: a recognisable secret in the Authorization
 * header (which the runtime does not use yet and must ignore) appears in no response — status
 * line, header or body — and in no console output, across every row of the error table (docs/errors.md)
 * and the success paths. Also the one wording leak the body fuzzer found (BUG-5).
 */
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from "vitest";
import { SseReader } from "../helpers/sse";
import type { Session } from "../helpers/session";
import { ACCEPT_BOTH, BASE, MCP, getStream, post, request, startSession } from "./support/direct";
import { leaksIn } from "./support/leaks";

const SECRET = "sk-live-7f3a9c1e5b2d4680-RELIABILITY-SECRET";
const AUTH = { Authorization: `Bearer ${SECRET}` };
const METHODS = ["log", "error", "warn", "info", "debug"] as const;
let spies: MockInstance[] = [];
let s: Session;

beforeAll(async () => {
  s = await startSession("2025-06-18", { sampling: {} });
  spies = METHODS.map((m) => vi.spyOn(console, m));
});
afterAll(() => spies.forEach((spy) => spy.mockRestore()));

function consoleText(): string {
  return spies
    .flatMap((spy) =>
      spy.mock.calls.map((args) =>
        args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : typeof a === "string" ? a : JSON.stringify(a))).join(" "),
      ),
    )
    .join("\n");
}

const session = (extra: Record<string, string> = {}) => ({ "Mcp-Session-Id": s.sessionId, "MCP-Protocol-Version": s.version, ...extra });
const body = (method: string, params: Record<string, unknown> = {}) => JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });

/** One request per row of the error table (docs/errors.md), plus the success paths, each carrying the secret. */
const CASES: [string, () => Promise<Response>][] = [
  ["403 foreign Host", () => post(body("ping"), undefined, { ...AUTH, Host: "evil.example" })],
  ["403 foreign Origin", () => post(body("ping"), undefined, { ...AUTH, Origin: "https://evil.example" })],
  ["415 Content-Type", () => post(body("ping"), undefined, { ...AUTH, "Content-Type": "text/plain" })],
  ["406 Accept", () => post(body("ping"), undefined, { ...AUTH, Accept: "text/html" })],
  ["400 not JSON", () => post("{nope", s, AUTH)],
  ["400 invalid message", () => post(JSON.stringify({ jsonrpc: "1.0", id: 1, method: "ping" }), s, AUTH)],
  ["400 batch in 2025-06-18", () => post(JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "ping" }]), s, AUTH)],
  ["400 unsupported version", () => post(body("ping"), s, { ...AUTH, "MCP-Protocol-Version": "1999-01-01" })],
  ["400 missing session id", () => post(body("ping"), undefined, AUTH)],
  ["404 unknown session", () => post(body("ping"), undefined, { ...AUTH, "Mcp-Session-Id": "ab".repeat(32) })],
  ["413 body too large", () => post("x".repeat(4 * 1024 * 1024 + 1), s, AUTH)],
  ["400 Last-Event-ID", () => getStream(s, "999_1", AUTH)],
  ["405 method", () => request(MCP, { method: "PUT", headers: { ...AUTH, ...session() }, body: "{}" })],
  ["404 path", () => request(`${BASE}/elsewhere`, { method: "GET", headers: AUTH })],
  ["-32601 unknown method", () => post(body("no/such"), s, AUTH)],
  ["-32602 bad params", () => post(body("tools/call", { name: 42 }), s, AUTH)],
  ["-32002 resource not found", () => post(body("resources/read", { uri: "test://missing" }), s, AUTH)],
  ["tool error", () => post(body("tools/call", { name: "test_error_handling" }), s, AUTH)],
  [
    "interactive call",
    () => post(body("tools/call", { name: "stream_progress", arguments: { count: 2 }, _meta: { progressToken: "t" } }), s, AUTH),
  ],
  ["initialize", () => post(body("initialize", { protocolVersion: "2025-06-18", capabilities: {} }), undefined, AUTH)],
  [
    "preflight",
    () =>
      request(MCP, { method: "OPTIONS", headers: { ...AUTH, Origin: "http://localhost:5173", "Access-Control-Request-Method": "POST" } }),
  ],
  [
    "500 (BUG-1) deep initialize",
    () =>
      post(
        `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"x":${"[".repeat(5000)}${"]".repeat(5000)}}}}`,
        undefined,
        AUTH,
      ),
  ],
];

describe("a secret in the Authorization header", () => {
  it.each(CASES)("is in no part of the answer to %s", async (_row, send) => {
    const res = await send();
    const text =
      res.headers.get("Content-Type") === "text/event-stream"
        ? (await new SseReader(res).all()).map((e) => e.data).join("\n")
        : await res.text();
    expect(text).not.toContain(SECRET);
    expect(res.statusText).not.toContain(SECRET);
    for (const [name, value] of res.headers) expect(`${name}: ${value}`).not.toContain(SECRET);
    expect(leaksIn(text, [], true)).toEqual([]);
  });

  it("is in no console output of the Worker or the session object, after all of the above", () => {
    expect(consoleText()).not.toContain(SECRET);
  });
});

describe("wording of validation errors", () => {
  // BUG-5: zod's message for a missing property reads "expected string, received undefined".
  it("names a missing tool argument without JavaScript's 'undefined'", async () => {
    const res = await post(body("tools/call", { name: "echo", arguments: {} }), s, { Accept: ACCEPT_BOTH });
    const text = await res.text();
    expect(text).toContain("text");
    expect(leaksIn(text)).toEqual([]);
  });
});
