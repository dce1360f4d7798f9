/**
 * Helpers for 2026-07-28 `subscriptions/listen` tests: build a listen request as a client
 * sends it, serve it with serveListen (the Worker-side function the 2026 lane calls), and
 * look at the hub's storage. Built on sse.ts.
 */
import { TASK_SEAM } from "../../src/tasks/task-object";
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { DEFAULT_HUB_SHARDS, hubObjectId } from "../../src/platform/addresses";
import type { McpHub } from "../../durable-objects/hub/mcp-hub";
import type { RequestId } from "../../src/jsonrpc/messages";
import { serveListen, type ListenFeatures } from "../../src/http/streams/listen";
import type { McpServer } from "../../src/mcp/definition/server";
import { resolveListenOptions, type ListenOptions } from "../../src/kernel/options";
import type { EdgeEnv } from "../../src/kernel/env";
import { SseReader } from "./sse";

export const edgeEnv = env as unknown as EdgeEnv;
export const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

/** The params of a listen request as a 2026-07-28 client sends them (schema/examples/SubscriptionsListenRequest). */
function listenParams(notifications: unknown, capabilities: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "ExampleClient", version: "1.0.0" },
      "io.modelcontextprotocol/clientCapabilities": capabilities,
    },
    notifications,
  };
}

export interface ListenCall {
  server: McpServer<EdgeEnv>;
  id?: RequestId;
  notifications?: unknown;
  capabilities?: Record<string, unknown>;
  options?: ListenOptions;
  subject?: string;
  /** The principal's token expiry (seconds since the epoch): the stream ends then. */
  expiresAt?: number;
  /** The server's `streamCpuBudgetMs` (absent: no budget). */
  streamCpuBudgetMs?: number;
  features?: ListenFeatures;
}

/** Calls serveListen as the 2026 lane does, with the request's declared capabilities. */
export function listen(call: ListenCall): Promise<Response> {
  const capabilities = call.capabilities ?? {};
  const params =
    call.notifications === undefined ? { _meta: listenParams({}, capabilities)._meta } : listenParams(call.notifications, capabilities);
  return serveListen(
    {
      message: { id: call.id ?? "listen-1", params },
      clientCapabilities: capabilities,
      env: edgeEnv,
      runtime: {
        server: call.server,
        options: { listen: resolveListenOptions(call.options), streamCpuBudgetMs: call.streamCpuBudgetMs },
        // As an edge with tasks() serves it: a listener follows the task ids its principal may see.
        kernel: { seams: { tasks: TASK_SEAM } },
      },
      subject: call.subject,
      expiresAt: call.expiresAt,
    },
    call.features,
  );
}

/** Opens a listen stream and returns its reader, positioned after the acknowledgement (returned too). */
export async function openListen(call: ListenCall): Promise<{ stream: SseReader; ack: Record<string, unknown> }> {
  const res = await listen(call);
  expect(res.status).toBe(200);
  expect(res.headers.get("Content-Type")).toBe("text/event-stream");
  const stream = new SseReader(res);
  const first = await stream.next();
  expect(first?.json?.method).toBe("notifications/subscriptions/acknowledged");
  return { stream, ack: first?.json as Record<string, unknown> };
}

/** One shard of a hub (shard 0 unless `index` says otherwise). */
export function hubStubOf(shard?: string, index = 0): DurableObjectStub<McpHub> {
  const namespace = edgeEnv.MCP_HUB as DurableObjectNamespace<McpHub>;
  return namespace.get(hubObjectId(namespace, shard, index));
}

/** The tables of every shard of the server's hub, rows of all shards together (2025 registrations spread by URI). */
export async function allHubTables(): Promise<Record<string, unknown[]>> {
  const shards = await Promise.all(Array.from({ length: DEFAULT_HUB_SHARDS }, (_, i) => hubTables(undefined, i)));
  const out: Record<string, unknown[]> = {};
  for (const tables of shards) for (const [name, rows] of Object.entries(tables)) (out[name] ??= []).push(...rows);
  return out;
}

/** The 2025 registrations on every shard of the server's hub. */
export async function hubRegistrations(): Promise<{ topic: string; session_id: string }[]> {
  return ((await allHubTables()).hub_registrations ?? []) as { topic: string; session_id: string }[];
}

/** A shard's tables (Cloudflare's internal ones excluded) with their rows. */
export function hubTables(shard?: string, index = 0): Promise<Record<string, unknown[]>> {
  return runInDurableObject(hubStubOf(shard, index), (_instance, state) => {
    const tables = state.storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'sqlite_%'")
      .toArray();
    const out: Record<string, unknown[]> = {};
    for (const { name } of tables) out[name] = state.storage.sql.exec(`SELECT * FROM "${name}"`).toArray();
    return out;
  });
}

/** Reads a stream while it is written to: resolves with how many updates it carried, up to `count` (fewer if it ended). */
export async function updatesRead(stream: SseReader, count: number): Promise<number> {
  let seen = 0;
  while (seen < count) {
    const event = await stream.next();
    if (!event) break;
    if (event.json?.method === "notifications/resources/updated") seen++;
  }
  return seen;
}
