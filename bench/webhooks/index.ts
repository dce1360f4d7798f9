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
import { sessionObject } from "../../durable-objects/sessions/classes";
import { defineEvent, events, webhooks } from "../../src/features/events/index";
import { billed, metered, resetMeter } from "../../test/servers/costs/meter";

const incident = defineEvent("bench.incident", {
  description: "An incident (bench)",
  input: { type: "object", properties: { shard: { type: "integer" } } },
});
const feature = events({
  types: [incident],
  webhooks: webhooks({ allowLoopback: true, singleTenant: "bench", retryDelaysMs: [200, 200, 200, 200], maxSubscriptions: 10_000 }),
});
const server = defineServer({ name: "bench-webhooks", version: "1.0.0" });
// Until createMcpEdge takes features (the kernel's wiring): the feature's methods and extension by hand.
for (const method of feature.methods ?? []) server.add(method as never);
for (const [id, settings] of Object.entries(feature.extensions ?? {})) server.extension(id, settings);
const edge = createMcpEdge(server, { path: "/mcp" });

export default {
  async fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    if (pathname === "/__cost/reset") {
      resetMeter();
      return new Response(null, { status: 204 });
    }
    if (pathname === "/__cost") return Response.json(billed());
    if (pathname === "/__emit") {
      const { eventId } = (await request.json()) as { eventId: string };
      return Response.json(await feature.emit(env, "bench.incident", { at: Date.now() }, { eventId }));
    }
    return edge.worker.fetch!(request, env, ctx);
  },
} satisfies ExportedHandler<EdgeEnv>;

export const McpSession = sessionObject(edge);
export const McpEvents = metered(feature.objects!(undefined as never).McpEvents!, "events", [
  "emit",
  "read",
  "webhookSubscribe",
  "webhookUnsubscribe",
]);
