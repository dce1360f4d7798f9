/**
 * `ctx.user` (issue 20): a store per principal, not per session. The same tool (test/tasks
 * entry.ts `user_note`) keeps a note for alice and one for bob, in a 2025 session (the session
 * object), on 2026-07-28 (the Worker, no session) and in a task run; each principal sees only
 * their own, whichever lane wrote it, and an anonymous request is refused with a clear error.
 */
import { disclosingEnv } from "../../src/platform/bindings";
import { beforeAll, describe, expect, it } from "vitest";
import { createMcpEdge } from "../../src/edge";
import { auth } from "../../src/features/auth/index";
import { hub } from "../../src/features/hub/index";
import { sessions } from "../../src/features/sessions/index";
import { tasks } from "../../src/features/tasks/index";
import { user } from "../../src/features/user/index";
import { envelope, headers2026, toolCall2026 } from "../helpers/era-2026";
import {
  accessToken,
  authOptions,
  bearer,
  jwksOf,
  openAuthSession,
  postTo,
  signingKey,
  type Fetch,
  type SigningKey,
} from "../auth/fixtures";
import { create, get, principal, until } from "../tasks/helpers";
import { tasksServer } from "../servers/tasks/entry";
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { userStore } from "../../src/features/user/user-store";

let key: SigningKey;
let fetch: Fetch;
const tokens: Record<string, string> = {};

/** The tasks server behind auth, called through its fetch handler with this project's bindings. */
function authedWorker(keys: ReturnType<typeof jwksOf>): Fetch {
  const worker = createMcpEdge(tasksServer, {
    features: [sessions(), hub(), user(), tasks({ watchdogMs: 60_000 }), auth(authOptions(keys))],
  }).worker;
  return async (url, init = {}) => {
    const request = new Request(url, { ...init, headers: { Host: "127.0.0.1:8787", ...(init.headers ?? {}) } });
    return worker.fetch!(request as Request<unknown, IncomingRequestCfProperties>, env as never, createExecutionContext());
  };
}

beforeAll(async () => {
  key = await signingKey("k1");
  fetch = authedWorker(jwksOf(key));
  for (const who of ["alice", "bob"]) tokens[who] = await accessToken(key, { sub: `${who}-${crypto.randomUUID()}` });
});

type Reply = { result?: { content?: { text: string }[] }; error?: { code: number; message: string } };
const textOf = (reply: Reply) => reply.result?.content?.[0]?.text;
const args = (noteKey: string, value?: string) => (value === undefined ? { key: noteKey } : { key: noteKey, value });

/** tools/call user_note in a 2025 session of `who` (the handler runs in the session object). */
async function inSession(who: string, noteKey: string, value?: string): Promise<Reply> {
  const session = await openAuthSession(fetch, tokens[who] as string);
  const res = await postTo(
    fetch,
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "user_note", arguments: args(noteKey, value) } },
    { ...bearer(tokens[who] as string), "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-06-18" },
  );
  const text = await res.text();
  // The session lane may answer with SSE: the reply is the one data line.
  const data = text.includes("data: ") ? (text.split("data: ").pop() as string).split("\n")[0] : text;
  return JSON.parse(data as string) as Reply;
}

/** tools/call user_note on 2026-07-28 (no session: the handler runs in the Worker). */
async function modern(who: string | undefined, noteKey: string, value?: string): Promise<Reply> {
  const params = { name: "user_note", arguments: args(noteKey, value) };
  const res = await postTo(
    fetch,
    { jsonrpc: "2.0", id: 3, method: "tools/call", params: { ...params, _meta: envelope({}) } },
    { ...headers2026("tools/call", params), ...(who ? bearer(tokens[who] as string) : {}) },
  );
  return (await res.json()) as Reply;
}

