/**
 * No client-chosen key reaches a plain-object lookup (issue 16, defect 5: completion argument
 * names `constructor`, `__proto__`, `toString` came back as `values: "abc"`, "[object
 * Undefined]" or -32603). Every method, with the names Object.prototype has as every key the
 * client chooses (method, tool, prompt and argument names, URIs, cursor, level, ids, tokens,
 * `_meta` keys, capability keys), on the stateless endpoint and in a session. An answer must be
 * a result of the method's shape or a precise error (-32601/-32602/-32002), never -32603 or a 5xx.
 */
import fc from "fast-check";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import type { Session } from "../helpers/session";
import { BASE, post, startSession } from "./support/direct";
import { fuzzParameters, reportFigures } from "./support/settings";

const STATELESS = `${BASE}/stateless/mcp`;
const PROTO_NAMES = [
  ...new Set([...Object.getOwnPropertyNames(Object.prototype), "__proto__", "prototype", "constructor", "hasOwnProperty"]),
];
const figures = { cases: 0, results: 0, errors: 0, internalErrors: 0, status5xx: 0, keys: PROTO_NAMES.length };
afterAll(() => reportFigures("hostile-prototype-keys", figures));

let consoleError: MockInstance;
beforeEach(() => {
  consoleError = vi.spyOn(console, "error");
});
afterEach(() => {
  consoleError.mockRestore();
});

/** A request built around one client-chosen key `k`, and what its result must look like. */
type Build = (k: string) => { method: string; params: Record<string, unknown>; shape?: (result: Record<string, unknown>) => void };

const isStringArray = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === "string");
const completionShape = (result: Record<string, unknown>) => {
  const completion = result.completion as Record<string, unknown>;
  expect(isStringArray(completion.values), `values ${JSON.stringify(completion.values)}`).toBe(true);
};
const toolShape = (result: Record<string, unknown>) => expect(Array.isArray(result.content)).toBe(true);

/** JSON with `k` as an own key (JSON.parse makes "__proto__" an own field, as a client's body does). */
const keyed = (k: string, value: unknown): Record<string, unknown> =>
  JSON.parse(`{${JSON.stringify(k)}:${JSON.stringify(value)}}`) as Record<string, unknown>;

const builds: [string, Build][] = [
  ["method name", (k) => ({ method: k, params: {} })],
  ["tools/call name", (k) => ({ method: "tools/call", params: { name: k, arguments: {} } })],
  [
    "tools/call argument key",
    (k) => ({ method: "tools/call", params: { name: "echo", arguments: { text: "x", ...keyed(k, "y") } }, shape: toolShape }),
  ],
  [
    "tools/call argument key (raw JSON Schema tool)",
    (k) => ({ method: "tools/call", params: { name: "json_schema_2020_12_tool", arguments: keyed(k, 1) }, shape: toolShape }),
  ],
  ["prompts/get name", (k) => ({ method: "prompts/get", params: { name: k } })],
  [
    "prompts/get argument key",
    (k) => ({
      method: "prompts/get",
      params: { name: "test_prompt_with_arguments", arguments: { arg1: "a", arg2: "b", ...keyed(k, "c") } },
    }),
  ],
  [
    "prompts/get with only an inherited name as argument",
    (k) => ({ method: "prompts/get", params: { name: "test_prompt_with_arguments", arguments: { ...keyed(k, "c") } } }),
  ],
  [
    "completion argument name (prompt)",
    (k) => ({
      method: "completion/complete",
      params: { ref: { type: "ref/prompt", name: "test_prompt_with_arguments" }, argument: { name: k, value: "t" } },
      shape: completionShape,
    }),
  ],
  [
    "completion argument name (template)",
    (k) => ({
      method: "completion/complete",
      params: { ref: { type: "ref/resource", uri: "test://template/{id}/data" }, argument: { name: k, value: "1" } },
      shape: completionShape,
    }),
  ],
  [
    "completion context key",
    (k) => ({
      method: "completion/complete",
      params: {
        ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
        argument: { name: "arg2", value: "v" },
        context: { arguments: keyed(k, "x") },
      },
      shape: completionShape,
    }),
  ],
  [
    "completion ref name",
    (k) => ({ method: "completion/complete", params: { ref: { type: "ref/prompt", name: k }, argument: { name: "arg1", value: "" } } }),
  ],
  [
    "completion ref type",
    (k) => ({ method: "completion/complete", params: { ref: { type: k, name: "x" }, argument: { name: "arg1", value: "" } } }),
  ],
  [
    "completion ref uri",
    (k) => ({ method: "completion/complete", params: { ref: { type: "ref/resource", uri: k }, argument: { name: "id", value: "" } } }),
  ],
  ["resources/read uri", (k) => ({ method: "resources/read", params: { uri: k } })],
  ["resources/subscribe uri", (k) => ({ method: "resources/subscribe", params: { uri: k } })],
  ["resources/unsubscribe uri", (k) => ({ method: "resources/unsubscribe", params: { uri: k } })],
  ["list cursor", (k) => ({ method: "tools/list", params: { cursor: k } })],
  ["prompts/list cursor", (k) => ({ method: "prompts/list", params: { cursor: k } })],
  ["logging/setLevel level", (k) => ({ method: "logging/setLevel", params: { level: k } })],
  [
    "_meta key and progress token",
    (k) => ({
      method: "tools/call",
      params: { name: "echo", arguments: { text: k }, _meta: { progressToken: k, ...keyed(k, k) } },
      shape: toolShape,
    }),
  ],
  ["params key", (k) => ({ method: "ping", params: keyed(k, 1) })],
];

