/**
 * The one publish API: server code tells clients that something changed, from any Worker
 * invocation (a tool, a queue consumer, a cron trigger) or object. The event goes to shard 0
 * of the hub, which hands it to every other shard that holds anyone; each delivers it to the 2026-07-28 listen streams it serves that
 * opted in and to the 2025-era sessions registered with it (docs/hub.md "Subscriptions and the hub").
 * Which shard serves what: listen streams by client (src/features/hub/listen.ts), 2025 registrations by
 * resource URI (list changes by session id): src/platform/hub-shards.ts.
 */
import * as workers from "cloudflare:workers";
import {
  eventWeight,
  type Fanout,
  type HubRpc,
  type ListKind,
  type PublishEvent,
  type PublishReport,
} from "../../../durable-objects/hub/contract";
import { DEFAULT_HUB_SHARD, DEFAULT_HUB_SHARDS, hubObjectId } from "../../platform/addresses";
import { requireNamespace, HUB_BINDING } from "../../platform/bindings";
import { allShards } from "../../platform/hub-shards";
import { Outbox } from "../../platform/outbox";
import { INVALID_PARAMS, RpcError } from "../../jsonrpc/errors";
import { MAX_URI_LENGTH } from "../../mcp/handlers/resources";
import type { EdgeEnv } from "../../kernel/env";
import type { HandlerContext } from "../../mcp/definition/context";
import { observationOf } from "../../mcp/operations/observe";
import { routeKey, type RouteParams } from "../../wire/route-params";

export type { ListKind, PublishEvent, PublishReport };

export interface PublishOptions {
  /** The hub's name (default: the server's one hub). */
  shard?: string;
  /**
   * How many objects the hub spreads over: the server's `listen.shards` (default 16, that
   * option's default). Pass it when `listen.shards` is not 16: a publish reaches every shard
   * that holds anyone anyway (shard 0 keeps them), but after a failed call to a shard shard 0
   * calls every shard up to this count, and closeListenStreams calls exactly this many.
   */
  shards?: number;
  /**
   * The call this event comes from: its handler context (`ctx`), or a W3C traceparent (from a
   * queue message, say). With tracing on, the hub's spans for the event continue that trace.
   */
  trace?: HandlerContext<unknown> | string;
  /**
   * Only the listeners of one route: its parameters (`{ tenant: "acme" }` for `/mcp/acme` under
   * `path: "/mcp/:tenant"`, e.g. `ctx.request.params`). Listen streams and 2025 sessions opened on
   * another route skip the event. Default: every route (docs/configuration.md "Routes").
   */
  route?: RouteParams;
}

/** The hub's shard count for a publish: the `shards` option, else listen.shards' default. */
function shardCount(options: PublishOptions): number {
  return options.shards ?? DEFAULT_HUB_SHARDS;
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
    case "authorizationEnded":
      if (typeof event.subject !== "string" || event.subject.length === 0)
        throw new TypeError(
          "mcp-edge publish: authorizationEnded needs the principal's subject, a non-empty string (or call endStreamsOf)",
        );
      return;
    default:
      throw new TypeError(`mcp-edge publish: unknown event type ${JSON.stringify((event as { type?: unknown }).type)}`);
  }
}

/** One queued publish; `counted` when its caller waits for the counts (publishAndCount); `trace`: its caller's span. */
interface Queued {
  event: PublishEvent;
  counted?: { resolve(report: PublishReport): void; reject(error: unknown): void };
  trace?: string;
}

/** This isolate's ordered outbox to shard 0 of each hub, by binding and hub. */
const outboxes = new WeakMap<object, Map<string, Outbox<Queued, void>>>();

function outboxOf(namespace: DurableObjectNamespace<HubRpc>, fanout: Fanout): Outbox<Queued, void> {
  let byHub = outboxes.get(namespace);
  if (!byHub) {
    byHub = new Map();
    outboxes.set(namespace, byHub);
  }
  const key = `${fanout.name}/${fanout.shards}`;
  let box = byHub.get(key);
  if (!box) {
    box = new Outbox((batch) => sendToHub(namespace, fanout, batch), { weigh: (q) => eventWeight(q.event) });
    byHub.set(key, box);
  }
  return box;
}

/** One batch to shard 0 (a stub made here: it belongs to the request whose publish opened the batch). */
async function sendToHub(namespace: DurableObjectNamespace<HubRpc>, fanout: Fanout, batch: Queued[]): Promise<void> {
  const wait = batch.some((q) => q.counted);
  try {
    // Each event's trace, only when one of them has one (a traced hub continues it).
    const traces = batch.some((q) => q.trace !== undefined) ? batch.map((q) => q.trace) : undefined;
    const report = await namespace.get(hubObjectId(namespace, fanout.name)).publish(
      batch.map((q) => q.event),
      fanout,
      wait,
      traces,
    );
    for (const [i, q] of batch.entries())
      q.counted?.resolve({ listenStreams: report?.listenStreams[i] ?? 0, sessions: report?.sessions[i] ?? 0 });
  } catch (error) {
    for (const q of batch) q.counted?.reject(error);
    const lost = batch.filter((q) => !q.counted).length;
    if (lost > 0) console.error(`mcp-edge: publish: hub "${fanout.name}" did not take ${lost} event(s); nobody got them`, error);
  }
}

