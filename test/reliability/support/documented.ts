/**
 * The documented contract (docs/errors.md, docs/configuration.md) as an oracle: an independent reading of JSON-RPC 2.0 and MCP message
 * rules (not a copy of src/jsonrpc/parse.ts), the JSON-RPC codes the error table (docs/errors.md) gives
 * for each failure, and checks shared by every reliability test (no 5xx, a well-formed error,
 * no leaked internals).
 */
import { expect } from "vitest";
import { demoServer } from "../../../src/demo/server";
import { leaksIn } from "./leaks";

export const CODE = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  TRANSPORT: -32000,
  SESSION_NOT_FOUND: -32001,
  RESOURCE_NOT_FOUND: -32002,
  LIMIT_EXCEEDED: -32003,
  CANCELLED: -32004,
  SESSION_RESTARTED: -32005,
  CAPABILITY_UNAVAILABLE: -32006,
  CLIENT_ERROR: -32007,
  REQUEST_TIMEOUT: -32008,
  MISSING_CLIENT_CAPABILITY: -32021,
} as const;

export type RpcId = string | number;

/** The request methods the runtime serves, and the JSON-RPC errors docs/errors.md allows for bad params of each. */
const METHOD_ERRORS: Record<string, readonly number[]> = {
  initialize: [CODE.INVALID_PARAMS],
  ping: [],
  "tools/list": [CODE.INVALID_PARAMS],
  // A tool that runs only as a task: -32021 on 2026-07-28, -32601 on a 2025-era session (docs/errors.md "HTTP errors").
  "tools/call": [CODE.INVALID_PARAMS, CODE.MISSING_CLIENT_CAPABILITY, CODE.METHOD_NOT_FOUND],
  "resources/list": [CODE.INVALID_PARAMS],
  "resources/templates/list": [CODE.INVALID_PARAMS],
  "resources/read": [CODE.INVALID_PARAMS, CODE.RESOURCE_NOT_FOUND],
  "resources/subscribe": [CODE.INVALID_PARAMS, CODE.RESOURCE_NOT_FOUND],
  "resources/unsubscribe": [CODE.INVALID_PARAMS],
  "prompts/list": [CODE.INVALID_PARAMS],
  // An interactive prompt's asks fail like any server-to-client request raised outside a tool (docs/errors.md "HTTP errors").
  "prompts/get": [
    CODE.INVALID_PARAMS,
    CODE.CAPABILITY_UNAVAILABLE,
    CODE.CLIENT_ERROR,
    CODE.REQUEST_TIMEOUT,
    CODE.CANCELLED,
    CODE.SESSION_RESTARTED,
    CODE.LIMIT_EXCEEDED,
  ],
  "completion/complete": [CODE.INVALID_PARAMS],
  "logging/setLevel": [CODE.INVALID_PARAMS],
};

/** JSON-RPC error codes a response to `method` may carry (docs/errors.md "HTTP errors": unknown method / bad params …). */
function allowedErrorCodes(method: string): readonly number[] {
  return Object.hasOwn(METHOD_ERRORS, method) ? (METHOD_ERRORS[method] as readonly number[]) : [CODE.METHOD_NOT_FOUND];
}

function isInteractiveTool(name: unknown): boolean {
  return typeof name === "string" && demoServer.tools.get(name)?.interactive === true;
}

export type Entry =
  | { kind: "request"; id: RpcId; method: string; params: Record<string, unknown> | undefined }
  | { kind: "notification"; method: string }
  | { kind: "response" }
  /** `code`: -32600, or -32602 for a message nesting deeper than docs/configuration.md "Limits" allows. */
  | { kind: "invalid"; id: RpcId | null; code?: number };

