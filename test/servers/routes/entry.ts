/**
 * A server whose endpoint names a route parameter, `/mcp/:tenant` (and `/stateless/:tenant`):
 * tools that echo `ctx.request.params` from each place a call runs (the Worker, the session
 * object for an interactive tool on a 2025 session, a task's run), a middleware that records
 * what it saw, a rate limit keyed by tenant, and a Server Card per route.
 */
import { createMcpEdge } from "../../../src/edge";
import { taskObject } from "../../../src/tasks/task-object";
import { sessionObject } from "../../../durable-objects/sessions/classes";
import { hubObject } from "../../../durable-objects/hub/mcp-hub";
import type { EdgeEnv } from "../../../src/kernel/env";
import { text } from "../../../src/mcp/definition/content";
import type { HandlerContext } from "../../../src/mcp/definition/context";
import { defineServer } from "../../../src/mcp/definition/server";

/** The route parameters each middleware call saw, in order (the test reads and clears it). */
export const seenByMiddleware: Record<string, string>[] = [];

function echo(ctx: HandlerContext<EdgeEnv>) {
  const request = ctx.request;
  return { content: [text(JSON.stringify({ params: request?.params, url: request?.url, frozen: Object.isFrozen(request?.params) }))] };
}

export const routesServer = defineServer<EdgeEnv>({
  name: "com.example/routes",
  version: "1.0.0",
  description: "A server with one route per tenant",
  listChanged: true,
})
  .use(async (call, next) => {
    seenByMiddleware.push({ ...(call.ctx.request?.params ?? {}) });
    return next();
  })
  .tool("whoami", { description: "Echoes ctx.request.params", task: "optional" }, (_args, ctx) => echo(ctx))
  .interactiveTool("whoami_interactive", { description: "Echoes ctx.request.params from the session object" }, async (_args, ctx) => {
    await ctx.log("info", "asked");
    return echo(ctx);
  })
  .tool("limited", { description: "Counted against its tenant's rate limit" }, () => ({ content: [text("ok")] }))
  .resource("file:///tenant/config.json", { name: "config", mimeType: "application/json" }, (uri) => ({
    uri,
    mimeType: "application/json",
    text: "{}",
  }));

export const edge = createMcpEdge(routesServer, {
  path: "/mcp/:tenant",
  statelessPath: "/stateless/:tenant",
  // The per-tenant budget: the route parameter is the rate limit's key.
  rateLimits: [
    {
      binding: "TENANT_LIMIT",
      match: (call) => call.name === "limited",
      key: (call) => `tenant:${call.request.params.tenant}`,
      period: 10,
    },
  ],
  discovery: {},
});

export default edge.worker;
export const McpSession = sessionObject(edge);
export const McpTask = taskObject(edge);
export const McpHub = hubObject(edge);
