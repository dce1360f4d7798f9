/**
 * The one publish API: server code tells clients that something changed, from any Worker
 * invocation (a tool, a queue consumer, a cron trigger) or object. The event goes to the hub,
 * which delivers it to 2026-07-28 listen streams that opted in and to 2025-era sessions that
 * subscribed (docs/subscriptions.md "Subscriptions and the hub").
 */
import { DEFAULT_HUB_SHARD, hubObjectId, type ListKind, type PublishEvent, type PublishReport } from "../durable-objects/hub/contract";
import type { HubRpc } from "../durable-objects/hub/contract";
import { INVALID_PARAMS, RpcError } from "./jsonrpc/errors";
import { MAX_URI_LENGTH } from "./mcp/handlers/resources";
import type { EdgeEnv } from "./env";
import { requireNamespace } from "./http/misconfiguration";

export type { ListKind, PublishEvent, PublishReport };

export interface PublishOptions {
  /** The hub shard (default: the server's one hub). */
  shard?: string;
}

/** The hub of a shard; throws an error naming the wrangler.toml lines when the binding is missing. */
export function hubStub(env: EdgeEnv, shard: string = DEFAULT_HUB_SHARD, needed = "publish"): DurableObjectStub<HubRpc> {
  // A missing binding, or one without its migration, is an error naming the wrangler.toml lines to add.
  const namespace = requireNamespace<DurableObjectNamespace<HubRpc>>(env, "MCP_HUB", needed);
  return namespace.get(hubObjectId(namespace, shard));
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
 */
export async function publish(env: EdgeEnv, event: PublishEvent, options: PublishOptions = {}): Promise<PublishReport> {
  checkEvent(event);
  return hubStub(env, options.shard).publish(event);
}

/**
 * Ends every listen stream of the hub gracefully (server shutdown, maintenance): each gets its
 * `subscriptions/listen` request's `complete` result, then closes. Returns how many were open.
 */
export async function closeListenStreams(env: EdgeEnv, options: PublishOptions = {}): Promise<number> {
  return hubStub(env, options.shard, "closeListenStreams").closeListeners();
}
