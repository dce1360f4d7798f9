/**
 * `subscriptions/listen` (2026-07-28) in the Worker: validates the request's filter, decides
 * the honoured subset (what this server can actually send), and hands the stream to the hub,
 * whose streaming Response is returned untouched. The era decision and the `_meta` envelope
 * are the 2026 lane's; this module gets their results as plain values.
 */
import { visibleTaskIds } from "../../tasks/seam";
import type { FeatureSeams } from "../../kernel/feature";
import {
  HEADER_LISTEN_OPEN,
  HUB_LISTEN_URL,
  listenCompleteResult,
  type HubRpc,
  type ListenFilter,
  type ListenOpen,
} from "../../../durable-objects/hub/contract";
import { DEFAULT_HUB_SHARD, shardOf } from "../../platform/addresses";
import { holdStream, upgradeInit, type HoldOptions } from "../../platform/held-stream";
import { encodeSseComment, encodeSseEvent } from "../../wire/sse";
import { INVALID_PARAMS } from "../../jsonrpc/errors";
import type { Params, RequestId } from "../../jsonrpc/messages";
import { MAX_URI_LENGTH } from "../../mcp/handlers/resources";
import type { McpServer } from "../../mcp/definition/server";
import type { ResolvedListenOptions } from "../../kernel/options";
import type { EdgeEnv } from "../../kernel/env";
import { hubStub } from "../../platform/hub-shards";
import { emptyListen, listenWithoutHub } from "./listen-without-hub";
import { json } from "../../wire/json";
import { refuse } from "../../wire/refusals";
import { isObject } from "../../jsonrpc/parse";
import { observerOf, type Observation } from "../../mcp/operations/observe";

const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
/** Task ids are minted by the task object; anything longer than this cannot be one of ours. */
const MAX_TASK_ID_LENGTH = 256;
/**
 * The hub keeps every stream's filter in memory: at most this many characters of URIs and task
 * ids per stream, so `listen.maxStreams` streams stay within an object's memory (1,000 × 64 Ki).
 */
const MAX_FILTER_CHARS = 65_536;
/**
 * Up to this many streams of one client live on one shard, so the per-client cap is exact there.
 * A larger `maxStreamsPerClient` (a load test from one address) spreads the client over
 * ceil(cap / 64) shard keys, each counting its share: the client may be refused a little early.
 */
const CLIENT_STREAMS_PER_SHARD = 64;
/** SSE response header the 2026-07-28 transport asks for on streams: proxies must not buffer. */
const SSE_EXTRA_HEADERS = { "X-Accel-Buffering": "no" };
/**
 * The hub keeps a stream's request id, subject and route key on its socket (an attachment holds at
 * most 16,384 bytes, the filter's share included): each is refused past this many characters.
 */
const MAX_HELD_KEY_CHARS = 1_024;
/**
 * The draft "Authorization Lifetime for Subscription Streams" (its AuthorizationEnded, -32028): a client
 * that declares this experimental capability gets the error at the token's expiry; any other client's
 * stream closes with no response there, as the draft asks for clients of revisions before it.
 */
const LIFETIME_CAPABILITY = "io.modelcontextprotocol/subscription-lifetime";
const AUTHORIZATION_ENDED = -32028;
/** A URI needs a scheme (RFC 3986 §3.1); `resourceSubscriptions` entries are URIs. */
const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** What serveListen needs of the mounted server (an EdgeRuntime has it). */
interface ListenRuntime<Env> {
  server: McpServer<Env>;
  options: { listen: ResolvedListenOptions; streamCpuBudgetMs?: number };
  /** The edge's kernel: its task seam decides which task ids a listener may follow (none without it). */
  kernel?: { seams: FeatureSeams };
}

export interface ListenFeatures {
  /** The server serves the tasks extension: `taskIds` are honoured (and need the client's declaration). */
  tasks?: boolean;
  /** The hub's name (default: the server's one hub). */
  shard?: string;
  /** Who the stream counts against: clientKey(request, principal) (default: the subject's, else "ip:unknown"). */
  client?: string;
  /** The route key of the endpoint it is opened on (src/wire/route-params.ts; absent or "" for a literal path). */
  route?: string;
}

/**
 * One `subscriptions/listen` request as the Worker serves it: the request's id and params, the
 * capabilities it declared in `_meta`, the env, the mounted server, and the authenticated
 * principal's subject, if any (the 2026 lane builds it from the request's one value, edge-request.ts).
 */
