/**
 * The contract between Workers (and other objects) and the subscription hub: what can be
 * published, what a listen stream asks of the hub, and what the hub asks of a session. How a
 * hub shard is addressed and which shard serves what is src/platform/addresses.ts. Both sides
 * import this file; neither imports the other.
 */
import type { RequestId } from "../../src/jsonrpc/messages";
import type { UpdateDelivery } from "../../src/kernel/feature";
import type { HubTopic } from "../../src/platform/addresses";

export type ListKind = "tools" | "resources" | "prompts";

/**
 * What server code publishes: `publish(env, event)` reaches 2026 listen streams and 2025 sessions.
 * With `route` (a route key, src/wire/route-params.ts), only those opened on that route.
 */
export type PublishEvent = (
  | { type: "resourceUpdated"; uri: string }
  | { type: "listChanged"; list: ListKind }
  /**
   * Tasks extension: `task` is the complete task as `tasks/get` would return it (`taskId`,
   * `status`, ...). Delivered as `notifications/tasks` only to listen streams that named the
   * task id; with `owner`, only to streams opened by that principal subject.
   */
  | { type: "taskStatus"; task: { taskId: string; status: string; [key: string]: unknown }; owner?: string }
  /**
   * The grant of `subject` was revoked (src/platform/end-streams.ts `endStreamsOf`): every listen stream and
   * 2025 session stream that principal holds ends at once with its authorization's ending.
   */
  | { type: "authorizationEnded"; subject: string }
) & { route?: string };

/** About how many bytes an event takes in a batch (a completed task's status carries its result). */
export function eventWeight(event: PublishEvent): number {
  switch (event.type) {
    case "resourceUpdated":
      return 64 + event.uri.length;
    case "listChanged":
      return 64;
    case "taskStatus":
      return 64 + JSON.stringify(event.task).length;
    case "authorizationEnded":
      return 64 + event.subject.length;
  }
}

/** How many receivers got a published event, once every shard delivered it (publishAndCount). */
export interface PublishReport {
  /** 2026-07-28 `subscriptions/listen` streams. */
  listenStreams: number;
  /** 2025-era sessions whose standalone GET stream carried it. */
  sessions: number;
}

/** The same counts for each event of a batch, in the batch's order. */
export interface BatchReport {
  listenStreams: number[];
  sessions: number[];
}

/** Which hub shard 0 coordinates, and how many shards it has. */
export interface Fanout {
  name: string;
  shards: number;
}

/** The filter a listen stream is served with: the honoured subset of what the client asked. */
export interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  taskIds?: string[];
}

/** What the Worker sends the hub to open one listen stream (the POST body of HUB_LISTEN_URL). */
export interface ListenOpen {
  /** The listen request's id: the subscription id. */
  id: RequestId;
  filter: ListenFilter;
  /** The principal that opened the stream (absent without auth). */
  subject?: string;
  /** The route key of the endpoint it was opened on (absent: a literal path); a publish for another route skips it. */
  route?: string;
  /** Sent in the `_meta` of the closing result. */
  serverInfo?: Record<string, unknown>;
  /** When the stream's authorization ends (RFC 3339, the token's expiry): the acknowledgement says so. */
  authorizedUntil?: string;
  keepAliveMs: number;
  /** Open listen streams this hub serves at most; one more is refused. */
  maxStreams: number;
  /** Who the stream counts against (src/http/client-key.ts); absent: "ip:unknown". */
  client?: string;
  /** Open streams one client may hold on this shard; one more is refused (absent: no cap). */
  maxPerClient?: number;
  /** Unsent bytes one stream may hold; a client that falls further behind gets the stream ended (absent: no bound). */
  maxBufferedBytes?: number;
  /** The shard this stream was placed on (absent: shard 0 of its hub). */
  at?: ShardPlace;
  /** With tracing: the Worker's span for the request (W3C traceparent), the parent of the hub's. */
  traceparent?: string;
}

/** Where a shard is: its hub's name and its index (0 is the coordinator). */
export interface ShardPlace {
  name: string;
  index: number;
}

