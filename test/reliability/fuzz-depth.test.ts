/**
 * Property: however deep or wide a client nests JSON anywhere in a request — a tool's arguments,
 * `_meta`, the declared capabilities, `inputResponses`, a junk `requestState` beside deep
 * arguments — on every method of both eras, the answer is never a 5xx and never -32603: past
 * docs/configuration.md "Limits" (64 levels for a whole message) it is 400 -32602 with the
 * request's id, within it the method's own answer; and nothing reaches the log as an unexpected
 * error. (Issue: a 2026-07-28 interactive call nested ~3,000 deep got 500 with `id: null` from a recursive
 * canonical form; a task's deep input got -32603 from the object RPC's serializer.)
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from "vitest";
import type { Session } from "../helpers/session";
import { envelope, MODERN, headers2026 } from "../helpers/era-2026";
import { post, startSession } from "./support/direct";
import { CODE, depthOf, MAX_MESSAGE_DEPTH } from "./support/documented";
import { fuzzParameters, reportFigures } from "./support/settings";

const TASKS = "io.modelcontextprotocol/tasks";
const CAPS = { elicitation: {}, sampling: {}, roots: {}, extensions: { [TASKS]: {} } };
/** A well-formed id of a task object that never existed (tasks/* look it up and say "not found"). */
const NO_TASK = "0".repeat(64);

/** The `leaf` nested `depth` levels down, `width` siblings at the bottom level (arrays or objects). */
function nested(depth: number, width: number, kind: "array" | "object"): unknown {
  let value: unknown =
    kind === "array"
      ? Array.from({ length: width }, (_, i) => i)
      : Object.fromEntries(Array.from({ length: width }, (_, i) => [`k${i}`, i]));
  for (let i = 1; i < depth; i++) value = kind === "array" ? [value] : { a: value };
  return value;
}

/** Where in a request the deep value goes; each method uses the places it reads. */
type Place = "arguments" | "meta" | "capabilities" | "inputResponses" | "junkState" | "params";

const METHODS_2026: Record<string, { params: Record<string, unknown>; places: Place[] }> = {
  "server/discover": { params: {}, places: ["meta", "capabilities", "params"] },
  "tools/list": { params: {}, places: ["meta", "capabilities", "params"] },
  // A simple tool, an interactive (MRTR) tool, a task tool: the three paths a tools/call takes.
  "tools/call#echo": { params: { name: "echo" }, places: ["arguments", "meta", "capabilities", "junkState"] },
  "tools/call#mrtr": {
    params: { name: "test_input_required_result_elicitation" },
    places: ["arguments", "meta", "capabilities", "inputResponses", "junkState"],
  },
  "tools/call#task": { params: { name: "slow_compute", arguments: { seconds: 0 } }, places: ["arguments", "meta", "capabilities"] },
  "resources/list": { params: {}, places: ["meta", "params"] },
  "resources/templates/list": { params: {}, places: ["meta", "params"] },
  "resources/read": { params: { uri: "test://static-text" }, places: ["meta", "capabilities", "junkState", "params"] },
  "prompts/list": { params: {}, places: ["meta", "params"] },
  "prompts/get": { params: { name: "test_prompt_with_arguments" }, places: ["arguments", "meta", "junkState"] },
  "completion/complete": {
    params: { ref: { type: "ref/prompt", name: "test_prompt_with_arguments" }, argument: { name: "arg1", value: "" } },
    places: ["meta", "params"],
  },
  "tasks/get": { params: { taskId: NO_TASK }, places: ["meta", "capabilities", "params"] },
  "tasks/update": { params: { taskId: NO_TASK, inputResponses: {} }, places: ["meta", "capabilities", "inputResponses"] },
  "tasks/cancel": { params: { taskId: NO_TASK }, places: ["meta", "params"] },
};

