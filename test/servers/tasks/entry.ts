/**
 * A server for the Tasks tests: tools that wait (on a timer or on the client), ask once or
 * twice, fail in each way the spec separates, and one that only runs as a task.
 */
import { createMcpEdge } from "../../../src/edge";
import { taskObject } from "../../../src/tasks/task-object";
import { sessionObject } from "../../../durable-objects/sessions/classes";
import { userObject } from "../../../durable-objects/user/mcp-user";
import { defineServer } from "../../../src/mcp/definition/server";
import { text, ToolError, toolError } from "../../../src/mcp/definition/content";
import type { EdgeEnv } from "../../../src/kernel/env";
import { INTERNAL_ERROR, RpcError } from "../../../src/jsonrpc/errors";

export const tasksServer = defineServer<EdgeEnv>({ name: "tasks-test", version: "1.0.0" });

const waitInput = { type: "object", properties: { ms: { type: "integer", minimum: 0 } }, required: ["ms"] } as const;
const confirmSchema = { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] };

tasksServer
  .interactiveTool(
    "wait",
    { description: "Waits ms (cancellable), reporting progress", input: waitInput, task: "optional" },
    async ({ ms }, ctx) => {
      await ctx.progress(0, 1, "waiting");
      await scheduler.wait(Number(ms), { signal: ctx.signal });
      return { content: [text(`waited ${ms} ms`)] };
    },
  )
  .interactiveTool(
    "wait_resumable",
    { description: "Like wait, resumable", input: waitInput, task: { support: "optional", resumable: true } },
    async ({ ms }, ctx) => {
      await scheduler.wait(Number(ms), { signal: ctx.signal });
      return { content: [text(`waited ${ms} ms`)] };
    },
  )
  .interactiveTool("ask_two", { description: "Asks two questions at once", task: "optional" }, async (_args, ctx) => {
    const [a, b] = await Promise.all([
      ctx.elicit("First?", { type: "object", properties: { name: { type: "string" } }, required: ["name"] }),
      ctx.elicit("Second?", { type: "object", properties: { color: { type: "string" } }, required: ["color"] }),
    ]);
    const name = a.action === "accept" ? String(a.content.name) : "-";
    const color = b.action === "accept" ? String(b.content.color) : "-";
    return { content: [text(`${name} likes ${color}`)] };
  })
  .interactiveTool(
    "approve",
    { description: "Asks for approval; resumable", task: { support: "required", resumable: true } },
    async (_args, ctx) => {
      const answer = await ctx.elicit("Approve?", confirmSchema);
      const second = await ctx.elicit("Really?", confirmSchema);
      const yes = answer.action === "accept" && answer.content.ok === true && second.action === "accept" && second.content.ok === true;
      return { content: [text(yes ? "approved" : "rejected")] };
    },
  )
  .interactiveTool("summarize", { description: "Asks the client's model", task: "optional" }, async (_args, ctx) => {
    const reply = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "Summarize" } }], maxTokens: 10 });
    return { content: [text(`model said: ${reply.content.type === "text" ? reply.content.text : "?"}`)] };
  })
  .tool("throws", { description: "A failing tool", task: "optional" }, () => {
    throw new Error("boom");
  })
  .tool("protocol_error", { description: "Throws an RpcError", task: "optional" }, () => {
    throw new RpcError(INTERNAL_ERROR, "upstream refused", { retryAfterMs: 1000 });
  })
  .tool("tool_error", { description: "Returns isError", task: "optional" }, () => toolError("nope"))
  .tool("bad_result", { description: "Returns something that is not a CallToolResult", task: "optional" }, () => ({ nope: true }) as never)
  .tool("short_lived", { description: "Done at once, kept one second", task: { support: "optional", ttlMs: 1000 } }, () => ({
    content: [text("quick")],
  }))
  .tool("huge_result", { description: "Returns 2.5 MB of text", task: "optional" }, () => ({ content: [text("x".repeat(2_500_000))] }))
  .interactiveTool("ask_many", { description: "Asks 33 questions at once", task: "optional" }, async (_args, ctx) => {
    const asks = Array.from({ length: 33 }, (_, i) => ctx.elicit(`Question ${i}?`, confirmSchema));
    const settled = await Promise.allSettled(asks);
    const refused = settled.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason as RpcError);
    return { content: [text(`refused ${refused.length}: ${refused[0]?.code ?? "none"}`)] };
  })
  .interactiveTool("ask_loop", { description: "Asks one question after another, ten times", task: "optional" }, async (_args, ctx) => {
    let answered = 0;
    for (let i = 0; i < 10; i++) {
      const answer = await ctx.elicit(`Question ${i}?`, { type: "object", properties: { text: { type: "string" } } });
      if (answer.action === "accept") answered++;
    }
    return { content: [text(`answered ${answered}`)] };
  })
  .interactiveTool(
    "progress_steps",
    { description: "Reports progress 1 of 2, tries to go back to 1, then waits ms", input: waitInput, task: "optional" },
    async ({ ms }, ctx) => {
      await ctx.progress(1, 2);
      const back = await ctx.progress(1, 2).then(
        () => "accepted",
        (error: RpcError) => `${error.code} ${error.message}`,
      );
      await scheduler.wait(Number(ms), { signal: ctx.signal });
      return { content: [text(back)] };
    },
  )
  .tool("only_task", { description: "Runs only as a task", task: "required" }, () => ({ content: [text("as a task")] }))
  .tool("plain", { description: "Not a task tool" }, () => ({ content: [text("plain")] }))
  .tool(
    "user_note",
    {
      description: "ctx.user: stores value under key (with value), else reads key; with prefix, lists the keys under it",
      input: { type: "object", properties: { key: { type: "string" }, value: { type: "string" }, prefix: { type: "string" } } },
      task: "optional",
    },
    async ({ key, value, prefix }, ctx) => {
      if (typeof prefix === "string") return { content: [text([...(await ctx.user.list({ prefix })).keys()].join(","))] };
      if (typeof value === "string") {
        // A transaction: the note and a count of writes move together.
        const count = (await ctx.user.get<number>("writes")) ?? 0;
        const ok = await ctx.user.transaction([
          { check: "writes", equals: count === 0 ? undefined : count },
          { put: String(key), value },
          { put: "writes", value: count + 1 },
        ]);
        return { content: [text(ok ? `stored for ${ctx.user.subject}` : "conflict")] };
      }
      return { content: [text(`${ctx.user.subject}: ${(await ctx.user.get<string>(String(key))) ?? "(none)"}`)] };
    },
  );

