/**
 * Which asks one `input_required` collects (basic/patterns/mrtr.mdx; src/mcp/era-2026/mrtr.ts): every ask
 * the handler makes until its promise chains have gone 32 microtask steps without a new one, so
 * parallel asks a few awaits apart arrive together; an ask that first waits on a timer (or I/O)
 * arrives in the next round, after the client answered the first.
 */
import { createExecutionContext, env } from "cloudflare:test";
import { expect, it } from "vitest";
import { createMcpEdge } from "../../src/edge";
import { defineServer } from "../../src/mcp/definition/server";
import type { EdgeEnv } from "../../src/kernel/env";
import { text } from "../../src/mcp/definition/content";
import { toolCall2026 } from "../helpers/era-2026";

const NAME_SCHEMA = { type: "object", properties: { name: { type: "string" } }, required: ["name"] } as const;
const CAPS = { capabilities: { elicitation: {} } };
const ANSWER = { action: "accept", content: { name: "Ada" } };

interface Answer {
  result: { resultType: string; inputRequests?: Record<string, unknown>; requestState?: string; content?: unknown };
}

/** Steps of pure microtask work (no I/O): a helper that awaits `n` times before it asks. */
async function afterAwaits(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await null;
}

const server = defineServer<EdgeEnv>({ name: "collect-test", version: "1.0.0" })
  .interactiveTool("awaits_apart", { description: "Two asks, the second a few awaits later." }, async (_args, ctx) => {
    const [a, b] = await Promise.all([
      ctx.elicit("First?", NAME_SCHEMA, { key: "first" }),
      afterAwaits(24).then(() => ctx.elicit("Second?", NAME_SCHEMA, { key: "second" })),
    ]);
    return { content: [text(`${a.action} ${b.action}`)] };
  })
  .interactiveTool("after_timer", { description: "Two asks, the second after a timer." }, async (_args, ctx) => {
    const [a, b] = await Promise.all([
      ctx.elicit("First?", NAME_SCHEMA, { key: "first" }),
      new Promise((resolve) => setTimeout(resolve, 5)).then(() => ctx.elicit("Second?", NAME_SCHEMA, { key: "second" })),
    ]);
    return { content: [text(`${a.action} ${b.action}`)] };
  });
const worker = createMcpEdge(server, { sessions: false }).worker;

async function call(name: string, extra?: Record<string, unknown>): Promise<Answer> {
  const res = await worker.fetch!(toolCall2026(name, { ...CAPS, extra }) as never, env as never, createExecutionContext());
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
}

it("collects asks a few awaits apart into one input_required", async () => {
  const first = await call("awaits_apart");
  expect(first.result.resultType).toBe("input_required");
  expect(Object.keys(first.result.inputRequests ?? {})).toEqual(["first", "second"]);
  const done = await call("awaits_apart", {
    inputResponses: { first: ANSWER, second: ANSWER },
    requestState: first.result.requestState,
  });
  expect(done.result.content).toEqual([{ type: "text", text: "accept accept" }]);
});

it("asks what waits on a timer in the next round, then completes", async () => {
  const first = await call("after_timer");
  expect(Object.keys(first.result.inputRequests ?? {})).toEqual(["first"]);
  const second = await call("after_timer", { inputResponses: { first: ANSWER }, requestState: first.result.requestState });
  expect(second.result.resultType).toBe("input_required");
  expect(Object.keys(second.result.inputRequests ?? {})).toEqual(["second"]);
  const done = await call("after_timer", { inputResponses: { second: ANSWER }, requestState: second.result.requestState });
  expect(done.result.content).toEqual([{ type: "text", text: "accept accept" }]);
});