const LEGACY_METHODS: Record<string, { params: Record<string, unknown>; places: Place[] }> = {
  ping: { params: {}, places: ["meta", "params"] },
  "tools/list": { params: {}, places: ["meta", "params"] },
  "tools/call": { params: { name: "echo" }, places: ["arguments", "meta"] },
  "resources/list": { params: {}, places: ["meta", "params"] },
  "resources/read": { params: { uri: "test://static-text" }, places: ["meta", "params"] },
  "resources/subscribe": { params: { uri: "test://static-text" }, places: ["meta", "params"] },
  "prompts/get": { params: { name: "test_prompt_with_arguments" }, places: ["arguments", "meta"] },
  "completion/complete": {
    params: { ref: { type: "ref/prompt", name: "test_prompt_with_arguments" }, argument: { name: "arg1", value: "" } },
    places: ["meta", "params"],
  },
  "logging/setLevel": { params: { level: "info" }, places: ["meta", "params"] },
};

function place(params: Record<string, unknown>, where: Place, deep: unknown, capabilities: Record<string, unknown>) {
  const p = { ...params };
  const meta = (p._meta as Record<string, unknown> | undefined) ?? {};
  switch (where) {
    case "arguments":
      p.arguments = { ...(p.arguments as Record<string, unknown> | undefined), deep };
      break;
    case "meta":
      p._meta = { ...meta, "x.example/deep": deep };
      break;
    case "capabilities":
      p._meta = { ...meta, "io.modelcontextprotocol/clientCapabilities": { ...capabilities, experimental: { deep } } };
      break;
    case "inputResponses":
      p.inputResponses = { user_name: { action: "accept", content: { name: "x" }, deep } };
      break;
    case "junkState":
      p.arguments = { deep };
      p.requestState = "junk.state";
      break;
    case "params":
      p.deep = deep;
      break;
  }
  return p;
}

const shape = fc.record({
  // Around the limit, then well past it (the issue's 3,000), then far past it.
  depth: fc.oneof(fc.integer({ min: 1, max: 80 }), fc.integer({ min: 80, max: 5000 }), fc.constantFrom(59, 60, 61, 62, 63, 64, 65, 20_000)),
  width: fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 50 }), fc.constant(5000)),
  kind: fc.constantFrom("array" as const, "object" as const),
  pick: fc.nat(),
  id: fc.oneof(fc.integer({ min: 1, max: 1_000_000 }), fc.string({ minLength: 1, maxLength: 8 })),
});

