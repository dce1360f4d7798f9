/**
 * A server for the operating tests: two middlewares that record the order they run in (and
 * refuse or answer on their own for some tool names), an error hook that records what it is told,
 * and tools of each kind (simple: the Worker; interactive: the session object on 2025 sessions;
 * task-capable: the task object when a 2026 request declares the Tasks extension).
 */
import { createMcpEdge } from "../../../src/edge";
import { legacySse, sessions } from "../../../src/features/sessions/index";
import { rateLimits } from "../../../src/features/rate-limits/index";
import { observe } from "../../../src/features/observe/index";
import { tasks } from "../../../src/features/tasks/index";
import { hub } from "../../../src/features/hub/index";
import type { EdgeEnv } from "../../../src/kernel/env";
import { INVALID_PARAMS, RpcError } from "../../../src/jsonrpc/errors";
import { text, ToolError } from "../../../src/mcp/definition/content";
import type { HandlerContext } from "../../../src/mcp/definition/context";
import type { McpCall, UnexpectedError } from "../../../src/mcp/definition/context";
import type { OperationEvent } from "../../../src/mcp/operations/observe";
import { defineServer } from "../../../src/mcp/definition/server";
import { publish, publishAndCount } from "../../../src/features/hub/publish";
import { memoryOtel } from "./memory-tracer";
import { WATCHED } from "./watched";

/** What the middlewares and handlers did, in order; the test reads and clears it (one isolate runs the Worker and its objects). */
export const trail: string[] = [];
/** What the onError hook was told. */
export const reports: UnexpectedError<EdgeEnv>[] = [];
/** The calls the outer middleware saw. */
export const calls: McpCall<EdgeEnv>[] = [];

/** A task's run has no request of its own: its context's requestId is the task id (64 hex digits). */
function inTaskRun(ctx: HandlerContext<EdgeEnv>): boolean {
  return typeof ctx.requestId === "string" && /^[0-9a-f]{64}$/.test(ctx.requestId);
}

/** Adds to the trail; what happens in a task's run is marked "task " (its creating request runs alongside). */
function mark(ctx: HandlerContext<EdgeEnv>, step: string): void {
  trail.push(inTaskRun(ctx) ? `task ${step}` : step);
}

export const operateServer = defineServer<EdgeEnv>({ name: "operate-test", version: "1.0.0" });

operateServer
  .use(async (call, next) => {
    calls.push(call);
    mark(call.ctx, `a>${call.method}:${call.name ?? ""}`);
    // `_meta.onlyInTask`: the refusals below apply only around a task's run, not to the request that creates it.
    const applies = call.ctx.meta?.onlyInTask !== true || inTaskRun(call.ctx);
    if (!applies) {
      const created = await next();
      mark(call.ctx, "<a");
      return created;
    }
    if (call.name?.startsWith("answered_")) return { content: [text(`answered by middleware for ${call.name}`)] };
    if (call.name?.startsWith("refused_")) throw new ToolError(`refused by policy: ${call.name}`);
    if (call.name?.startsWith("rpc_refused_")) throw new RpcError(INVALID_PARAMS, `not allowed: ${call.name}`);
    if (call.method === "prompts/list" && call.ctx.meta?.deny === true) throw new ToolError("no prompts for you");
    const result = await next();
    mark(call.ctx, "<a");
    return result;
  })
  .use(async (call, next) => {
    mark(call.ctx, "b>");
    const result = await next();
    mark(call.ctx, "<b");
    return result;
  })
  .onError(({ error, reference, what, call }) => {
    reports.push({ error, reference, what, call });
  });

const kinds = ["", "answered_", "refused_", "rpc_refused_", "limited_", "tenant_limited_"];
for (const prefix of kinds) {
  operateServer
    .tool(`${prefix}simple`, { description: "A simple tool", task: "optional" }, (_args, ctx) => {
      mark(ctx, "handler");
      return { content: [text("simple ran")] };
    })
    .interactiveTool(`${prefix}interactive`, { description: "An interactive tool", task: "optional" }, async (_args, ctx) => {
      await ctx.log("info", "running");
      mark(ctx, "handler");
      return { content: [text("interactive ran")] };
    });
}
/** What a handler reads of the request that started its call. */
function seen(ctx: HandlerContext<EdgeEnv>) {
  const r = ctx.request;
  const view = r && {
    url: r.url,
    method: r.method,
    headers: r.headers,
    cf: r.cf,
    frozen: Object.isFrozen(r.headers),
    tenant: r.headers.get("X-Tenant"),
    isHeaders: r.headers instanceof Headers,
    setRefused: refusal(() => (r.headers as Headers).set("x-tenant", "other")),
    deleteRefused: refusal(() => (r.headers as Headers).delete("x-tenant")),
  };
  return { content: [text(JSON.stringify(view))] };
}

