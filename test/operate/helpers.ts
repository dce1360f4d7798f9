/**
 * One tool call in each place a call runs, as a client makes it: the Worker (2025 session, 2026),
 * the session object (an interactive tool on a 2025 session, answered on its POST stream) and a
 * task's run in its object (a 2026 request that declares the Tasks extension). Requests go
 * through the Worker's fetch handler, with the client's headers and Cloudflare's `cf` properties.
 */
import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import type { McpTaskObject } from "../../durable-objects/tasks/mcp-task";
import type { EdgeEnv } from "../../src/kernel/env";
import { ACCEPT_BOTH, MCP } from "../helpers/mcp";
import { envelope, headers2026 } from "../helpers/era-2026";
import { sseOf, startSession, type Session } from "../helpers/session";
import { isResponseTo } from "../helpers/sse";

const worker = (exports as unknown as { default: Fetcher }).default;

const TASKS = "io.modelcontextprotocol/tasks";
export const TASK_CAPS = { extensions: { [TASKS]: {} } };

export type Json = Record<string, unknown>;
/** A JSON-RPC answer: its result or its error. */
export interface Answer {
  result?: Json;
  error?: { code: number; message: string; data?: Json };
}

export type Place = "worker 2025" | "session object" | "worker 2026" | "task run";
export const PLACES: Place[] = ["worker 2025", "session object", "worker 2026", "task run"];

/** The tool that runs in `place` for a base name ("simple" or "interactive" kinds, by place). */
export function toolFor(place: Place, prefix = ""): string {
  return place === "session object" ? `${prefix}interactive` : `${prefix}simple`;
}

/** The tool that echoes ctx.request in `place`. */
export function whoamiFor(place: Place): string {
  return place === "session object" ? "whoami_interactive" : "whoami";
}

export interface CallOptions {
  meta?: Json;
  headers?: Record<string, string>;
  /** Cloudflare's request properties, as the platform would set them. */
  cf?: Json;
}

/** POSTs a JSON-RPC request to the endpoint as a client would (its headers win over the defaults). */
export function postRpc(body: Json, headers: Record<string, string>, cf?: Json): Promise<Response> {
  const init = {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, Host: "127.0.0.1:8787", ...headers },
    body: JSON.stringify(body),
    cf,
  };
  return worker.fetch(MCP, init as RequestInit);
}

let session: Session | undefined;
async function theSession(): Promise<Session> {
  session ??= await startSession("2025-11-25");
  return session;
}

/** A request's answer: JSON, or the response event on its POST stream. */
export async function answerOf(res: Response, id: number): Promise<Answer> {
  if (res.headers.get("Content-Type") === "application/json") return (await res.json()) as Answer;
  const events = await sseOf(res).until(isResponseTo(id));
  return events.at(-1)?.json as Answer;
}

/** Calls `name` in `place` and returns the answer the client got (for a task: the finished task's result or error). */
export async function callIn(place: Place, name: string, opts: CallOptions = {}): Promise<Answer> {
  const params: Json = { name, arguments: {} };
  if (place === "task run") return runTask(name, opts);
  if (place === "worker 2026") {
    const body = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { ...params, _meta: envelope({}, opts.meta) } };
    return answerOf(await postRpc(body, { ...headers2026("tools/call", params), ...opts.headers }, opts.cf), 7);
  }
  const s = await theSession();
  const headers = { "Mcp-Session-Id": s.sessionId, "MCP-Protocol-Version": s.version, ...opts.headers };
  return answerOf(
    await postRpc({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { ...params, _meta: opts.meta } }, headers, opts.cf),
    7,
  );
}

/** Creates a task for `name`, waits for it to end (on the object's change events) and returns its outcome as an answer. */
async function runTask(name: string, opts: CallOptions): Promise<Answer> {
  const params = { name, arguments: {} };
  const body = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { ...params, _meta: envelope(TASK_CAPS, opts.meta) } };
  const created = await answerOf(await postRpc(body, { ...headers2026("tools/call", params), ...opts.headers }, opts.cf), 7);
  if (created.result?.resultType !== "task") return created;
  const taskId = created.result.taskId as string;
  const ns = (env as unknown as EdgeEnv).MCP_TASK as DurableObjectNamespace<McpTaskObject>;
  await runInDurableObject(ns.get(ns.idFromString(taskId)), (instance) =>
    (instance as unknown as McpTaskObject).awaitStatus(["completed", "failed"]),
  );
  const get = { jsonrpc: "2.0", id: 8, method: "tasks/get", params: { taskId, _meta: envelope(TASK_CAPS) } };
  const got = await answerOf(await postRpc(get, { ...headers2026("tasks/get", {}), "Mcp-Name": taskId }), 8);
  const task = got.result as Json;
  return task.status === "failed" ? { error: task.error as Answer["error"] } : { result: task.result as Json };
}

/** The text of a tool result's first content block. */
export function textOf(answer: Answer): string {
  const content = answer.result?.content as { text?: string }[] | undefined;
  return content?.[0]?.text ?? "";
}
