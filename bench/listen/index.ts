/**
 * The bench's listen Worker (bench/run.mjs, scenario "listen"). POST /listen opens a listen stream on the hub (through
 * serveListen, as the 2026 lane will); POST /publish?count=N&mode=seq|par|count publishes N
 * `resourceUpdated` events from this one invocation, one after another, all at once, or one
 * after another each waiting for its delivery (publishAndCount, which answers `delivered`); POST
 * /sse?count=N is the floor: N hand-formatted notifications written by the Worker itself.
 * Fan-out (bench/scenarios/fanout.mjs): `client=<key>` opens the stream as that client (many
 * clients spread over the shards), `shards=N` sets listen.shards for /listen and /publish.
 * Memory baselines for fan-out: /hold (the Worker holds an SSE response open) and /hold-object
 * (a Durable Object, BenchHold, holds it behind the Worker: the hub's path without its code).
 * Slow reader (bench/scenarios/slow-reader.mjs): `pad=N` makes the resource's URI N characters
 * longer on /listen and /publish alike, so each notification carries that many more bytes.
 * Held-stream CPU (bench/scenarios/held-cpu.mjs): `keepalive=N` sets listen.keepAliveMs for /listen.
 */
import { DurableObject } from "cloudflare:workers";
import type { EdgeEnv } from "../../src/kernel/env";
import { serveListen } from "../../src/features/hub/listen";
import { defineServer } from "../../src/mcp/definition/server";
import { resolveListenOptions } from "../../src/kernel/options";
import { publish, publishAndCount } from "../../src/features/hub/publish";
import { hubObject } from "../../src/features/hub/hub-object";

const URI = "bench://resource";
const server = defineServer<EdgeEnv>({ name: "bench-listen", version: "1.0.0" }).resource(URI, { name: "bench" }, (uri) => ({
  uri,
  text: "x",
}));
const encoder = new TextEncoder();

function floorStream(count: number): Response {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  for (let i = 1; i <= count; i++) {
    void writer.write(
      encoder.encode(
        `event: message\ndata: {"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"bench"},"uri":"${URI}"}}\n\n`,
      ),
    );
  }
  void writer.close();
  return new Response(readable, { headers: { "Content-Type": "text/event-stream" } });
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const count = Number(url.searchParams.get("count") ?? "1");
    const shards = url.searchParams.has("shards") ? Number(url.searchParams.get("shards")) : undefined;
    const pad = Number(url.searchParams.get("pad") ?? "0");
    const uri = pad > 0 ? `${URI}/${"x".repeat(pad)}` : URI;
    if (url.pathname === "/listen") {
      const params = { notifications: { resourceSubscriptions: [uri] } };
      const client = url.searchParams.get("client") ?? undefined;
      const keepAliveMs = url.searchParams.has("keepalive") ? Number(url.searchParams.get("keepalive")) : undefined;
      const options = { listen: resolveListenOptions({ shards, keepAliveMs, maxStreamsPerClient: client ? 8 : 1_000_000 }) };
      const listening = { message: { id: "bench", params }, clientCapabilities: {}, env, runtime: { server, options }, subject: undefined };
      return serveListen(listening, client ? { client } : {});
    }
    if (url.pathname === "/publish") {
      const event = { type: "resourceUpdated", uri } as const;
      const mode = url.searchParams.get("mode");
      // The publisher's own wait, timed inside the Worker (Date.now() moves across I/O).
      const started = Date.now();
      if (mode === "count") {
        // Each publish waits until the hub delivered it, and counts who got it.
        let delivered = 0;
        for (let i = 0; i < count; i++) delivered += (await publishAndCount(env, event, { shards })).listenStreams;
        return Response.json({ published: count, delivered, publishMs: Date.now() - started });
      }
      if (mode === "par") await Promise.all(Array.from({ length: count }, () => publish(env, event, { shards })));
      else for (let i = 0; i < count; i++) await publish(env, event, { shards });
      return Response.json({ published: count, publishMs: Date.now() - started });
    }
    if (url.pathname === "/sse") return floorStream(count);
    // The fan-out bench's baselines: an SSE response the Worker itself holds open (no hub), and
    // one a Durable Object holds open behind the Worker (the hub's path without the hub's code).
    if (url.pathname === "/hold") return heldResponse();
    if (url.pathname === "/hold-object") {
      const objects = env.BENCH_HOLD as DurableObjectNamespace;
      const client = url.searchParams.get("client") ?? "";
      return objects.get(objects.idFromName(`hold#${holdIndex(client, shards ?? 16)}`)).fetch(request);
    }
    return new Response("not found", { status: 404 });
  },
} satisfies ExportedHandler<EdgeEnv & { BENCH_HOLD?: DurableObjectNamespace }>;

/** A plain open SSE response with one event written, nothing else kept. */
function heldResponse(): Response {
  const { readable, writable } = new IdentityTransformStream();
  const writer = writable.getWriter();
  void writer.write(encoder.encode(`event: message\ndata: {"method":"notifications/subscriptions/acknowledged"}\n\n`));
  return new Response(readable, { headers: { "Content-Type": "text/event-stream" } });
}

/** Spreads clients over as many objects as the hub has shards (any even spread will do). */
function holdIndex(client: string, count: number): number {
  let hash = 0;
  for (let i = 0; i < client.length; i++) hash = (hash * 31 + client.charCodeAt(i)) >>> 0;
  return hash % count;
}

/** The `/hold-object` baseline: holds each request's SSE response open, nothing else. */
export class BenchHold extends DurableObject {
  override async fetch(): Promise<Response> {
    return heldResponse();
  }
}

export const McpHub = hubObject();