/**
 * The failure policy's table (test/tasks/failure-policy.tasks.test.ts): each way a tool can fail, as a
 * simple tool (the Worker; a task when the request declares the extension) and as an interactive
 * tool (the session object on a 2025 session).
 */
export const FAILURES = {
  thrown_error: () => {
    throw new Error("policy-table secret detail");
  },
  tool_error: () => {
    throw new ToolError("the tool says no");
  },
  rpc_error: () => {
    throw new RpcError(INTERNAL_ERROR, "upstream refused", { retryAfterMs: 1000 });
  },
  bad_result: () => ({ nope: true }) as never,
  bad_structured: () => ({ content: [text("many")], structuredContent: { count: "many" } }),
} as const;
const countOutput = { type: "object", properties: { count: { type: "integer" } }, required: ["count"] };
for (const [kind, handler] of Object.entries(FAILURES)) {
  const config = { description: `Fails: ${kind}`, task: "optional" as const, output: kind === "bad_structured" ? countOutput : undefined };
  tasksServer.tool(`fail_${kind}`, config, handler).interactiveTool(`fail_${kind}_interactive`, config, handler);
}

const edge = createMcpEdge(tasksServer, { tasks: { watchdogMs: 60_000 } });

export default edge.worker;
export const McpSession = sessionObject(edge);
export const McpTask = taskObject(edge);
export const McpUser = userObject(edge);