interface Reply {
  jsonrpc: string;
  id?: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

const figures = { cases: 0, refusedTooDeep: 0, answered: 0, maxDepthSent: 0 };
let consoleError: MockInstance;
let session: Session;

beforeAll(async () => {
  session = await startSession("2025-11-25", { elicitation: {}, sampling: {} });
  consoleError = vi.spyOn(console, "error");
});

afterAll(() => {
  consoleError.mockRestore();
  reportFigures("fuzz-depth", figures);
});

/** The answer's contract: never 5xx or -32603; too deep is 400 -32602 with the id. */
async function expectBounded(res: Response, body: Record<string, unknown>, label: string, modern = false): Promise<void> {
  figures.cases++;
  const depth = depthOf(body);
  figures.maxDepthSent = Math.max(figures.maxDepthSent, depth);
  const text = await res.text();
  expect(res.status, `${label}: ${text.slice(0, 200)}`).toBeLessThan(500);
  if (res.headers.get("Content-Type") !== "application/json") {
    // Only a request within the limit may be answered with a stream (an interactive call).
    expect(depth, label).toBeLessThanOrEqual(MAX_MESSAGE_DEPTH);
    figures.answered++;
    return;
  }
  const reply = JSON.parse(text) as Reply;
  expect(reply.id, label).toEqual(body.id);
  if (depth > MAX_MESSAGE_DEPTH) {
    figures.refusedTooDeep++;
    expect({ status: res.status, code: reply.error?.code }, label).toEqual({ status: 400, code: CODE.INVALID_PARAMS });
    expect(reply.error?.message).toContain(`deeper than ${MAX_MESSAGE_DEPTH} levels`);
  } else {
    figures.answered++;
    expect(reply.error?.code, `${label}: ${text.slice(0, 200)}`).not.toBe(CODE.INTERNAL_ERROR);
  }
  // 2026-07-28 basic/index.mdx "Error Codes": that era's answers use no code of the legacy sub-range.
  const code = reply.error?.code ?? 0;
  if (modern) expect(code <= -32000 && code >= -32019, `${label}: legacy code ${code}`).toBe(false);
  expect(consoleError, label).not.toHaveBeenCalled();
}

describe("deep and wide JSON on the 2026-07-28 lane", () => {
  it("answers every method with its id: 400 -32602 past the depth limit, the method's own answer within it", async () => {
    const methods = Object.entries(METHODS_2026);
    await fc.assert(
      fc.asyncProperty(shape, async ({ depth, width, kind, pick, id }) => {
        const [key, spec] = methods[pick % methods.length] as (typeof methods)[number];
        const method = key.split("#")[0] as string;
        const where = spec.places[(pick >> 4) % spec.places.length] as Place;
        const base = { ...spec.params, _meta: envelope(CAPS) };
        const params = place(base, where, nested(depth, width, kind), CAPS);
        const body = { jsonrpc: "2.0", id, method, params };
        const headers: Record<string, string> = { ...headers2026(method, params), "MCP-Protocol-Version": MODERN };
        if (method.startsWith("tasks/")) headers["Mcp-Name"] = NO_TASK;
        await expectBounded(await post(body, undefined, headers), body, `${key} ${where} depth ${depth} width ${width} ${kind}`, true);
      }),
      fuzzParameters(150, 23),
    );
  });

  it("refuses a 3,000-deep interactive call with any requestState as -32602 with its id (the issue's case)", async () => {
    const params = {
      name: "test_input_required_result_elicitation",
      arguments: { x: nested(3000, 1, "array") },
      requestState: "anything",
      _meta: envelope(CAPS),
    };
    const body = { jsonrpc: "2.0", id: 7, method: "tools/call", params };
    const res = await post(body, undefined, headers2026("tools/call", params));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ id: 7, error: { code: CODE.INVALID_PARAMS } });
  });
});

describe("deep and wide JSON on the 2025 era", () => {
  it("answers every method in a session with its id: 400 -32602 past the depth limit, and the session keeps working", async () => {
    const methods = Object.entries(LEGACY_METHODS);
    await fc.assert(
      fc.asyncProperty(shape, async ({ depth, width, kind, pick, id }) => {
        const [method, spec] = methods[pick % methods.length] as (typeof methods)[number];
        const where = spec.places[(pick >> 4) % spec.places.length] as Place;
        const body = { jsonrpc: "2.0", id, method, params: place(spec.params, where, nested(depth, width, kind), {}) };
        await expectBounded(await post(body, session), body, `${method} ${where} depth ${depth} width ${width} ${kind}`);
      }),
      fuzzParameters(120, 24),
    );
    const ping = await post({ jsonrpc: "2.0", id: "alive", method: "ping" }, session);
    expect(await ping.json()).toEqual({ jsonrpc: "2.0", id: "alive", result: {} });
  });

  it("refuses initialize with capabilities nested past the limit as -32602 with its id, and a deep element of a batch alone", async () => {
    const deep = nested(MAX_MESSAGE_DEPTH, 1, "object");
    const init = {
      jsonrpc: "2.0",
      id: "i",
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: { experimental: deep }, clientInfo: { name: "x", version: "1" } },
    };
    const res = await post(init);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ id: "i", error: { code: CODE.INVALID_PARAMS } });

    const old = await startSession("2025-03-26");
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", id: 2, method: "tools/list", params: { deep } },
    ];
    const answers = (await (await post(batch, old)).json()) as Reply[];
    expect(answers.find((a) => a.id === 1)).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(answers.find((a) => a.id === 2)?.error?.code).toBe(CODE.INVALID_PARAMS);
  });
});
