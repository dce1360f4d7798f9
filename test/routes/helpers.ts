/**
 * Requests to the routes server as a client makes them, at a tenant's URL (`/mcp/<tenant>`):
 * 2025 sessions, 2026-07-28 calls, a task run to its end, and the answer of either shape.
 */
import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import type { McpTaskObject } from "../../durable-objects/tasks/mcp-task";
import type { EdgeEnv } from "../../src/kernel/env";
import { envelope, headers2026 } from "../helpers/era-2026";
import { ACCEPT_BOTH, BASE, initializeParams } from "../helpers/mcp";
import { isResponseTo, SseReader } from "../helpers/sse";

const worker = (exports as unknown as { default: Fetcher }).default;
export const edgeEnv = env as unknown as EdgeEnv;

export type Json = Record<string, unknown>;
export interface Answer {
  result?: Json;
  error?: { code: number; message: string; data?: Json };
}

export const TASK_CAPS = { extensions: { "io.modelcontextprotocol/tasks": {} } };

/** The endpoint of a tenant: `/mcp/<tenant>` (the tenant URI-encoded), or the stateless one. */
export function urlOf(tenant: string, stateless = false): string {
  return `${BASE}/${stateless ? "stateless" : "mcp"}/${encodeURIComponent(tenant)}`;
}

export function send(url: string, init: { method?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response> {
  return worker.fetch(url, {
    method: init.method ?? "POST",
    headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, Host: "127.0.0.1:8787", ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

/** A request's answer: JSON, or the response event on its POST stream. */
export async function answerOf(res: Response, id: number): Promise<Answer> {
  if (res.headers.get("Content-Type") === "application/json") return (await res.json()) as Answer;
  const events = await new SseReader(res).until(isResponseTo(id));
  return events.at(-1)?.json as Answer;
}

export interface Session {
  url: string;
  sessionId: string;
  version: string;
}

/** initialize + notifications/initialized at `url`. */
export async function openSession(url: string, version = "2025-11-25"): Promise<Session> {
  const res = await send(url, { body: { jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams(version) } });
  if (res.status !== 200) throw new Error(`initialize failed: ${res.status} ${await res.text()}`);
  const sessionId = res.headers.get("Mcp-Session-Id") as string;
  await res.body?.cancel();
  const headers = { "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": version };
  const ack = await send(url, { body: { jsonrpc: "2.0", method: "notifications/initialized" }, headers });
  if (ack.status !== 202) throw new Error(`initialized got ${ack.status}`);
  return { url, sessionId, version };
}

/** A POST in session `s`, sent to `url` (the session's own unless another is given). */
export function inSession(s: Session, body: Json, url = s.url): Promise<Response> {
  return send(url, { body, headers: { "Mcp-Session-Id": s.sessionId, "MCP-Protocol-Version": s.version } });
}

export function toolCall(id: number, name: string, meta?: Json): Json {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {}, ...(meta ? { _meta: meta } : {}) } };
}

/** One 2026-07-28 request at `url`. */
export function send2026(url: string, id: number | string, method: string, params: Json, capabilities: Json = {}): Promise<Response> {
  return send(url, {
    body: { jsonrpc: "2.0", id, method, params: { ...params, _meta: envelope(capabilities) } },
    headers: headers2026(method, params),
  });
}

/** Creates a task for `name` at `url`; returns its id. */
export async function createTask(url: string, name: string): Promise<string> {
  const created = await answerOf(await send2026(url, 7, "tools/call", { name, arguments: {} }, TASK_CAPS), 7);
  if (created.result?.resultType !== "task") throw new Error(`no task: ${JSON.stringify(created)}`);
  return created.result.taskId as string;
}

/** Waits until the task's run ended. */
export async function taskDone(taskId: string): Promise<void> {
  const ns = edgeEnv.MCP_TASK as DurableObjectNamespace<McpTaskObject>;
  await runInDurableObject(ns.get(ns.idFromString(taskId)), (instance) =>
    (instance as unknown as McpTaskObject).awaitStatus(["completed", "failed"]),
  );
}

/** `tasks/get` (or `tasks/cancel`) at `url`. */
export async function getTask(url: string, taskId: string, method = "tasks/get"): Promise<Answer> {
  const res = await send(url, {
    body: { jsonrpc: "2.0", id: 8, method, params: { taskId, _meta: envelope(TASK_CAPS) } },
    headers: { ...headers2026(method, {}), "Mcp-Name": taskId },
  });
  return answerOf(res, 8);
}

/** The text of a tool result's first content block, parsed as JSON. */
export function echoed(result: Json | undefined): { params: Record<string, string>; url: string; frozen: boolean } {
  const content = result?.content as { text?: string }[] | undefined;
  return JSON.parse(content?.[0]?.text ?? "null");
}
