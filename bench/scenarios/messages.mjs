// The MCP messages the benchmark sends, serialised once, and the client steps every scenario
// shares (open and close a session, one MRTR round, create and poll a task) with their checks.

import { send } from "../harness/load.mjs";

export const PROTOCOL_VERSION = "2025-11-25";
const ACCEPT_BOTH = "application/json, text/event-stream";

export const rpc = (id, method, params) =>
  JSON.stringify(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
export const INITIALIZE = rpc(0, "initialize", {
  protocolVersion: PROTOCOL_VERSION,
  capabilities: {},
  clientInfo: { name: "mcp-edge-bench", version: "1.0.0" },
});
export const INITIALIZED = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
export const ECHO_CALL = rpc(1, "tools/call", { name: "echo", arguments: { text: "hello" } });
// 2026-07-28: the envelope travels in every request's _meta, the headers mirror the body.
export const MODERN_ECHO_CALL = rpc(1, "tools/call", {
  name: "echo",
  arguments: { text: "hello" },
  _meta: {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "mcp-edge-bench", version: "1.0.0" },
  },
});
/** The standard headers of a 2026-07-28 request of `method` (a tool call adds its Mcp-Name). */
export const modernHeaders = (method) => ({
  "content-type": "application/json",
  accept: ACCEPT_BOTH,
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": method,
});
export const MODERN_HEADERS = { ...modernHeaders("tools/call"), "mcp-name": "echo" };
export const MODERN_META = MODERN_ECHO_CALL && JSON.parse(MODERN_ECHO_CALL).params._meta;
export const mrtrCall = (extra) =>
  rpc(3, "tools/call", {
    name: "test_input_required_result_elicitation",
    arguments: {},
    _meta: { ...MODERN_META, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } },
    ...extra,
  });
export const MRTR_HEADERS = { ...MODERN_HEADERS, "mcp-name": "test_input_required_result_elicitation" };

/** One MRTR round trip: the ask (input_required + requestState), then the retry with the answer. */
export async function mrtrRound(demo) {
  const first = JSON.parse((await send(demo, { path: "/mcp", headers: MRTR_HEADERS, body: mrtrCall({}) })).text).result;
  if (first?.resultType !== "input_required") throw new Error(`MRTR: expected input_required, got ${JSON.stringify(first).slice(0, 200)}`);
  const retry = mrtrCall({
    inputResponses: { user_name: { action: "accept", content: { name: "Alice" } } },
    requestState: first.requestState,
  });
  const done = JSON.parse((await send(demo, { path: "/mcp", headers: MRTR_HEADERS, body: retry })).text).result;
  if (done?.content?.[0]?.text !== "Hello, Alice!") throw new Error(`MRTR: unexpected final answer ${JSON.stringify(done).slice(0, 200)}`);
}

// Events extension: a client that declared it (events/poll, events/stream, events/subscribe).
export const EVENTS_META = {
  ...MODERN_META,
  "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/events": {} } },
};

// Tasks extension: a task tool called by a client that declared the extension becomes a task.
export const TASKS_META = {
  ...MODERN_META,
  "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
};
export const TASK_CALL = rpc(4, "tools/call", { name: "slow_compute", arguments: { seconds: 0 }, _meta: TASKS_META });
export const TASK_HEADERS = { ...MODERN_HEADERS, "mcp-name": "slow_compute" };

/** Creates one task (answered only once its object stored it) and returns its id. */
export async function createBenchTask(demo) {
  const result = JSON.parse((await send(demo, { path: "/mcp", headers: TASK_HEADERS, body: TASK_CALL })).text).result;
  if (result?.resultType !== "task" || typeof result.taskId !== "string")
    throw new Error(`tasks: expected a CreateTaskResult, got ${JSON.stringify(result).slice(0, 200)}`);
  return result.taskId;
}

/** tasks/get of one task; returns its status. */
export async function getBenchTask(demo, taskId) {
  const headers = { ...MODERN_HEADERS, "mcp-method": "tasks/get", "mcp-name": taskId };
  const result = JSON.parse(
    (await send(demo, { path: "/mcp", headers, body: rpc(5, "tasks/get", { taskId, _meta: TASKS_META }) })).text,
  ).result;
  if (typeof result?.status !== "string") throw new Error(`tasks/get: unexpected answer ${JSON.stringify(result).slice(0, 200)}`);
  return result.status;
}

export const progressCall = (count) => rpc(2, "tools/call", { name: "stream_progress", arguments: { count }, _meta: { progressToken: 1 } });

export const POST_HEADERS = { "content-type": "application/json", accept: ACCEPT_BOTH };
export const sessionHeaders = (sessionId) => ({ ...POST_HEADERS, "mcp-session-id": sessionId, "mcp-protocol-version": PROTOCOL_VERSION });

export function countOf(text, needle) {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

export function expectEcho(text) {
  if (JSON.parse(text).result?.content?.[0]?.text !== "hello") throw new Error(`unexpected echo answer: ${text.slice(0, 200)}`);
}

/** An SSE body must hold `count` progress notifications and end with the tool's `done <count>`. */
export function expectProgressStream(text, count) {
  const progress = countOf(text, '"notifications/progress"');
  if (progress !== count || !text.includes(`done ${count}`)) {
    throw new Error(
      `SSE stream had ${progress} of ${count} progress notifications${text.includes(`done ${count}`) ? "" : " and no result"}`,
    );
  }
}

export async function openSession(pool, path = "/mcp") {
  const init = await send(pool, { path, headers: POST_HEADERS, body: INITIALIZE });
  const sessionId = init.headers["mcp-session-id"];
  if (typeof sessionId !== "string") throw new Error("initialize answered without Mcp-Session-Id");
  await send(pool, { path, headers: sessionHeaders(sessionId), body: INITIALIZED, expect: 202 });
  return sessionId;
}

export async function closeSession(pool, sessionId, path = "/mcp") {
  await send(pool, { method: "DELETE", path, headers: sessionHeaders(sessionId), expect: 204 });
}
