/**
 * `subscriptions/listen` (2026-07-28), the hub feature's stream lane: the request checked as both lanes
 * check it (listen-request.ts: the filter, the honoured subset), then the stream handed to the hub,
 * whose streaming Response is returned untouched.
 */
import { followableTaskIds } from "../../kernel/task-seam";
import type { StreamCall } from "../../kernel/feature";
import {
  HEADER_LISTEN_OPEN,
  HUB_LISTEN_URL,
  listenCompleteResult,
  type HubRpc,
  type ListenOpen,
} from "../../../durable-objects/hub/contract";
import { DEFAULT_HUB_SHARD, shardOf } from "../../platform/addresses";
import { holdStream, upgradeInit, type HoldOptions } from "../../platform/held-stream";
import { encodeSseComment, encodeSseEvent } from "../../wire/sse";
import type { RequestId } from "../../jsonrpc/messages";
import type { ResolvedListenOptions } from "../../kernel/options";
import type { EdgeEnv } from "../../kernel/env";
import { hubStub } from "../../platform/hub-shards";
import { emptyListen, listenWithoutHub } from "./listen-without-hub";
import {
  checkListenForHub,
  serveCheckedListen,
  serveListenCall,
  type CheckedListen,
  type ListenFeatures,
  type ListenRequest,
} from "./listen-request";
import { refuse } from "../../wire/refusals";
import { streamNotAcknowledgedRow } from "../../wire/hub-refusals";
import { isObject } from "../../jsonrpc/parse";

export type { ListenFeatures, ListenRequest };

/**
 * Up to this many streams of one client live on one shard, so the per-client cap is exact there.
 * A larger `maxStreamsPerClient` (a load test from one address) spreads the client over
 * ceil(cap / 64) shard keys, each counting its share: the client may be refused a little early.
 */
const CLIENT_STREAMS_PER_SHARD = 64;
/** SSE response header the 2026-07-28 transport asks for on streams: proxies must not buffer. */
const SSE_EXTRA_HEADERS = { "X-Accel-Buffering": "no" };
/**
 * The draft "Authorization Lifetime for Subscription Streams" (its AuthorizationEnded, -32028): a client
 * that declares this experimental capability gets the error at the token's expiry; any other client's
 * stream closes with no response there, as the draft asks for clients of revisions before it.
 */
const LIFETIME_CAPABILITY = "io.modelcontextprotocol/subscription-lifetime";
const AUTHORIZATION_ENDED = -32028;

/** The shard and the per-shard client key and cap a client's next stream is served with. */
function placeListen(client: string, options: ResolvedListenOptions): { index: number; client: string; maxPerClient: number } {
  const cap = options.maxStreamsPerClient;
  if (cap <= CLIENT_STREAMS_PER_SHARD) return { index: shardOf(client, options.shards), client, maxPerClient: cap };
  const parts = Math.ceil(cap / CLIENT_STREAMS_PER_SHARD);
  const key = `${client}#${Math.floor(Math.random() * parts)}`;
  return { index: shardOf(key, options.shards), client: key, maxPerClient: Math.ceil(cap / parts) };
}

/** The hub feature's lane for `subscriptions/listen` (its `streams`): the 2026-07-28 listen stream. */
export function listenLane<Env>(call: StreamCall<Env>): Promise<Response> {
  return serveListenCall(call, { check: checkListenForHub, open: openThroughHub });
}

/**
 * Serves one `subscriptions/listen` request: a -32602 / -32021 error, or the hub's SSE stream
 * (acknowledgement first, then the opted-in notifications).
 * Observed servers (observe.ts) get a span and an event for it, ended when the hub answers.
 */
export function serveListen<Env extends EdgeEnv>(listen: ListenRequest<Env>, features: ListenFeatures = {}): Promise<Response> {
  return serveCheckedListen(listen, features, { check: checkListenForHub, open: openThroughHub });
}