async function check(url: string, s: Session | undefined, what: string, k: string, build: Build, id: string | number): Promise<void> {
  figures.cases++;
  const { method, params, shape } = build(k);
  const res = await post({ jsonrpc: "2.0", id, method, params }, s, url === STATELESS ? { "MCP-Protocol-Version": "2025-06-18" } : {}, url);
  if (res.status >= 500) figures.status5xx++;
  expect(res.status, `${what} = ${k}`).toBeLessThan(500);
  const body = (await res.json()) as { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } };
  if (body.error) {
    figures.errors++;
    if (body.error.code === -32603) figures.internalErrors++;
    expect([-32601, -32602, -32002, -32006, -32600], `${what} = ${k}: ${JSON.stringify(body.error)}`).toContain(body.error.code);
    expect(body.error.message, `${what} = ${k}`).not.toMatch(/\[object |Cannot read|is not a function|undefined/);
    return;
  }
  figures.results++;
  expect(body.id, `${what} = ${k}`).toEqual(id);
  shape?.(body.result as Record<string, unknown>);
}

describe("Object.prototype names as every client-chosen key", () => {
  it("get a result of the right shape or a precise error on the stateless endpoint, every key in every slot", async () => {
    for (const [what, build] of builds) {
      for (const k of PROTO_NAMES) await check(STATELESS, undefined, what, k, build, k);
    }
    expect(consoleError).not.toHaveBeenCalled();
  });

  it("get a result of the right shape or a precise error in a session, as drawn by fast-check", async () => {
    const s = await startSession("2025-06-18");
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...builds),
        fc.constantFrom(...PROTO_NAMES),
        fc.constantFrom<string | number>(1, "__proto__", "constructor"),
        async ([what, build], k, id) => {
          await check(`${BASE}/mcp`, s, what, k, build, id);
        },
      ),
      fuzzParameters(150, 18),
    );
    expect(consoleError).not.toHaveBeenCalled();
  });

  it("answer completions for an inherited argument name with an empty list of values", async () => {
    for (const k of ["constructor", "__proto__", "toString", "valueOf"]) {
      const res = await post(
        {
          jsonrpc: "2.0",
          id: 1,
          method: "completion/complete",
          params: { ref: { type: "ref/resource", uri: "test://template/{id}/data" }, argument: { name: k, value: "abc" } },
        },
        undefined,
        { "MCP-Protocol-Version": "2025-06-18" },
        STATELESS,
      );
      expect(await res.json()).toEqual({ jsonrpc: "2.0", id: 1, result: { completion: { values: [], hasMore: false } } });
    }
  });

  it("keep a prompt's required argument missing when only an inherited name is sent", async () => {
    const res = await post(
      { jsonrpc: "2.0", id: 1, method: "prompts/get", params: { name: "test_prompt_with_arguments", arguments: { constructor: "x" } } },
      undefined,
      { "MCP-Protocol-Version": "2025-06-18" },
      STATELESS,
    );
    expect(await res.json()).toMatchObject({
      error: { code: -32602, message: 'prompts/get "test_prompt_with_arguments": missing required argument(s): arg1, arg2' },
    });
  });
});
