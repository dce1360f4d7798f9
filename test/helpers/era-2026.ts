/**
 * Front-door helpers for 2026-07-28 requests: the headers a conforming client sends
 * (MCP-Protocol-Version, Mcp-Method, Mcp-Name) and the `_meta` envelope, each overridable so
 * a test can break exactly one of them.
 */
import { expect } from "vitest";
import { MCP, post, type PostOptions } from "./mcp";
import type { RpcReply } from "./rpc-expect";

export const MODERN = "2026-07-28";

export interface Options2026 extends PostOptions {
  capabilities?: Record<string, unknown>;
  logLevel?: string;
  /** Replaces the whole `_meta` (undefined keys are dropped). */
  meta?: Record<string, unknown>;
  id?: number | string;
}

export function envelope(capabilities: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": { name: "vitest", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    ...extra,
  };
}

/** The standard headers for a method and its body (streamable-http.mdx "Standard Request Headers"). */
export function headers2026(method: string, params: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = { "MCP-Protocol-Version": MODERN, "Mcp-Method": method };
  const name = method === "resources/read" ? params.uri : params.name;
  if ((method === "tools/call" || method === "prompts/get" || method === "resources/read") && typeof name === "string")
    headers["Mcp-Name"] = name;
  return headers;
}

/**
 * One 2026-07-28 `tools/call` as a conforming client builds it (headers and `_meta` envelope),
 * for a test that hands it to a Worker of its own rather than the project's front door.
 */
export function toolCall2026(
  name: string,
  opts: {
    id?: number;
    url?: string;
    capabilities?: Record<string, unknown>;
    args?: Record<string, unknown>;
    extra?: Record<string, unknown>;
  } = {},
): Request {
  const params = { name, arguments: opts.args ?? {}, ...opts.extra };
  return new Request(opts.url ?? MCP, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers2026("tools/call", params) },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: opts.id ?? 1,
      method: "tools/call",
      params: { ...params, _meta: envelope(opts.capabilities) },
    }),
  });
}

/** POSTs one 2026-07-28 request; `opts.headers` override the standard ones (a null-ish value removes nothing: use `omit`). */
export function post2026(
  method: string,
  params: Record<string, unknown> = {},
  opts: Options2026 & { omit?: string[] } = {},
): Promise<Response> {
  const meta = opts.meta ?? envelope(opts.capabilities, opts.logLevel ? { "io.modelcontextprotocol/logLevel": opts.logLevel } : {});
  const headers = { ...headers2026(method, params), ...(opts.headers ?? {}) };
  for (const name of opts.omit ?? []) delete headers[name];
  return post({ jsonrpc: "2.0", id: opts.id ?? 1, method, params: { ...params, _meta: meta } }, { url: opts.url ?? MCP, headers });
}

/** Asserts a 200 JSON answer with a complete result and returns it. */
export async function expectComplete(res: Response, id: number | string = 1): Promise<Record<string, unknown>> {
  const body = (await res.json()) as RpcReply;
  expect({ status: res.status, type: res.headers.get("Content-Type"), id: body.id, error: body.error }).toEqual({
    status: 200,
    type: "application/json",
    id,
    error: undefined,
  });
  expect(body.result?.resultType).toBe("complete");
  return body.result as Record<string, unknown>;
}

/** Asserts a 200 JSON answer with `resultType: "input_required"` and returns it. */
export async function expectInputRequired(
  res: Response,
  id: number | string = 1,
): Promise<{ inputRequests: Record<string, { method: string; params: Record<string, unknown> }>; requestState: string }> {
  const body = (await res.json()) as RpcReply;
  expect({ status: res.status, id: body.id, error: body.error }).toEqual({ status: 200, id, error: undefined });
  expect(body.result?.resultType).toBe("input_required");
  return body.result as never;
}

/** Asserts a JSON-RPC error with status and code; the id must be the request's (2026: never null). */
export async function expect2026Error(res: Response, status: number, code: number, id: number | string = 1): Promise<RpcReply> {
  const body = (await res.json()) as RpcReply;
  expect({ status: res.status, type: res.headers.get("Content-Type"), jsonrpc: body.jsonrpc, id: body.id, code: body.error?.code }).toEqual(
    { status, type: "application/json", jsonrpc: "2.0", id, code },
  );
  expect(body.error?.message).toEqual(expect.stringMatching(/\S/));
  return body;
}