export interface ListenRequest<Env> {
  message: { id: RequestId; params: Params | undefined };
  clientCapabilities: Record<string, unknown>;
  env: Env;
  runtime: ListenRuntime<Env>;
  subject: string | undefined;
  /** When the principal's token expires (seconds since the epoch), when known: the stream ends then. */
  expiresAt?: number;
}

/** The shard and the per-shard client key and cap a client's next stream is served with. */
function placeListen(client: string, options: ResolvedListenOptions): { index: number; client: string; maxPerClient: number } {
  const cap = options.maxStreamsPerClient;
  if (cap <= CLIENT_STREAMS_PER_SHARD) return { index: shardOf(client, options.shards), client, maxPerClient: cap };
  const parts = Math.ceil(cap / CLIENT_STREAMS_PER_SHARD);
  const key = `${client}#${Math.floor(Math.random() * parts)}`;
  return { index: shardOf(key, options.shards), client: key, maxPerClient: Math.ceil(cap / parts) };
}

type Checked = { ok: true; filter: ListenFilter } | { ok: false; response: Response };

/**
 * Serves one `subscriptions/listen` request: a -32602 / -32021 error, or the hub's SSE stream
 * (acknowledgement first, then the opted-in notifications).
 * Observed servers (observe.ts) get a span and an event for it, ended when the hub answers.
 */
export async function serveListen<Env extends EdgeEnv>(listen: ListenRequest<Env>, features: ListenFeatures = {}): Promise<Response> {
  const { message, env, runtime } = listen;
  const observer = observerOf(runtime.server);
  if (!observer) return openListen(listen, features, undefined);
  const operation = { method: "subscriptions/listen", params: message.params ?? {}, requestId: message.id, protocolVersion: "2026-07-28" };
  const span = observer.start(operation, "worker", env);
  try {
    const response = await openListen(listen, features, span);
    // A refusal is JSON (a stream is SSE): its JSON-RPC error marks the span.
    if (response.headers.get("Content-Type")?.startsWith("application/json")) {
      const error = ((await response.clone().json()) as { error?: { code: number; message: string } }).error;
      if (error) span.failed(error.code, error.message);
    }
    return response;
  } catch (error) {
    span.threw(error);
    throw error;
  } finally {
    span.end();
  }
}