/** The message a mutation threw, or null when it went through. */
function refusal(mutate: () => void): string | null {
  try {
    mutate();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

operateServer
  .tool("whoami", { description: "Echoes ctx.request", task: "optional" }, (_args, ctx) => seen(ctx))
  .interactiveTool("whoami_interactive", { description: "Echoes ctx.request in the object", task: "optional" }, async (_args, ctx) =>
    seen(ctx),
  )
  .tool("throws", { description: "Throws", task: "optional" }, () => {
    throw new Error("operate secret detail");
  })
  .interactiveTool("throws_interactive", { description: "Throws in the object", task: "optional" }, async () => {
    throw new Error("operate secret detail");
  })
  .prompt("greeting", { description: "A prompt" }, () => ({ messages: [{ role: "user", content: text("hello") }] }));

operateServer
  .resource(WATCHED, { name: "watched" }, (uri) => ({ uri, text: "watched" }))
  // Publishes from inside the call, handing publish its context: the hub's spans continue the call's trace.
  // This one waits for the counts (publishAndCount); publishes_interactive returns once handed off (publish).
  .tool("publishes", { description: "Publishes an update", task: "optional" }, async (_args, ctx) => {
    const report = await publishAndCount(ctx.env, { type: "resourceUpdated", uri: WATCHED }, { trace: ctx });
    return { content: [text(`published to ${report.listenStreams} streams`)] };
  })
  // Asks once (counters.test.ts: a task's stored ask and answer are counted on its run).
  .interactiveTool("asks", { description: "Asks for a name", task: "optional" }, async (_args, ctx) => {
    const answer = await ctx.elicit("Your name?", { type: "object", properties: { name: { type: "string" } }, required: ["name"] });
    return { content: [text(answer.action === "accept" ? `hello ${String(answer.content.name)}` : "declined")] };
  })
  // Asks once, under the three-a-minute rule (rate-limits-mrtr.operate.test.ts: a call counts once, whatever its rounds).
  .interactiveTool("limited_asks", { description: "Asks for a name, rate limited" }, async (_args, ctx) => {
    const answer = await ctx.elicit("Your name?", { type: "object", properties: { name: { type: "string" } }, required: ["name"] });
    return { content: [text(answer.action === "accept" ? `hello ${String(answer.content.name)}` : "declined")] };
  })
  .interactiveTool("publishes_interactive", { description: "Publishes from the object", task: "optional" }, async (_args, ctx) => {
    await ctx.log("info", "publishing");
    await publish(ctx.env, { type: "resourceUpdated", uri: WATCHED }, { trace: ctx });
    return { content: [text("published")] };
  });

/** Every operation event, as the onEvent hook hears it. */
export const events: OperationEvent[] = [];

const edge = createMcpEdge(operateServer, {
  features: [
    sessions(),
    // rate-limits.operate.test.ts checks the 2024-11-05 transport's POST too.
    legacySse(),
    hub(),
    tasks(),
    observe({ tracing: { api: memoryOtel }, onEvent: (event) => events.push(event), analytics: { binding: "MCP_ANALYTICS" } }),
    rateLimits<EdgeEnv>([
      // Three calls a minute per client (the default key: the principal, else CF-Connecting-IP).
      { binding: "TOOL_LIMIT", match: (call) => call.name?.startsWith("limited_") === true },
      // Two calls per ten seconds per tenant, keyed by a header.
      {
        binding: "TENANT_LIMIT",
        period: 10,
        match: (call) => call.name?.startsWith("tenant_limited_") === true,
        key: (call) => `tenant:${call.request.headers.get("X-Tenant") ?? "none"}`,
      },
    ]),
  ],
});

/** A second server writing its events to whatever dataset the env it is given holds (counters.test.ts). */
export const analyticsServer = defineServer<EdgeEnv>({ name: "analytics-test", version: "1.0.0" }).tool(
  "measured",
  { description: "Runs in the Worker" },
  () => ({ content: [text("measured")] }),
);
export const analyticsEdge = createMcpEdge(analyticsServer, {
  features: [sessions(), observe({ analytics: { binding: "TEST_DATASET" } })],
});

/** The same server with a rule whose binding wrangler.toml lacks. */
export const misconfigured = createMcpEdge(operateServer, { features: [sessions(), rateLimits([{ binding: "NO_SUCH_LIMIT" }])] });

export default edge.worker;
export const { McpSession, McpTask, McpHub } = edge.objects;
