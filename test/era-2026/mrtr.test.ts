/**
 * Multi round-trip requests (2026-07-28 basic/patterns/mrtr.mdx; docs/eras.md "Multi round-trip requests (MRTR)"): the same
 * `ctx.elicit/sample/listRoots` handler code answers `input_required` with every outstanding
 * ask and a signed `requestState`, and completes when the client retries with the answers.
 * Tampered, expired or mismatched states are -32602; missing answers re-ask; asks the request
 * did not declare are 400 -32021; a server without MCP_STATE_SECRET fails clearly.
 */
import { describe, expect, it, vi } from "vitest";
import { createMcpEdge } from "../../src/edge";
import { canonicalArguments, signState, verifyState } from "../../src/mcp/era-2026/request-state";
import { demoServer } from "../../src/demo/server";
import { STATELESS } from "../helpers/mcp";
import { expectComplete, expectInputRequired, expect2026Error, post2026, toolCall2026 } from "../helpers/era-2026";

const ALL = { elicitation: {}, sampling: {}, roots: {} };
const ALICE = { action: "accept", content: { name: "Alice" } };
const SAMPLED = { role: "assistant", content: { type: "text", text: "Paris" }, model: "m", stopReason: "endTurn" };

function call(
  name: string,
  extra: Record<string, unknown> = {},
  capabilities: Record<string, unknown> = ALL,
  id: number | string = 1,
  url?: string,
) {
  return post2026("tools/call", { name, arguments: {}, ...extra }, { capabilities, id, url });
}

describe("MRTR: asking and answering", () => {
  it("answers an eliciting tool with input_required: the ask under its key, a requestState, no caching hints", async () => {
    const result = await expectInputRequired(await call("test_input_required_result_elicitation"));
    expect(result.inputRequests).toEqual({
      user_name: {
        method: "elicitation/create",
        params: {
          message: "What is your name?",
          requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        },
      },
    });
    expect(result.requestState).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(result).not.toHaveProperty("ttlMs");
  });

  it("completes when the client retries with the answer and the requestState", async () => {
    const first = await expectInputRequired(await call("test_input_required_result_elicitation"));
    const done = await expectComplete(
      await call(
        "test_input_required_result_elicitation",
        { inputResponses: { user_name: ALICE }, requestState: first.requestState },
        ALL,
        2,
      ),
      2,
    );
    expect(done.content).toEqual([{ type: "text", text: "Hello, Alice!" }]);
  });

  it("collects every ask started in the same turn (Promise.all) into one input_required", async () => {
    const result = await expectInputRequired(await call("test_input_required_result_multiple_inputs"));
    expect(Object.entries(result.inputRequests).map(([k, v]) => [k, v.method])).toEqual([
      ["user_name", "elicitation/create"],
      ["greeting", "sampling/createMessage"],
      ["client_roots", "roots/list"],
    ]);
  });

  it("runs the handler again from the top with all answers so far, round after round (a new state each round)", async () => {
    const r1 = await expectInputRequired(await call("test_input_required_result_multi_round"));
    expect(Object.keys(r1.inputRequests)).toEqual(["step1"]);
    const r2 = await expectInputRequired(
      await call("test_input_required_result_multi_round", { inputResponses: { step1: ALICE }, requestState: r1.requestState }, ALL, 2),
      2,
    );
    expect(Object.keys(r2.inputRequests)).toEqual(["step2"]);
    expect(r2.requestState).not.toBe(r1.requestState);
    const color = { action: "accept", content: { color: "blue" } };
    const done = await expectComplete(
      await call("test_input_required_result_multi_round", { inputResponses: { step2: color }, requestState: r2.requestState }, ALL, 3),
      3,
    );
    expect(done.content).toEqual([{ type: "text", text: "Alice likes blue" }]);
  });

  it("keys asks by call order when the author gives no key", async () => {
    const result = await expectInputRequired(await call("test_missing_capability"));
    expect(Object.keys(result.inputRequests)).toEqual(["0"]);
    const done = await expectComplete(
      await call("test_missing_capability", { inputResponses: { 0: SAMPLED }, requestState: result.requestState }, ALL, 2),
      2,
    );
    expect(done.content).toEqual([{ type: "text", text: "Paris" }]);
  });

  it("re-asks, never errors, when the retry lacks an answer; extra answers are ignored", async () => {
    const again = await expectInputRequired(await call("test_input_required_result_elicitation", { inputResponses: { wrong_key: ALICE } }));
    expect(Object.keys(again.inputRequests)).toEqual(["user_name"]);
    const done = await expectComplete(
      await call("test_input_required_result_elicitation", { inputResponses: { user_name: ALICE, other: { x: 1 } } }),
    );
    expect(done.content).toEqual([{ type: "text", text: "Hello, Alice!" }]);
  });

  it("works on a prompt (prompts/get) with the same ask API", async () => {
    const params = { name: "test_input_required_result_prompt" };
    const first = await expectInputRequired(await post2026("prompts/get", params, { capabilities: ALL }));
    expect(Object.keys(first.inputRequests)).toEqual(["user_context"]);
    const done = await expectComplete(
      await post2026(
        "prompts/get",
        {
          ...params,
          inputResponses: { user_context: { action: "accept", content: { context: "tests" } } },
          requestState: first.requestState,
        },
        { capabilities: ALL, id: 2 },
      ),
      2,
    );
    expect(done.messages).toEqual([{ role: "user", content: { type: "text", text: "Use this context: tests" } }]);
  });

  it("works with sessions: false (the stateless path), where 2025-era clients cannot elicit", async () => {
    const first = await expectInputRequired(await call("test_input_required_result_elicitation", {}, ALL, 1, STATELESS));
    await expectComplete(
      await call(
        "test_input_required_result_elicitation",
        { inputResponses: { user_name: ALICE }, requestState: first.requestState },
        ALL,
        2,
        STATELESS,
      ),
      2,
    );
  });

  it("never answers input_required to lists (only tools/call, prompts/get and resources/read may)", async () => {
    for (const method of ["tools/list", "prompts/list"]) await expectComplete(await post2026(method, {}, { capabilities: ALL }));
  });
});

