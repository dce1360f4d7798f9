/**
 * The demo's Events feature (src/demo/events.ts) with a metered, self-reporting McpEvents (every
 * object request and billed row counted: test/servers/costs/meter.ts; each construction logged, so
 * an object built again after an idle time was asleep), for the `events` bench scenario
 * (bench/scenarios/events.mjs). `GET /__cost` answers what was billed since `POST /__cost/reset`.
 */
import { createMcpEdge } from "../../src/edge";
import { demoServer } from "../../src/demo/server";
import { demoEvents, postNote } from "../../src/demo/events";
import type { EdgeEnv } from "../../src/http/runtime";
import { metered, meterRoute } from "../../test/servers/costs/meter";

const edge = createMcpEdge(demoServer, { path: "/mcp", features: [demoEvents] });

export default {
  async fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    const meter = meterRoute(pathname);
    if (meter) return meter;
    if (pathname === "/events/notes") return postNote(request, env);
    return edge.worker.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<EdgeEnv>;

const Metered = metered(edge.objects.McpEvents!, "events", ["emit", "read"]);

export class McpEvents extends Metered {
  constructor(ctx: DurableObjectState, env: never) {
    super(ctx, env);
    console.log(`constructed events ${ctx.id.toString()}`);
  }
}
