/**
 * One tool call in each place a call runs, as a client makes it: the Worker (2025 session, 2026),
 * the session object (an interactive tool on a 2025 session, answered on its POST stream) and a
 * task's run in its object (a 2026 request that declares the Tasks extension).
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { McpTaskObject } from "../../durable-objects/task/mcp-task";
import type { EdgeEnv } from "../../src/env";
import { post } from "../helpers/mcp";
import { envelope, modernPost } from "../helpers/modern";
import { send, sseOf, startSession, type Session } from "../helpers/session";
import { isResponseTo } from "../helpers/sse";

export const TASKS = "io.modelcontextprotocol/tasks";
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

let session: Session | undefined;
async function theSession(): Promise<Session> {
  session ??= await startSession("2025-11-25");
  return session;
}

/** Calls `name` in `place` and returns the answer the client got (for a task: the finished task's result or error). */
export async function callIn(place: Place, name: string, opts: { meta?: Json; headers?: Record<string, string> } = {}): Promise<Answer> {
  const params: Json = { name, arguments: {} };
  switch (place) {
    case "worker 2025": {
      const s = await theSession();
      const res = await post(
        { jsonrpc: "2.0", id: 7, method: "tools/call", params: { ...params, _meta: opts.meta } },
        { sessionId: s.sessionId, version: s.version, headers: opts.headers },
      );
      expect(res.headers.get("Content-Type")).toBe("application/json");
      return (await res.json()) as Answer;
    }
    case "session object": {
      const s = await theSession();
      const res = await post(
        { jsonrpc: "2.0", id: 7, method: "tools/call", params: { ...params, _meta: opts.meta } },
        { sessionId: s.sessionId, version: s.version, headers: opts.headers },
      );
      // A refusal before anything runs is plain JSON; a run answers on the POST stream.
      if (res.headers.get("Content-Type") === "application/json") return (await res.json()) as Answer;
      const events = await sseOf(res).until(isResponseTo(7));
      return events.at(-1)?.json as Answer;
    }
    case "worker 2026": {
      const res = await modernPost("tools/call", params, { id: 7, headers: opts.headers, meta: envelope({}, opts.meta) });
      return (await res.json()) as Answer;
    }
    case "task run":
      return runTask(name, opts);
  }
}

/** Creates a task for `name`, waits for it to end (on the object's change events) and returns its outcome as an answer. */
async function runTask(name: string, opts: { meta?: Json; headers?: Record<string, string> }): Promise<Answer> {
  const res = await modernPost(
    "tools/call",
    { name, arguments: {} },
    { id: 7, headers: opts.headers, meta: envelope(TASK_CAPS, opts.meta) },
  );
  const created = (await res.json()) as Answer;
  if (created.result?.resultType !== "task") return created;
  const taskId = created.result.taskId as string;
  const ns = (env as unknown as EdgeEnv).MCP_TASK as DurableObjectNamespace<McpTaskObject>;
  await runInDurableObject(ns.get(ns.idFromString(taskId)), (instance) =>
    (instance as unknown as McpTaskObject).awaitStatus(["completed", "failed"]),
  );
  const got = await modernPost("tasks/get", { taskId }, { id: 8, headers: { "Mcp-Name": taskId }, meta: envelope(TASK_CAPS) });
  const task = ((await got.json()) as Answer).result as Json;
  return task.status === "failed" ? { error: task.error as Answer["error"] } : { result: task.result as Json };
}

/** The text of a tool result's first content block. */
export function textOf(answer: Answer): string {
  const content = answer.result?.content as { text?: string }[] | undefined;
  return content?.[0]?.text ?? "";
}

export { send };