/** The caller's span as a traceparent, when `trace` was given (a handler's ctx or the string itself). */
function traceOf(options: PublishOptions): string | undefined {
  return typeof options.trace === "object" ? observationOf(options.trace)?.traceparent : options.trace;
}

/** Checks the event and the binding (both throw at once); where the event goes. */
function target(env: EdgeEnv, event: PublishEvent, options: PublishOptions): { namespace: DurableObjectNamespace<HubRpc>; fanout: Fanout } {
  checkEvent(event);
  if (options.route !== undefined && (typeof options.route !== "object" || options.route === null))
    throw new TypeError("mcp-edge publish: route must be the route's parameters, e.g. ctx.request.params");
  const namespace = requireNamespace<DurableObjectNamespace<HubRpc>>(env, HUB_BINDING, "publish");
  return { namespace, fanout: { name: options.shard ?? DEFAULT_HUB_SHARD, shards: shardCount(options) } };
}

/** The event with the `route` option's key on it (the hub compares keys), or as given. */
function routed(event: PublishEvent, options: PublishOptions): PublishEvent {
  return options.route === undefined ? event : { ...event, route: routeKey(options.route) };
}

/**
 * Keeps the invocation alive after its response until `sent` settles. False where the runtime
 * cannot (a workerd without `waitUntil` in "cloudflare:workers"): the caller then waits for it.
 */
function keptAlive(sent: Promise<void>): boolean {
  if (typeof workers.waitUntil !== "function") return false;
  try {
    workers.waitUntil(sent);
    return true;
  } catch {
    return false;
  }
}

/**
 * Publishes an event to every listen stream and session that asked for it: `{ type:
 * "resourceUpdated", uri }`, `{ type: "listChanged", list: "tools" }`, or (tasks extension)
 * `{ type: "taskStatus", task, owner }`. Returns once the event is handed off: queued, in order
 * after this isolate's earlier publishes, on the way to shard 0 of the hub, and the invocation
 * kept alive (`waitUntil`) until shard 0 has it. So its cost to the caller is not a round trip,
 * and does not grow with the listeners. A bad event or a missing `MCP_HUB` binding throws at
 * once. Publishes made while a call to shard 0 is in flight go together in the next one; shard
 * 0 writes to its own streams and hands the batch on to the other shards that hold anyone
 * (durable-objects/hub/shards.ts), each through its own ordered outbox: each listener gets
 * each event once, in publish order. A batch shard 0 does not take is logged (console.error);
 * a caller that must know who got an event uses publishAndCount.
 */
export async function publish(env: EdgeEnv, given: PublishEvent, options: PublishOptions = {}): Promise<void> {
  const { namespace, fanout } = target(env, given, options);
  const event = routed(given, options);
  if (typeof workers.waitUntil === "function") {
    // Only the runtime waits for a batch: a request never waits on a send another request made
    // (its I/O belongs to that request; awaiting it from here fails, "Cannot perform I/O on
    // behalf of a different request"), so the shared outbox is for hand-offs only.
    const { sent } = outboxOf(namespace, fanout).push({ event, trace: traceOf(options) });
    // Where waitUntil refuses (no request to extend), the caller waits instead.
    if (!keptAlive(sent)) await sent;
    return;
  }
  // No waitUntil at all (an older runtime): this request waits, for a call of its own.
  await sendToHub(namespace, fanout, [{ event, trace: traceOf(options) }]);
}

/**
 * publish, then waits until every shard holding anyone has delivered the event (to its streams'
 * send buffers, and to the 2025 sessions, which answered), and returns how many streams and
 * sessions got it. It costs the caller both hops (Worker → shard 0 → the other shards) in a call
 * of its own (never a batch another request sends), so it is not ordered after this isolate's
 * earlier `publish` hand-offs still on their way; it rejects when the hub did not take the event.
 */
export async function publishAndCount(env: EdgeEnv, given: PublishEvent, options: PublishOptions = {}): Promise<PublishReport> {
  const { namespace, fanout } = target(env, given, options);
  const event = routed(given, options);
  return new Promise<PublishReport>((resolve, reject) => {
    void sendToHub(namespace, fanout, [{ event, trace: traceOf(options), counted: { resolve, reject } }]);
  });
}

/**
 * Ends every listen stream of the hub gracefully (server shutdown, maintenance): each gets its
 * `subscriptions/listen` request's `complete` result, then closes. Returns how many were open.
 */
export async function closeListenStreams(env: EdgeEnv, options: PublishOptions = {}): Promise<number> {
  const hub = { name: options.shard, shards: shardCount(options), needed: "closeListenStreams" };
  const counts = await Promise.all(allShards<HubRpc>(env, hub).map((shard) => shard.closeListeners()));
  return counts.reduce((a, b) => a + b, 0);
}