async function openThroughHub<Env extends EdgeEnv>({ listen, filter, features, span }: CheckedListen<Env>): Promise<Response> {
  const { message, env, runtime, subject } = listen;
  // No hub bound, nothing it would carry: the empty set, answered here (listen-without-hub.ts).
  if (listenWithoutHub(env, filter)) return emptyListen(message.id, { ...runtime.server.identity });
  // Tasks: a listener follows (and is acknowledged for) only the tasks its principal may see (one task object each).
  if (filter.taskIds) {
    span?.countDoRequests(filter.taskIds.length);
    filter.taskIds = await followableTaskIds(runtime.kernel?.seams ?? {}, env, {
      taskIds: filter.taskIds,
      subject,
      route: features.route ?? "",
    });
  }
  const options = withEnvCap(runtime.options.listen, env);
  // One client's streams live on one shard (its cap is counted there); clients spread over all.
  const place = placeListen(features.client ?? (subject !== undefined ? `sub:${subject}` : "ip:unknown"), options);
  const open: ListenOpen = {
    id: message.id,
    filter,
    serverInfo: { ...runtime.server.identity },
    keepAliveMs: options.keepAliveMs,
    maxStreams: options.maxStreams,
    client: place.client,
    maxPerClient: place.maxPerClient,
    maxBufferedBytes: options.maxBufferedBytes,
    at: { name: features.shard ?? DEFAULT_HUB_SHARD, index: place.index },
  };
  if (subject !== undefined) open.subject = subject;
  if (features.route) open.route = features.route;
  if (listen.expiresAt !== undefined) open.authorizedUntil = new Date(listen.expiresAt * 1000).toISOString();
  if (span) {
    open.traceparent = span.traceparent;
    span.countDoRequests();
  }
  return holdListen(env, open, place.index, {
    cpuBudgetMs: runtime.options.streamCpuBudgetMs,
    lifetime: isObject(listen.clientCapabilities.experimental) && LIFETIME_CAPABILITY in listen.clientCapabilities.experimental,
  });
}

/**
 * The hub's shard answers with a hibernatable socket; this invocation holds the client's stream
 * (src/platform/held-stream.ts). The filter goes as the socket's first message (an upgrade carries no body).
 */
async function holdListen(
  env: EdgeEnv,
  open: ListenOpen,
  index: number,
  ending: { cpuBudgetMs: number | undefined; lifetime: boolean },
): Promise<Response> {
  const hub = hubStub<HubRpc>(env, { name: open.at?.name, index }, "subscriptions/listen");
  const { filter, serverInfo, ...head } = open;
  const headers: Record<string, string> = { [HEADER_LISTEN_OPEN]: JSON.stringify(head) };
  if (open.traceparent) headers.traceparent = open.traceparent;
  const answer = await hub.fetch(HUB_LISTEN_URL, upgradeInit({ method: "GET", headers }));
  const hold: HoldOptions = {
    first: JSON.stringify(filter),
    awaitFirst: { refusal: () => refuse(streamNotAcknowledgedRow(10), open.id) },
    keepAliveMs: open.keepAliveMs,
    maxBufferedBytes: open.maxBufferedBytes,
    cpuBudgetMs: ending.cpuBudgetMs,
    last: encodeSseEvent(JSON.stringify(listenCompleteResult(open.id, open.serverInfo))),
    headers: SSE_EXTRA_HEADERS,
  };
  if (open.authorizedUntil !== undefined) {
    hold.authorizedUntil = Date.parse(open.authorizedUntil);
    hold.expired = ending.lifetime
      ? encodeSseEvent(JSON.stringify(authorizationEnded(open.id, "token_expiry")))
      : encodeSseComment(EXPIRED);
  }
  // A principal's stream ends when its grant is revoked (src/platform/end-streams.ts): the error for a client that
  // declared the draft; any other client's stream ends with no response, its reason in a comment.
  if (open.subject !== undefined)
    hold.revoked = ending.lifetime ? encodeSseEvent(JSON.stringify(authorizationEnded(open.id, "revoked"))) : encodeSseComment(REVOKED);
  return holdStream(answer, hold);
}

const EXPIRED = "authorization ended (token_expiry): the access token expired; listen again with a fresh token";
const REVOKED = "authorization ended (revoked): the grant was revoked; authorize again";

/** The draft's AuthorizationEnded, the stream's last message when its token expired or its grant was revoked. */
function authorizationEnded(id: RequestId, reason: "token_expiry" | "revoked"): Record<string, unknown> {
  const why = reason === "revoked" ? "the grant was revoked; authorize again" : "the access token expired; listen again with a fresh token";
  return {
    jsonrpc: "2.0",
    id,
    error: { code: AUTHORIZATION_ENDED, message: `Authorization ended: ${why}`, data: { reason } },
  };
}

let warnedEnvCap = false;

/** `MCP_LISTEN_MAX_PER_CLIENT` (a var) replaces `listen.maxStreamsPerClient`; anything but a positive whole number is ignored. */
function withEnvCap(options: ResolvedListenOptions, env: EdgeEnv): ResolvedListenOptions {
  const raw = env.MCP_LISTEN_MAX_PER_CLIENT;
  if (raw === undefined || raw === "") return options;
  const cap = Number(raw);
  if (!Number.isInteger(cap) || cap <= 0) {
    if (warnedEnvCap) return options;
    warnedEnvCap = true;
    console.warn(
      `mcp-edge: MCP_LISTEN_MAX_PER_CLIENT=${JSON.stringify(raw)} is not a positive whole number; listen.maxStreamsPerClient applies`,
    );
    return options;
  }
  return { ...options, maxStreamsPerClient: cap };
}