export type Body = { kind: "not-json" } | { kind: "empty-batch" } | { kind: "single"; entry: Entry } | { kind: "batch"; entries: Entry[] };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** docs/configuration.md "Limits": a numeric id beyond ±(2^53 − 1) cannot be echoed exactly, so it is refused like no id. */
function validId(v: unknown): RpcId | null {
  return typeof v === "string" || (typeof v === "number" && Number.isFinite(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER) ? v : null;
}

/** docs/configuration.md "Limits": the deepest nesting of one message (the message object is level 1). */
export const MAX_MESSAGE_DEPTH = 64;

/** The nesting depth of a decoded value (scalars 0), without recursion. */
export function depthOf(root: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[root, 1]];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [v, d] = top;
    if (typeof v !== "object" || v === null) continue;
    max = Math.max(max, d);
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

/** JSON-RPC 2.0 §4-5 with MCP's rules (params by name, request ids never null); too deep is -32602 with the id. */
function classifyEntry(v: unknown): Entry {
  if (depthOf(v) > MAX_MESSAGE_DEPTH) return { kind: "invalid", id: isObject(v) ? validId(v.id) : null, code: CODE.INVALID_PARAMS };
  if (!isObject(v)) return { kind: "invalid", id: null };
  const id = validId(v.id);
  if (v.jsonrpc !== "2.0") return { kind: "invalid", id };
  if ("method" in v) {
    if (typeof v.method !== "string" || v.method === "") return { kind: "invalid", id };
    if ("params" in v && !isObject(v.params)) return { kind: "invalid", id };
    const params = v.params as Record<string, unknown> | undefined;
    if (!("id" in v)) return { kind: "notification", method: v.method };
    if (id === null) return { kind: "invalid", id: null };
    return { kind: "request", id, method: v.method, params };
  }
  const hasResult = "result" in v;
  const hasError = "error" in v;
  if (hasResult === hasError) return { kind: "invalid", id };
  if (hasResult) return id !== null && isObject(v.result) ? { kind: "response" } : { kind: "invalid", id };
  const e = v.error;
  const errorOk = isObject(e) && typeof e.code === "number" && typeof e.message === "string";
  return errorOk && (v.id === null || id !== null) ? { kind: "response" } : { kind: "invalid", id };
}

/** Decodes like a WHATWG client (invalid UTF-8 becomes U+FFFD) and classifies the body. */
export function classifyBody(text: string): Body {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "not-json" };
  }
  if (Array.isArray(value)) return value.length === 0 ? { kind: "empty-batch" } : { kind: "batch", entries: value.map(classifyEntry) };
  return { kind: "single", entry: classifyEntry(value) };
}

/** A tools/call of an interactive tool, or a prompts/get of an interactive prompt (docs/server.md "Defining a server"). */
export function isInteractiveCall(entry: Entry): boolean {
  if (entry.kind !== "request") return false;
  if (entry.method === "tools/call") return isInteractiveTool(entry.params?.name);
  const uri = entry.params?.uri;
  if (entry.method === "resources/read") return typeof uri === "string" && demoServer.resources.get(uri)?.interactive === true;
  const name = entry.params?.name;
  return entry.method === "prompts/get" && typeof name === "string" && demoServer.prompts.get(name)?.interactive === true;
}

export interface RpcErrorBody {
  jsonrpc: string;
  id: RpcId | null;
  error: { code: number; message: string; data?: unknown };
}

/** Asserts a JSON-RPC error answer with this status and code; `ids` lists the ids it may carry. */
export async function expectRefusal(
  res: Response,
  status: number,
  code: number,
  ids: readonly (RpcId | null)[] = [null],
  requestParts: readonly string[] = [],
): Promise<RpcErrorBody> {
  const text = await res.text();
  let body: RpcErrorBody | undefined;
  try {
    body = JSON.parse(text) as RpcErrorBody;
  } catch {
    body = undefined;
  }
  expect({ status: res.status, type: res.headers.get("Content-Type"), code: body?.error?.code }, text.slice(0, 300)).toEqual({
    status,
    type: "application/json",
    code,
  });
  expect(body?.jsonrpc).toBe("2.0");
  expect(ids).toContainEqual(body?.id);
  expect(typeof body?.error.message).toBe("string");
  expect(leaksIn(text, requestParts, true)).toEqual([]);
  return body as RpcErrorBody;
}

/** A JSON-RPC response object as received (JSON lane or SSE event). */
export interface RpcResponse {
  jsonrpc: string;
  id: RpcId | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** Asserts a response to `request` is a result, or an error docs/errors.md documents for its method. */
export function expectDocumentedResponse(
  response: RpcResponse,
  request: Extract<Entry, { kind: "request" }>,
  extraCodes: readonly number[] = [],
): void {
  expect(response.jsonrpc).toBe("2.0");
  expect(JSON.stringify(response.id)).toBe(JSON.stringify(request.id)); // -0 travels as 0
  if (response.error === undefined) {
    expect(typeof response.result === "object" && response.result !== null, JSON.stringify(response).slice(0, 300)).toBe(true);
    return;
  }
  expect(typeof response.error.message).toBe("string");
  expect(
    [...allowedErrorCodes(request.method), ...extraCodes],
    `${request.method}: ${JSON.stringify(response.error).slice(0, 300)}`,
  ).toContain(response.error.code);
}

/** docs/errors.md: an invalid entry inside a batch is answered with -32600, a too deep one -32602 (request id when recoverable). */
export function expectInvalidEntryAnswer(response: RpcResponse, entry: Extract<Entry, { kind: "invalid" }>): void {
  expect(response.error?.code).toBe(entry.code ?? CODE.INVALID_REQUEST);
  expect([null, entry.id]).toContainEqual(response.id);
}
