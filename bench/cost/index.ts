/**
 * The demo server with metered objects (test/servers/costs/meter.ts: every object request and every billed
 * row counted) and a 1.5 s idle timeout (wrangler.toml), for the `cost` bench scenario: it counts
 * what a short 2025 session, a session with a GET stream and a task nobody listens to cost over
 * their whole life. `BENCH_LISTEN_SHARDS` (a var: wrangler.toml 1, wrangler.shards16.toml 16) sets
 * `listen.shards`, so the scenario compares a task's publish at two hub sizes.
 * `GET /__cost` answers what was billed since the last `POST /__cost/reset`.
 */
import { env } from "cloudflare:workers";
import { createMcpEdge } from "../../src/edge";
import { demoServer } from "../../src/demo/server";
import type { EdgeEnv } from "../../src/http/runtime";
import { meteredObjects, meterRoute } from "../../test/servers/costs/meter";

// Keep-alives every 0.25 s: the object notices a client that left within half a second.
const session = { keepAliveMs: 500 };
const shards = Number((env as { BENCH_LISTEN_SHARDS?: string }).BENCH_LISTEN_SHARDS ?? "1");
const edge = createMcpEdge(demoServer, { path: "/mcp", session, listen: { shards } });
/** The same server with deferred sessions at /deferred/mcp (meteredObjects makes deferredSessionObject's class, which serves `edge`'s eager sessions the same). */
const deferred = createMcpEdge(demoServer, { path: "/deferred/mcp", session, listen: { shards } });

export default {
  async fetch(request, workerEnv, ctx) {
    const { pathname } = new URL(request.url);
    const meter = meterRoute(pathname);
    if (meter) return meter;
    if (pathname === "/deferred/mcp") return deferred.worker.fetch!(request, workerEnv, ctx);
    return edge.worker.fetch!(request, workerEnv, ctx);
  },
} satisfies ExportedHandler<EdgeEnv>;

export const { McpSession, McpTask, McpHub } = meteredObjects(edge, deferred);
