/** Front-door helpers for tests inside workerd: requests to the real Worker through its fetch handler. */
import { exports } from "cloudflare:workers";

/** The Worker's default export, as the runtime exposes it to tests. */
const worker = (exports as unknown as { default: Fetcher }).default;

export const BASE = "http://127.0.0.1:8787";
export const MCP = `${BASE}/mcp`;
export const STATELESS = `${BASE}/stateless/mcp`;

export const ACCEPT_BOTH = "application/json, text/event-stream";

export interface PostOptions {
  url?: string;
  sessionId?: string;
  version?: string;
  headers?: Record<string, string>;
}

/** POSTs a JSON-RPC body (object, array or raw text) with correct MCP headers unless overridden. */
export function post(body: unknown, opts: PostOptions = {}): Promise<Response> {
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    Accept: ACCEPT_BOTH,
    Host: "127.0.0.1:8787",
  };
  if (opts.sessionId) headers["Mcp-Session-Id"] = opts.sessionId;
  if (opts.version) headers["MCP-Protocol-Version"] = opts.version;
  Object.assign(headers, opts.headers ?? {});
  return worker.fetch(opts.url ?? MCP, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export function request(url: string, init: RequestInit & { headers?: Record<string, string> }): Promise<Response> {
  return worker.fetch(url, { ...init, headers: { Host: "127.0.0.1:8787", ...(init.headers ?? {}) } });
}

export const initializeParams = (protocolVersion = "2025-06-18", capabilities: Record<string, unknown> = {}) => ({
  protocolVersion,
  capabilities,
  clientInfo: { name: "vitest", version: "1.0.0" },
});

/** Runs initialize + notifications/initialized and returns the session id and negotiated version. */
export async function openSession(
  protocolVersion = "2025-06-18",
  capabilities: Record<string, unknown> = {},
): Promise<{ sessionId: string; version: string }> {
  const res = await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams(protocolVersion, capabilities) });
  if (res.status !== 200) throw new Error(`initialize failed: ${res.status} ${await res.text()}`);
  const sessionId = res.headers.get("Mcp-Session-Id");
  if (!sessionId) throw new Error("initialize returned no Mcp-Session-Id");
  const body = (await res.json()) as { result: { protocolVersion: string } };
  const version = body.result.protocolVersion;
  const ack = await post({ jsonrpc: "2.0", method: "notifications/initialized" }, { sessionId, version });
  if (ack.status !== 202) throw new Error(`initialized notification got ${ack.status}`);
  return { sessionId, version };
}

/** A request in a session, answered as JSON. */
export async function call(
  sessionId: string,
  version: string,
  method: string,
  params: Record<string, unknown> = {},
  id: number | string = 1,
): Promise<Record<string, unknown>> {
  const res = await post({ jsonrpc: "2.0", id, method, params }, { sessionId, version });
  return (await res.json()) as Record<string, unknown>;
}
