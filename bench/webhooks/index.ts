/**
 * One emitted event type (`bench.incident`, arguments `{ shard? }`) with webhook delivery to a loopback receiver
 * (the bench runs one, mcp-edge/testing/receiver), its McpEvents objects metered (test/servers/costs/meter.ts:
 * every object request and billed row counted), for the `webhooks` bench scenario. No auth: the one tenant is
 * named (`singleTenant`). Retries wait 0.2 s. `POST /__emit {eventId}` emits; `GET /__cost` answers what was
 * billed since the last `POST /__cost/reset`.
 */
import { createMcpEdge } from "../../src/edge";
import type { EdgeEnv } from "../../src/http/runtime";
import { defineServer } from "../../src/index";
import { defineEvent, events, webhooks } from "../../src/features/events/index";
import { metered, meterRoute } from "../../test/servers/costs/meter";

const incident = defineEvent("bench.incident", {
  description: "An incident (bench)",
  input: { type: "object", properties: { shard: { type: "integer" } } },
});
const feature = events({
  types: [incident],
  webhooks: webhooks({ allowLoopback: true, singleTenant: "bench", retryDelaysMs: [200, 200, 200, 200], maxSubscriptions: 10_000 }),
});
const server = defineServer({ name: "bench-webhooks", version: "1.0.0" });
const edge = createMcpEdge(server, { path: "/mcp", features: [feature] });

export default {
  async fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    const meter = meterRoute(pathname);
    if (meter) return meter;
    if (pathname === "/__emit") {
      const { eventId } = (await request.json()) as { eventId: string };
      return Response.json(await feature.emit(env, "bench.incident", { at: Date.now() }, { eventId }));
    }
    return edge.worker.fetch!(request, env, ctx);
  },
} satisfies ExportedHandler<EdgeEnv>;

export const McpEvents = metered(edge.objects.McpEvents!, "events", ["emit", "read", "webhookSubscribe", "webhookUnsubscribe"]);