/** A shard's answer to shard 0: what it delivered, and whether it still holds anyone. */
export interface ShardReport extends BatchReport {
  empty: boolean;
  epoch: number;
}

export const HUB_LISTEN_URL = "https://mcp-edge.hub/listen";
/**
 * The upgrade to a listen stream is a GET (the runtime drops an upgrade's body): this header
 * carries the ListenOpen without its filter and serverInfo (a few hundred bytes); the filter,
 * up to 64 Ki characters, is the first message the Worker sends on the socket.
 */
export const HEADER_LISTEN_OPEN = "X-Mcp-Edge-Listen";

/** A 2025-era session's answer when the hub hands it an event (the kernel names it for the session's hub link). */
export type { UpdateDelivery };

/**
 * What the hub calls on a 2025-era session it holds a registration of (the session object's
 * contract includes it): the hub names what it needs here and imports no session code.
 */
export interface SessionUpdatesRpc extends Rpc.DurableObjectBranded {
  resourceUpdated(uri: string, traceparent?: string, route?: string): Promise<UpdateDelivery>;
  listChanged(list: ListKind, traceparent?: string, route?: string): Promise<UpdateDelivery>;
  /** The grant of `subject` was revoked: the session's held streams end when it is that principal's. */
  authorizationEnded(subject: string): Promise<UpdateDelivery>;
}

export const SUBSCRIPTION_ID_KEY = "io.modelcontextprotocol/subscriptionId";
const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";

/**
 * The listen request's `complete` result: the graceful end of its stream (subscriptions.mdx
 * "Graceful Closure"). The Worker holding the stream writes it whenever the stream ends.
 */
export function listenCompleteResult(id: RequestId, serverInfo: Record<string, unknown> | undefined): Record<string, unknown> {
  const meta: Record<string, unknown> = { [SUBSCRIPTION_ID_KEY]: id };
  if (serverInfo) meta[SERVER_INFO_KEY] = serverInfo;
  return { jsonrpc: "2.0", id, result: { resultType: "complete", _meta: meta } };
}

/** The bindings a hub object reads (a Worker's env has them, src/kernel/env.ts). */
export interface HubEnv {
  MCP_HUB?: DurableObjectNamespace<HubRpc>;
  MCP_SESSION?: DurableObjectNamespace<SessionUpdatesRpc>;
}

/** What the Worker (and other objects) may call on the hub over Workers RPC; McpHub implements it. */
export interface HubRpc extends Rpc.DurableObjectBranded {
  /**
   * Listen streams: POST HUB_LISTEN_URL with a ListenOpen body and `Upgrade: websocket` answers
   * 101 with the stream's hibernatable socket (src/platform/held-stream.ts holds the client's side).
   */
  fetch(request: Request): Promise<Response>;
  /** `at`: which shard of the default hub this is (it tells shard 0 it holds someone). */
  register(sessionId: string, topic: HubTopic, at?: ShardPlace): Promise<void>;
  unregister(sessionId: string, topic: HubTopic): Promise<void>;
  forget(sessionId: string): Promise<void>;
  /**
   * On shard 0, a batch in publish order: writes it to this shard's streams, queues it for every
   * other shard that holds anyone (with `fanout`) and for this shard's 2025 sessions, and
   * answers: at once (handed off), or with `wait` once all of them delivered it, with the counts.
   * `traces`: each event's publisher's span (W3C traceparent), which a traced hub's spans continue.
   */
  publish(events: PublishEvent[], fanout?: Fanout, wait?: boolean, traces?: (string | undefined)[]): Promise<BatchReport | undefined>;
  /** Shard 0: another shard holds a stream or registration now (`epoch` orders its announcements). */
  activate(index: number, epoch: number): Promise<void>;
  /** Shard 0: that shard holds nobody any more (its announcement of `epoch`); forgotten unless it announced again since. */
  deactivate(index: number, epoch: number): Promise<void>;
  /** On a shard other than 0 (shard 0 calls it): delivers a batch in order, and says whether the shard holds anyone; `traces`: shard 0's spans. */
  deliver(events: PublishEvent[], traces?: (string | undefined)[]): Promise<ShardReport>;
  closeListeners(): Promise<number>;
}