describe("MRTR: capabilities", () => {
  it("refuses an ask the request did not declare with 400 -32021 naming the capability (basic/index.mdx)", async () => {
    const body = await expect2026Error(await call("test_missing_capability", {}, {}), 400, -32021);
    expect(body.error?.data).toEqual({ requiredCapabilities: { sampling: {} } });
  });

  it("lets a tool ask only what this request declared", async () => {
    const result = await expectInputRequired(await call("test_input_required_result_capabilities", {}, { sampling: {} }));
    expect(Object.values(result.inputRequests).map((r) => r.method)).toEqual(["sampling/createMessage"]);
  });
});

describe("MRTR: requestState integrity", () => {
  async function firstState(name = "test_input_required_result_tampered_state"): Promise<string> {
    return (await expectInputRequired(await call(name))).requestState;
  }
  const CONFIRM = { confirm: { action: "accept", content: { ok: true } } };

  it("refuses a tampered requestState with -32602", async () => {
    const state = await firstState();
    await expect2026Error(
      await call("test_input_required_result_tampered_state", { inputResponses: CONFIRM, requestState: `${state}-TAMPERED` }, ALL, 2),
      200,
      -32602,
      2,
    );
    const [body, mac] = state.split(".") as [string, string];
    const flipped = `${body.slice(0, -2)}${body.endsWith("A") ? "B" : "A"}${body.slice(-1)}.${mac}`;
    await expect2026Error(
      await call("test_input_required_result_tampered_state", { inputResponses: CONFIRM, requestState: flipped }, ALL, 3),
      200,
      -32602,
      3,
    );
  });

  it("refuses a state minted for another tool, or for other arguments, with -32602", async () => {
    const state = await firstState("test_input_required_result_request_state");
    await expect2026Error(
      await call("test_input_required_result_tampered_state", { inputResponses: CONFIRM, requestState: state }, ALL, 2),
      200,
      -32602,
      2,
    );
    const echoState = await firstState("test_input_required_result_tampered_state");
    const otherArgs = await post2026(
      "tools/call",
      { name: "test_input_required_result_tampered_state", arguments: { extra: 1 }, requestState: echoState },
      { capabilities: ALL, id: 3 },
    );
    await expect2026Error(otherArgs, 200, -32602, 3);
  });

  it("refuses an expired state, and one issued to another principal (request-state.ts, clock passed in)", async () => {
    const secret = "another-test-secret-0123456789abcdef";
    const binding = { subject: "alice", method: "tools/call", name: "t", args: canonicalArguments({ a: 1 }) };
    const state = await signState(secret, binding, {}, { ttlMs: 1000, now: 0 });
    expect(await verifyState(secret, state, binding, 999)).toEqual({ ok: true, answers: {} });
    expect(await verifyState(secret, state, binding, 1000)).toMatchObject({ ok: false, problem: expect.stringContaining("expired") });
    expect(await verifyState(secret, state, { ...binding, subject: "mallory" }, 500)).toMatchObject({
      ok: false,
      problem: expect.stringContaining("another principal"),
    });
    expect(await verifyState("a-different-secret-0123456789abcdef", state, binding, 500)).toMatchObject({ ok: false });
  });

  it("binds arguments independently of key order, and refuses other arguments as another request", async () => {
    const secret = "another-test-secret-0123456789abcdef";
    const bind = (args: unknown) => ({ subject: "alice", method: "tools/call", name: "t", args: canonicalArguments(args) });
    const state = await signState(secret, bind({ a: 1, b: [1, { c: 2, d: 3 }] }), {}, { ttlMs: 1000, now: 0 });
    expect(await verifyState(secret, state, bind({ b: [1, { d: 3, c: 2 }], a: 1 }), 500)).toEqual({ ok: true, answers: {} });
    expect(await verifyState(secret, state, bind({ a: 2, b: [1, { c: 2, d: 3 }] }), 500)).toMatchObject({
      ok: false,
      problem: expect.stringContaining("another request"),
    });
    // A payload changed by hand fails the integrity check, whatever it claims.
    const [body, mac] = state.split(".") as [string, string];
    const forged = `${body.slice(0, -2)}${body.endsWith("A") ? "B" : "A"}${body.slice(-1)}.${mac}`;
    expect(await verifyState(secret, forged, bind({ a: 1, b: [1, { c: 2, d: 3 }] }), 500)).toMatchObject({ ok: false });
  });

  it("refuses a malformed answer (an elicitation result without a valid action) with -32602, not a tool result", async () => {
    const bad = { user_name: { action: "maybe" } };
    const body = await expect2026Error(await call("test_input_required_result_elicitation", { inputResponses: bad }), 200, -32602);
    expect(body.error?.message).toContain("inputResponses");
  });

  it("refuses inputResponses that are not a map of objects with -32602", async () => {
    await expect2026Error(await call("test_input_required_result_elicitation", { inputResponses: { user_name: 12345 } }), 200, -32602);
    await expect2026Error(await call("test_input_required_result_elicitation", { inputResponses: null }), 200, -32602);
  });

  /** One eliciting 2026 call to a fresh server whose env has `secret` (or none). */
  async function askWithSecret(secret: string | undefined): Promise<Response> {
    // No bindings at all: a stateless server, so only the secret is wrong (a session endpoint would report its binding).
    const edge = createMcpEdge(demoServer, { sessions: false });
    return edge.worker.fetch!(
      toolCall2026("test_input_required_result_elicitation", { url: "http://127.0.0.1/mcp", capabilities: ALL }) as never,
      (secret === undefined ? {} : { MCP_STATE_SECRET: secret }) as never,
      {} as ExecutionContext,
    );
  }

  it("fails the first ask with a clear error, never a built-in key, when MCP_STATE_SECRET is missing, and warns once", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const body = await expect2026Error(await askWithSecret(undefined), 200, -32603);
    expect(body.error?.message).toContain("MCP_STATE_SECRET");
    expect(warn.mock.calls.filter((c) => String(c[0]).includes("MCP_STATE_SECRET"))).toHaveLength(1);
    expect(logged).toHaveBeenCalledWith(expect.stringContaining("MCP_STATE_SECRET"));
    warn.mockRestore();
    logged.mockRestore();
  });

  it("names the fix in the client's error and the log: the command, .dev.vars with a restart, the production secret, the minimum", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const message = (await expect2026Error(await askWithSecret(undefined), 200, -32603)).error?.message ?? "";
    for (const text of [message, String(logged.mock.calls[0]?.[0])]) {
      expect(text).toContain("is not set");
      expect(text).toContain("openssl rand -hex 32");
      expect(text).toContain(".dev.vars");
      expect(text).toContain("restart `wrangler dev`");
      expect(text).toContain("wrangler secret put MCP_STATE_SECRET");
      expect(text).toContain("at least 32 characters");
    }
    warn.mockRestore();
    logged.mockRestore();
  });

  it("says a too-short secret is too short (not missing), without echoing it", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const message = (await expect2026Error(await askWithSecret("short-secret-xyz"), 200, -32603)).error?.message ?? "";
    expect(message).toContain("MCP_STATE_SECRET secret is too short: it needs at least 32 characters");
    expect(message).toContain("openssl rand -hex 32");
    expect(message).not.toMatch(/not set|no state secret configured/);
    expect(message).not.toContain("short-secret-xyz");
    expect(String(warn.mock.calls[0]?.[0])).toContain("too short");
    warn.mockRestore();
    logged.mockRestore();
  });

  it("says the same when a retry brings a requestState to a server whose secret is too short", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const edge = createMcpEdge(demoServer, { sessions: false });
    const retry = { requestState: "x.y", inputResponses: {} };
    const res = await edge.worker.fetch!(
      toolCall2026("test_input_required_result_elicitation", { url: "http://127.0.0.1/mcp", capabilities: ALL, extra: retry }) as never,
      { MCP_STATE_SECRET: "0123456789" } as never,
      {} as ExecutionContext,
    );
    const message = (await expect2026Error(res, 200, -32603)).error?.message ?? "";
    expect(message).toContain("cannot continue multi round-trip requests: the MCP_STATE_SECRET secret is too short");
    expect(message).toContain("restart `wrangler dev`");
    logged.mockRestore();
    warn.mockRestore();
  });
});
