/**
 * The one publish API: server code tells clients that something changed, from any Worker
 * invocation (a tool, a queue consumer, a cron trigger) or object. The event goes to every
 * shard of the hub at once; each delivers it to the 2026-07-28 listen streams it serves that
 * opted in and to the 2025-era sessions registered with it (docs/subscriptions.md "Subscriptions and the hub").
 * Which shard serves what: listen streams by client (src/http/listen.ts), 2025 registrations by
 * resource URI (list changes by session id): hubFor below.
 */
import {
  DEFAULT_HUB_SHARD,
  DEFAULT_HUB_SHARDS,
  hubObjectId,
  shardOf,
  type HubTopic,
  type ListKind,
  type PublishEvent,
  type PublishReport,
} from "../durable-objects/hub/contract";
import type { HubRpc } from "../durable-objects/hub/contract";
import { INVALID_PARAMS, RpcError } from "./jsonrpc/errors";
import { MAX_URI_LENGTH } from "./mcp/handlers/resources";
import type { EdgeEnv } from "./env";
import { requireNamespace } from "./http/misconfiguration";
import type { HandlerContext } from "./mcp/context";
import { observationOf } from "./mcp/observe";

export type { ListKind, PublishEvent, PublishReport };

export interface PublishOptions {
  /** The hub's name (default: the server's one hub). */
  shard?: string;
  /**
   * How many objects the hub spreads over: the server's `listen.shards`. Needed only where no
   * createMcpEdge ran in this Worker (or it ran with another count); default: that option's value.
   */
  shards?: number;
  /**
   * The call this event comes from: its handler context (`ctx`), or a W3C traceparent (from a
   * queue message, say). With tracing on, the hub's spans for the event continue that trace.
   */
  trace?: HandlerContext<unknown> | string;
}

/** `listen.shards` of the server created in this isolate (createMcpEdge sets it); publish's default. */
let hubShards = DEFAULT_HUB_SHARDS;

/** createMcpEdge: the server's `listen.shards`, so publish and the session object use the same count. */
export function useHubShards(shards: number): void {
  hubShards = shards;
}

function currentHubShards(options: PublishOptions = {}): number {
  return options.shards ?? hubShards;
}

/** One shard of a hub; throws an error naming the wrangler.toml lines when the binding is missing. */
export function hubStub(env: EdgeEnv, shard: string = DEFAULT_HUB_SHARD, needed = "publish", index = 0): DurableObjectStub<HubRpc> {
  // A missing binding, or one without its migration, is an error naming the wrangler.toml lines to add.
  const namespace = requireNamespace<DurableObjectNamespace<HubRpc>>(env, "MCP_HUB", needed);
  return namespace.get(hubObjectId(namespace, shard, index));
}

/** The shard a 2025-era session's registration lives on: by resource URI, list changes by session. */
export function hubFor(env: EdgeEnv, sessionId: string, topic: HubTopic, needed: string): DurableObjectStub<HubRpc> {
  return hubStub(env, DEFAULT_HUB_SHARD, needed, registrationShard(sessionId, topic));
}

function registrationShard(sessionId: string, topic: HubTopic): number {
  return shardOf("uri" in topic ? "uri:" + topic.uri : "session:" + sessionId, hubShards);
}

/** Registers a 2025-era session with the shard of its topic (which tells shard 0 it holds someone). */
export function registerWithHub(env: EdgeEnv, sessionId: string, topic: HubTopic, needed: string): Promise<void> {
  const index = registrationShard(sessionId, topic);
  return hubStub(env, DEFAULT_HUB_SHARD, needed, index).register(sessionId, topic, { name: DEFAULT_HUB_SHARD, index });
}

/** Every shard of the hub, for a call that must reach all of them (publish, shutdown, forget). */
export function allShards(env: EdgeEnv, options: PublishOptions = {}, needed = "publish"): DurableObjectStub<HubRpc>[] {
  const shards = currentHubShards(options);
  return Array.from({ length: shards }, (_, index) => hubStub(env, options.shard, needed, index));
}

const LISTS: readonly ListKind[] = ["tools", "resources", "prompts"];

/** Server code's mistakes are TypeErrors; a URI that is too long (often client-chosen) is -32602. */
function checkEvent(event: PublishEvent): void {
  switch (event.type) {
    case "resourceUpdated":
      if (typeof event.uri !== "string" || event.uri.length === 0)
        throw new TypeError("mcp-edge publish: resourceUpdated needs a non-empty uri");
      if (event.uri.length > MAX_URI_LENGTH) {
        throw new RpcError(
          INVALID_PARAMS,
          `the uri is ${event.uri.length} characters long; at most ${MAX_URI_LENGTH} can be subscribed to, so nobody can be notified`,
        );
      }
      return;
    case "listChanged":
      if (!LISTS.includes(event.list)) throw new TypeError(`mcp-edge publish: listChanged needs list "tools", "resources" or "prompts"`);
      return;
    case "taskStatus":
      if (typeof event.task?.taskId !== "string" || typeof event.task.status !== "string") {
        throw new TypeError("mcp-edge publish: taskStatus needs the task with its taskId and status");
      }
      return;
    default:
      throw new TypeError(`mcp-edge publish: unknown event type ${JSON.stringify((event as { type?: unknown }).type)}`);
  }
}

/**
 * Publishes an event to every listen stream and session that asked for it: `{ type:
 * "resourceUpdated", uri }`, `{ type: "listChanged", list: "tools" }`, or (tasks extension)
 * `{ type: "taskStatus", task, owner }`. Returns how many streams and sessions got it.
 * One RPC, to shard 0 of the hub, which calls the other shards that hold anyone, all at once
 * (durable-objects/hub/shards.ts); each answers when it has queued the event on its streams (it
 * never waits for a client to read), so the publisher's cost does not grow with the listeners.
 */
export async function publish(env: EdgeEnv, event: PublishEvent, options: PublishOptions = {}): Promise<PublishReport> {
  checkEvent(event);
  const name = options.shard ?? DEFAULT_HUB_SHARD;
  const trace = typeof options.trace === "object" ? observationOf(options.trace)?.traceparent : options.trace;
  return hubStub(env, name).publish(event, { name, shards: currentHubShards(options) }, trace);
}

/**
 * Ends every listen stream of the hub gracefully (server shutdown, maintenance): each gets its
 * `subscriptions/listen` request's `complete` result, then closes. Returns how many were open.
 */
export async function closeListenStreams(env: EdgeEnv, options: PublishOptions = {}): Promise<number> {
  const counts = await Promise.all(allShards(env, options, "closeListenStreams").map((hub) => hub.closeListeners()));
  return counts.reduce((a, b) => a + b, 0);
}
