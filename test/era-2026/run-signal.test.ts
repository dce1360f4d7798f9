/**
 * A handler's `ctx.signal` on the 2026-07-28 lane is made only when the handler reads it
 * (src/mcp/dispatch/lazy-abort.ts), and behaves like an eager one wherever it is read: a run that stopped
 * to ask (basic/patterns/mrtr.mdx) aborts it with the run's reason, a copy of the context keeps
 * it, and a signal first read after the abort is born aborted.
 */
import { createExecutionContext, env } from "cloudflare:test";
import { expect, it } from "vitest";
import { createMcpEdge } from "../../src/edge";
import { defineServer } from "../../src/mcp/definition/server";
import type { EdgeEnv } from "../../src/kernel/env";
import { text } from "../../src/mcp/definition/content";
import { LazyAbort } from "../../src/mcp/dispatch/lazy-abort";
import { toolCall2026 } from "../helpers/era-2026";

const NAME_SCHEMA = { type: "object", properties: { name: { type: "string" } }, required: ["name"] } as const;

it("aborts a signal the handler read when its run stops to ask, with the run's reason", async () => {
  const seen: unknown[] = [];
  const server = defineServer<EdgeEnv>({ name: "signal-test", version: "1.0.0" }).interactiveTool(
    "ask_name",
    { description: "Asks for a name, watching its signal." },
    async (_args, ctx) => {
      ctx.signal.addEventListener("abort", () => {
        seen.push(ctx.signal.reason);
      });
      const answer = await ctx.elicit("Your name?", NAME_SCHEMA);
      return { content: [text(JSON.stringify(answer))] };
    },
  );
  const worker = createMcpEdge(server, { sessions: false }).worker;
  const res = await worker.fetch!(
    toolCall2026("ask_name", { capabilities: { elicitation: {} } }) as never,
    env as never,
    createExecutionContext(),
  );
  const body = (await res.json()) as { result: { resultType: string } };
  expect(body.result.resultType).toBe("input_required");
  expect(seen).toHaveLength(1);
  expect(seen[0]).toBeInstanceOf(Error);
  expect(String((seen[0] as Error).message)).toContain("ended to ask");
});

it("keeps the signal in a copy of the context, and a finished run's signal was never aborted", async () => {
  let copied: AbortSignal | undefined;
  const server = defineServer<EdgeEnv>({ name: "signal-test", version: "1.0.0" }).tool(
    "copy_ctx",
    { description: "Spreads its context." },
    async (_args, ctx) => {
      copied = { ...ctx }.signal;
      return { content: [text("ok")] };
    },
  );
  const worker = createMcpEdge(server, { sessions: false }).worker;
  const res = await worker.fetch!(toolCall2026("copy_ctx") as never, env as never, createExecutionContext());
  expect(res.status).toBe(200);
  expect(copied).toBeInstanceOf(AbortSignal);
  expect(copied?.aborted).toBe(false);
});

it("makes a signal first read after the abort already aborted, with the same reason", () => {
  const lazy = new LazyAbort();
  const reason = new Error("stopped");
  lazy.abort(reason);
  lazy.abort(new Error("a second abort changes nothing"));
  expect(lazy.aborted).toBe(true);
  expect(lazy.signal.aborted).toBe(true);
  expect(lazy.signal.reason).toBe(reason);
  const read = new LazyAbort();
  const signal = read.signal;
  expect(signal.aborted).toBe(false);
  read.abort(reason);
  expect(signal.aborted).toBe(true);
  expect(read.signal).toBe(signal);
});

it("gives every request's context the same signal getter, so contexts share one shape", async () => {
  // A getter made per request gives each context a hidden class of its own, which keeps the
  // request's body and context alive until a full garbage collection (src/mcp/dispatch/handler-context.ts).
  const getters: unknown[] = [];
  const signals: AbortSignal[] = [];
  const server = defineServer<EdgeEnv>({ name: "signal-test", version: "1.0.0" }).tool(
    "getter",
    { description: "Reports its context's signal accessor." },
    async (_args, ctx) => {
      const descriptor = Object.getOwnPropertyDescriptor(ctx, "signal");
      getters.push(descriptor?.get);
      expect(descriptor?.enumerable).toBe(true);
      signals.push(ctx.signal);
      return { content: [text("ok")] };
    },
  );
  const worker = createMcpEdge(server, { sessions: false }).worker;
  for (let i = 0; i < 2; i++) {
    const res = await worker.fetch!(toolCall2026("getter") as never, env as never, createExecutionContext());
    expect(res.status).toBe(200);
  }
  expect(getters).toHaveLength(2);
  expect(typeof getters[0]).toBe("function");
  expect(getters[1]).toBe(getters[0]);
  // One getter, yet each request reads its own signal.
  expect(signals[1]).not.toBe(signals[0]);
});
