/**
 * The Worker's own fetch handler, called directly with the test's real bindings (the session
 * Durable Object namespace is the real one, so every session request still crosses into a real
 * object with real SQLite storage).
 *
 * Why not `exports.default.fetch` like the other suites: in @cloudflare/vitest-pool-workers 0.15
 * every request through `exports.default` makes the next ones slower within a test file (measured
 * here: 250 trivial 403s take 3 s, the next 250 10 s, then 30 s, then 55 s), which rules out
 * thousands of fuzz cases. The handler called directly answers 250 requests in 5 ms, flat.
 */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../../src/demo/worker";
import { SseReader } from "../../helpers/sse";
import type { Session } from "../../helpers/session";
import { expect } from "vitest";

export const BASE = "http://127.0.0.1:8787";
export const MCP = `${BASE}/mcp`;
export const ACCEPT_BOTH = "application/json, text/event-stream";

const handler = worker as unknown as { fetch(request: Request, env: unknown, ctx: ExecutionContext): Promise<Response> };

/** A request to the Worker, with the loopback Host unless `init.headers` names another. */
export function request(url: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Response> {
  return handler.fetch(
    new Request(url, { ...init, headers: { Host: "127.0.0.1:8787", ...(init.headers ?? {}) } }),
    env,
    createExecutionContext(),
  );
}

/**
 * JSON.stringify without recursion: the depth fuzzers send values 20,000 levels deep, and the
 * runtime's recursive serializer meets the test isolate's stack limit at a depth that depends on
 * how deep the caller's stack already is (it failed one full run in three). Same output otherwise.
 */
function jsonText(root: unknown): string {
  const out: string[] = [];
  const work: ({ text: string } | { value: unknown })[] = [{ value: root }];
  while (work.length > 0) {
    const item = work.pop() as { text: string } | { value: unknown };
    if ("text" in item) {
      out.push(item.text);
      continue;
    }
    const value = item.value;
    if (Array.isArray(value)) {
      out.push("[");
      work.push({ text: "]" });
      for (let i = value.length - 1; i >= 0; i--) {
        work.push({ value: value[i] === undefined ? null : value[i] });
        if (i > 0) work.push({ text: "," });
      }
    } else if (typeof value === "object" && value !== null && !(value instanceof Date)) {
      const entries = Object.entries(value).filter(([, v]) => v !== undefined);
      out.push("{");
      work.push({ text: "}" });
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, v] = entries[i] as [string, unknown];
        work.push({ value: v });
        work.push({ text: `${i > 0 ? "," : ""}${JSON.stringify(key)}:` });
      }
    } else {
      out.push(JSON.stringify(value) ?? "null");
    }
  }
  return out.join("");
}

/** POSTs a body (object, array, text or bytes) in session `s` (or none) with correct MCP headers. */
export function post(body: unknown, s?: Session, headers: Record<string, string> = {}, url = MCP): Promise<Response> {
  const h: Record<string, string> = { "Content-Type": "application/json", Accept: ACCEPT_BOTH };
  if (s) Object.assign(h, { "Mcp-Session-Id": s.sessionId, "MCP-Protocol-Version": s.version });
  const payload = typeof body === "string" || body instanceof Uint8Array ? body : jsonText(body);
  return request(url, { method: "POST", headers: { ...h, ...headers }, body: payload });
}

/** initialize + initialized; returns the session. */
export async function startSession(version: string, capabilities: Record<string, unknown> = {}): Promise<Session> {
  const res = await post({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: version, capabilities, clientInfo: { name: "reliability", version: "1.0.0" } },
  });
  expect(res.status).toBe(200);
  const sessionId = res.headers.get("Mcp-Session-Id") as string;
  const negotiated = ((await res.json()) as { result: { protocolVersion: string } }).result.protocolVersion;
  expect(negotiated).toBe(version);
  const s = { sessionId, version };
  expect((await post({ jsonrpc: "2.0", method: "notifications/initialized" }, s)).status).toBe(202);
  return s;
}

/** A request answered as JSON. */
export async function call(
  s: Session,
  method: string,
  params: Record<string, unknown> = {},
  id: string | number = 1,
): Promise<Record<string, unknown>> {
  return (await (await post({ jsonrpc: "2.0", id, method, params }, s)).json()) as Record<string, unknown>;
}

/** tools/call of an interactive tool; returns the reader of its SSE stream. */
export async function callOnStream(
  s: Session,
  id: string | number,
  name: string,
  args: Record<string, unknown> = {},
  progressToken?: string,
): Promise<SseReader> {
  const params: Record<string, unknown> = { name, arguments: args };
  if (progressToken !== undefined) params._meta = { progressToken };
  const res = await post({ jsonrpc: "2.0", id, method: "tools/call", params }, s);
  expect(res.status).toBe(200);
  expect(res.headers.get("Content-Type")).toBe("text/event-stream");
  return new SseReader(res);
}

/** GET /mcp: the standalone stream, or with `lastEventId` the resumption of its stream. */
export function getStream(s: Session, lastEventId?: string, headers: Record<string, string> = {}): Promise<Response> {
  const h: Record<string, string> = {
    Accept: "text/event-stream",
    "Mcp-Session-Id": s.sessionId,
    "MCP-Protocol-Version": s.version,
    ...headers,
  };
  if (lastEventId !== undefined) h["Last-Event-ID"] = lastEventId;
  return request(MCP, { method: "GET", headers: h });
}

export function deleteSession(s: Session): Promise<Response> {
  return request(MCP, { method: "DELETE", headers: { "Mcp-Session-Id": s.sessionId, "MCP-Protocol-Version": s.version } });
}
