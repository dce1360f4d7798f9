/**
 * The demo Worker as the benchmark runs it: src/demo/worker.ts with a per-stream event cap large
 * enough for the replay scenario (100,000 stored events), so the demo keeps its defaults.
 * A request with `X-Bench-Count-Round-Trips: 1` also gets `X-Bench-Round-Trips`: the calls it
 * made to session objects (RPC method names or "fetch"), counted by the
 * same wrapper as test/http/durable-object-round-trips.test.ts uses. Requests without the
 * header take the unwrapped path.
 */
import { createMcpEdge } from "../../src/edge";
import { taskObject } from "../../src/features/tasks/task-object";
import { hubObject } from "../../src/features/hub/hub-object";
import { deferredSessionObject } from "../../src/features/sessions/session-object";
import { demoServer } from "../../src/demo/server";
import type { EdgeEnv } from "../../src/http/runtime";
import { countingEnv } from "../../test/helpers/counting-namespace";

/** Room for the 100,000-event stream of the replay scenario, its response and a margin. */
const BENCH_MAX_EVENTS_PER_STREAM = 200_000;

const edge = createMcpEdge(demoServer, {
  path: "/mcp",
  statelessPath: "/stateless/mcp",
  session: { maxEventsPerStream: BENCH_MAX_EVENTS_PER_STREAM },
});
/**
 * The same server with deferred sessions at /deferred/mcp (session creation's second row): the
 * session class below is deferredSessionObject's, which serves `edge`'s eager sessions the same.
 */
const deferred = createMcpEdge(demoServer, {
  path: "/deferred/mcp",
  session: { maxEventsPerStream: BENCH_MAX_EVENTS_PER_STREAM },
});

export default {
  async fetch(request, env, ctx) {
    if (new URL(request.url).pathname === "/deferred/mcp") return deferred.worker.fetch!(request, env, ctx);
    if (request.headers.get("X-Bench-Count-Round-Trips") !== "1") return edge.worker.fetch!(request, env, ctx);
    const calls: string[] = [];
    const response = await edge.worker.fetch!(request, countingEnv(env, calls), ctx);
    const headers = new Headers(response.headers);
    headers.set("X-Bench-Round-Trips", calls.join(",") || "none");
    return new Response(response.body, { status: response.status, headers });
  },
} satisfies ExportedHandler<EdgeEnv>;

export const McpSession = deferredSessionObject(deferred);
export const McpHub = hubObject(edge);
export const McpTask = taskObject(edge);