describe("ctx.user", () => {
  it("keeps each principal's notes apart, across sessions and eras", async () => {
    expect(textOf(await inSession("alice", "color", "green"))).toMatch(/^stored for alice-/);
    expect(textOf(await inSession("bob", "color", "red"))).toMatch(/^stored for bob-/);
    // A new session (as a client that re-initializes before every call) reads what the last one wrote.
    expect(textOf(await inSession("alice", "color"))).toMatch(/^alice-.*: green$/);
    // 2026-07-28: no session at all, the same store.
    expect(textOf(await modern("alice", "color"))).toMatch(/^alice-.*: green$/);
    expect(textOf(await modern("bob", "color"))).toMatch(/^bob-.*: red$/);
    expect(textOf(await modern("bob", "shape", "round"))).toMatch(/^stored for bob-/);
    expect(textOf(await inSession("bob", "shape"))).toMatch(/^bob-.*: round$/);
    expect(textOf(await inSession("alice", "shape"))).toMatch(/^alice-.*: \(none\)$/);
  });

  it("runs in a task run with the task creator's store, and nobody else's", async () => {
    const alice = principal(`alice-task-${crypto.randomUUID()}`);
    const bob = principal(`bob-task-${crypto.randomUUID()}`);
    const write = (await create("user_note", { key: "plan", value: "ship" }, { principal: alice })) as { taskId: string };
    expect(await until(write.taskId, "completed", "failed")).toBe("completed");
    expect(await get(write.taskId, alice.subject)).toMatchObject({ result: { content: [{ text: `stored for ${alice.subject}` }] } });
    for (const [who, expected] of [
      [alice, "ship"],
      [bob, "(none)"],
    ] as const) {
      const read = (await create("user_note", { key: "plan" }, { principal: who })) as { taskId: string };
      await until(read.taskId, "completed", "failed");
      expect(await get(read.taskId, who.subject)).toMatchObject({ result: { content: [{ text: `${who.subject}: ${expected}` }] } });
    }
  });

  it("lists by prefix and applies a transaction all or nothing", async () => {
    const store = userStore(env, principal(`carol-${crypto.randomUUID()}`));
    await store.put("note:a", 1);
    await store.put("note:b", 2);
    await store.put("other", 3);
    expect([...(await store.list({ prefix: "note:" })).entries()]).toEqual([
      ["note:a", 1],
      ["note:b", 2],
    ]);
    // A check that fails applies nothing.
    expect(await store.transaction([{ check: "note:a", equals: 5 }, { delete: "note:a" }, { put: "note:c", value: 3 }])).toBe(false);
    expect(await store.get("note:a")).toBe(1);
    expect(await store.get("note:c")).toBeUndefined();
    expect(await store.transaction([{ check: "note:a", equals: 1 }, { delete: "note:a" }, { put: "note:c", value: 3 }])).toBe(true);
    expect([...(await store.list({ prefix: "note:" })).keys()]).toEqual(["note:b", "note:c"]);
    expect(await store.delete("note:b")).toBe(true);
    expect(await store.delete("note:b")).toBe(false);
  });

  it("refuses an anonymous request with an error that says why", async () => {
    const anonymous = userStore(env, undefined);
    await expect(anonymous.get("x")).rejects.toThrow(/ctx\.user needs an authenticated user/);
    // Through a server without auth (and without sessions): the tool's call fails with that message.
    const open = createMcpEdge(tasksServer, { features: [user()] }).worker;
    const res = await open.fetch!(
      toolCall2026("user_note", { id: 4, url: "http://127.0.0.1:8787/mcp", args: { key: "x", value: "y" } }) as Request<
        unknown,
        IncomingRequestCfProperties
      >,
      env as never,
      createExecutionContext(),
    );
    const reply = (await res.json()) as Reply;
    // A tool's error is its result (isError), with the message for the model to read.
    expect((reply.result as { isError?: boolean }).isError).toBe(true);
    expect(textOf(reply)).toMatch(/ctx\.user needs an authenticated user/);
  });

  it("names the wrangler.toml lines when the binding is missing (local development), only the log's reference otherwise", async () => {
    const store = userStore(disclosingEnv({}), principal("dave"));
    await expect(store.get("x")).rejects.toThrow(
      /MCP_USER Durable Object binding[\s\S]*class_name = "McpUser"[\s\S]*new_sqlite_classes = \["McpUser"\]/,
    );
    await expect(userStore({}, principal("dave")).get("x")).rejects.toThrow(
      /^Server misconfigured: .*reference misconfigured-[0-9a-f]{8}\.$/,
    );
  });
});