async function openListen<Env extends EdgeEnv>(
  listen: ListenRequest<Env>,
  features: ListenFeatures,
  span: Observation | undefined,
): Promise<Response> {
  const { message, env, runtime, subject } = listen;
  const checked = checkHeldKeys(message.id, subject, features.route) ?? checkListen(message, listen.clientCapabilities, runtime, features);
  if (!checked.ok) return checked.response;
  // No hub, nothing it would carry: the empty set, answered here (listen-without-hub.ts).
  if (listenWithoutHub(env, checked.filter)) return emptyListen(message.id, { ...runtime.server.identity });
  // Tasks: a listener follows (and is acknowledged for) only the tasks its principal may see (one task object each).
  if (checked.filter.taskIds) {
    span?.countDoRequests(checked.filter.taskIds.length);
    checked.filter.taskIds = await visibleTaskIds(runtime.kernel?.seams ?? {}, env, {
      taskIds: checked.filter.taskIds,
      subject,
      route: features.route ?? "",
    });
  }
  const options = withEnvCap(runtime.options.listen, env);
  // One client's streams live on one shard (its cap is counted there); clients spread over all.
  const place = placeListen(features.client ?? (subject !== undefined ? `sub:${subject}` : "ip:unknown"), options);
  const open: ListenOpen = {
    id: message.id,
    filter: checked.filter,
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
 * What the hub keeps on the stream's socket, bounded here (an over-long one made the hub fail with
 * a 500, or, beside a filter, never acknowledge): the request's id, the principal's subject, the route key.
 */
function checkHeldKeys(id: RequestId, subject: string | undefined, route: string | undefined): Checked | undefined {
  const max = MAX_HELD_KEY_CHARS;
  if (typeof id === "string" && id.length > max)
    return invalidParams(id, `the request id is ${id.length} characters long; a listen request's id may be at most ${max}`);
  if (subject !== undefined && subject.length > max)
    return invalidParams(id, `the access token's subject is ${subject.length} characters long; a listen stream's may be at most ${max}`);
  if (route !== undefined && route.length > max)
    return invalidParams(
      id,
      `this endpoint's route parameters come to ${route.length} characters; a listen stream's may be at most ${max}`,
    );
  return undefined;
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
    awaitFirst: { refusal: () => refuse({ reason: "stream-not-acknowledged", seconds: 10 }, open.id) },
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
  // A principal's stream ends when its grant is revoked (src/revoke.ts): the error for a client that
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

function invalidParams(id: RequestId, message: string): Checked {
  // An error in a request's params is a JSON-RPC answer, not a transport failure: HTTP 200.
  return {
    ok: false,
    response: json({ jsonrpc: "2.0", id, error: { code: INVALID_PARAMS, message: `subscriptions/listen: ${message}` } }),
  };
}

/** A list of distinct strings, or the reason it is not one. */
function readStrings(value: unknown, field: string, max: number, check: (s: string, at: string) => string | undefined): string[] | string {
  if (!Array.isArray(value)) return `notifications.${field} must be an array of strings`;
  if (value.length > max) return `notifications.${field} names ${value.length} entries; at most ${max} are allowed on one stream`;
  const seen = new Set<string>();
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    const at = `notifications.${field}[${i}]`;
    if (typeof item !== "string") return `${at} must be a string`;
    const problem = check(item, at);
    if (problem) return problem;
    seen.add(item);
  }
  return [...seen];
}

function checkUri(uri: string, at: string): string | undefined {
  if (uri.length > MAX_URI_LENGTH) return `${at} is ${uri.length} characters long; at most ${MAX_URI_LENGTH} can be subscribed to`;
  if (!URI_SCHEME.test(uri)) return `${at} is not a URI (it needs a scheme, e.g. "file:///project/config.json")`;
  return undefined;
}

const LIST_FLAGS = [
  ["toolsListChanged", "tools"],
  ["promptsListChanged", "prompts"],
  ["resourcesListChanged", "resources"],
] as const;

function checkListen<Env>(
  message: { id: RequestId; params: Params | undefined },
  capabilities: Record<string, unknown>,
  runtime: ListenRuntime<Env>,
  features: ListenFeatures,
): Checked {
  const { id, params } = message;
  const requested = params?.notifications;
  if (!isObject(requested))
    return invalidParams(
      id,
      'params.notifications is required: an object naming the notifications to receive, e.g. {"toolsListChanged": true}',
    );
  const max = runtime.options.listen.maxSubscriptions;
  const filter: ListenFilter = {};
  let size = 0;
  const { server } = runtime;
  const has = {
    tools: server.tools.size > 0,
    prompts: server.prompts.size > 0,
    resources: server.resources.size > 0 || server.templates.length > 0,
  };

  for (const [flag, list] of LIST_FLAGS) {
    const value = requested[flag];
    if (value === undefined) continue;
    if (typeof value !== "boolean") return invalidParams(id, `notifications.${flag} must be a boolean`);
    // Honoured only when this server announces changes of that list (defineServer({ listChanged: true })).
    if (value && server.listChanged && has[list]) filter[flag] = true;
  }

  if (requested.resourceSubscriptions !== undefined) {
    const uris = readStrings(requested.resourceSubscriptions, "resourceSubscriptions", max, checkUri);
    if (typeof uris === "string") return invalidParams(id, uris);
    size += charsOf(uris);
    if (uris.length > 0 && has.resources) filter.resourceSubscriptions = uris;
  }

  if (requested.taskIds !== undefined) {
    const taskIds = readStrings(requested.taskIds, "taskIds", max, (id, at) =>
      id.length === 0 || id.length > MAX_TASK_ID_LENGTH ? `${at} must be a task id of 1 to ${MAX_TASK_ID_LENGTH} characters` : undefined,
    );
    if (typeof taskIds === "string") return invalidParams(id, taskIds);
    size += charsOf(taskIds);
    if (size > MAX_FILTER_CHARS) return tooLarge(id, size);
    if (taskIds.length > 0 && features.tasks) {
      // Tasks extension, "Task Status Notifications": asking without declaring the extension is -32021.
      const extensions = capabilities.extensions;
      if (!isObject(extensions) || !isObject(extensions[TASKS_EXTENSION])) {
        const required = { extensions: { [TASKS_EXTENSION]: {} } };
        const detail = `notifications.taskIds needs the ${TASKS_EXTENSION} extension declared in this request's clientCapabilities`;
        return { ok: false, response: refuse({ reason: "missing-client-capability", required, detail }, id) };
      }
      filter.taskIds = taskIds;
    }
  }
  if (size > MAX_FILTER_CHARS) return tooLarge(id, size);
  return { ok: true, filter };
}

function charsOf(list: string[]): number {
  return list.reduce((n, x) => n + x.length, 0);
}

function tooLarge(id: RequestId, size: number): Checked {
  return invalidParams(
    id,
    `the URIs and task ids of one stream come to ${size} characters; at most ${MAX_FILTER_CHARS} are allowed (split them over several streams)`,
  );
}
