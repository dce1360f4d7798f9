/**
 * `subscriptions/listen` (2026-07-28) as both of its lanes serve it: the era check and the observation
 * around the lane's check of the request and the stream it opens. The hub's lane (listen.ts) checks the
 * filter against what its hub holds (`checkListenForHub`: the honoured subset, bounded, since the hub keeps
 * it in memory) and hands the stream to the hub; an edge without the hub checks only the filter's shape
 * and answers the acknowledged empty set (listen-without-hub.ts), so it bundles none of the hub's bounds.
 * The era decision and the `_meta` envelope are the lanes'; a lane gets their results as a StreamCall
 * (src/http/feature-streams.ts).
 */
import type { FeatureSeams, StreamCall } from "../../kernel/feature";
import type { ListenFilter } from "../../../durable-objects/hub/contract";
import { INVALID_PARAMS, METHOD_NOT_FOUND } from "../../jsonrpc/errors";
import type { Params, RequestId } from "../../jsonrpc/messages";
import { MAX_URI_LENGTH } from "../../mcp/handlers/resources";
import type { McpServer } from "../../mcp/definition/server";
import { TASKS_EXTENSION } from "../../mcp/definition/extensions";
import type { ResolvedListenOptions } from "../../kernel/options";
import type { EdgeEnv } from "../../kernel/env";
import { json } from "../../wire/json";
import { refuse } from "../../wire/refusals";
import { isObject } from "../../jsonrpc/parse";
import { observerOf, type Observation } from "../../mcp/operations/observe";

/** Task ids are minted by the task object; anything longer than this cannot be one of ours. */
const MAX_TASK_ID_LENGTH = 256;
/**
 * The hub keeps every stream's filter in memory: at most this many characters of URIs and task
 * ids per stream, so `listen.maxStreams` streams stay within an object's memory (1,000 × 64 Ki).
 */
const MAX_FILTER_CHARS = 65_536;
/**
 * The hub keeps a stream's request id, subject and route key on its socket (an attachment holds at
 * most 16,384 bytes, the filter's share included): each is refused past this many characters.
 */
const MAX_HELD_KEY_CHARS = 1_024;
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

/** A listen whose filter passed the checks, as a lane opens it. */
export interface CheckedListen<Env> {
  listen: ListenRequest<Env>;
  /** The honoured subset of what was asked. */
  filter: ListenFilter;
  features: ListenFeatures;
  /** The request's observation, when the server is observed. */
  span: Observation | undefined;
}

/** Opens the stream of a checked listen: the hub's, or the acknowledged empty set. */
type ListenOpener = <Env extends EdgeEnv>(checked: CheckedListen<Env>) => Promise<Response>;

/** The -32602 message of a listen request without its filter. */
export const NOTIFICATIONS_REQUIRED =
  'params.notifications is required: an object naming the notifications to receive, e.g. {"toolsListChanged": true}';

/**
 * Tasks extension, "Task Status Notifications": asking for task ids without declaring the extension in the
 * request's client capabilities is -32021; undefined when the client declared it.
 */
export function tasksUndeclared(id: RequestId, capabilities: Record<string, unknown>): Checked | undefined {
  const extensions = capabilities.extensions;
  if (isObject(extensions) && isObject(extensions[TASKS_EXTENSION])) return undefined;
  const required = { extensions: { [TASKS_EXTENSION]: {} } };
  const detail = `notifications.taskIds needs the ${TASKS_EXTENSION} extension declared in this request's clientCapabilities`;
  return { ok: false, response: refuse({ reason: "missing-client-capability", required, detail }, id) };
}

/** A checked filter (the honoured subset), or the refusal to answer instead. */
export type Checked = { ok: true; filter: ListenFilter } | { ok: false; response: Response };

/** A lane's check of one listen request, before its stream opens. */
type ListenCheck = <Env>(listen: ListenRequest<Env>, features: ListenFeatures) => Checked;

/** A lane's two halves: how it checks a listen request, and how it opens the stream of one that passed. */
export interface ListenLaneParts {
  check: ListenCheck;
  open: ListenOpener;
}

/**
 * Serves one `subscriptions/listen` request of a lane (a feature's `streams`): checked with `lane.check`, then
 * opened with `lane.open`.
 * The method does not exist before 2026-07-28: a 2025-era request for it is -32601, as dispatch
 * answers any method it does not know.
 */
export function serveListenCall<Env>(call: StreamCall<Env>, lane: ListenLaneParts): Promise<Response> {
  const { id, kernel, principal } = call;
  if (call.era === "2025")
    return Promise.resolve(
      json({ jsonrpc: "2.0", id, error: { code: METHOD_NOT_FOUND, message: "Method not found: subscriptions/listen" } }),
    );
  const listening: ListenRequest<Env & EdgeEnv> = {
    message: { id, params: call.params },
    clientCapabilities: call.clientCapabilities ?? {},
    env: call.env as Env & EdgeEnv,
    runtime: { server: kernel.server as McpServer<Env & EdgeEnv>, options: kernel.options, kernel },
    subject: principal?.subject,
    expiresAt: principal?.expiresAt,
  };
  // The stream belongs to its route: a publish for another route's listeners skips it.
  const features = { tasks: kernel.server.extensions.has(TASKS_EXTENSION), client: call.clientKey, route: call.route };
  return serveCheckedListen(listening, features, lane);
}

/**
 * Serves one `subscriptions/listen` request: a -32602 / -32021 error, or the stream `lane.open` makes of it.
 * Observed servers (observe.ts) get a span and an event for it, ended when the stream is answered.
 */
export async function serveCheckedListen<Env extends EdgeEnv>(
  listen: ListenRequest<Env>,
  features: ListenFeatures,
  lane: ListenLaneParts,
): Promise<Response> {
  const { message, env, runtime } = listen;
  const observer = observerOf(runtime.server);
  if (!observer) return checkAndOpen(listen, features, lane, undefined);
  const operation = { method: "subscriptions/listen", params: message.params ?? {}, requestId: message.id, protocolVersion: "2026-07-28" };
  const span = observer.start(operation, "worker", env);
  try {
    const response = await checkAndOpen(listen, features, lane, span);
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

function checkAndOpen<Env extends EdgeEnv>(
  listen: ListenRequest<Env>,
  features: ListenFeatures,
  lane: ListenLaneParts,
  span: Observation | undefined,
): Promise<Response> {
  const checked = lane.check(listen, features);
  if (!checked.ok) return Promise.resolve(checked.response);
  return lane.open({ listen, filter: checked.filter, features, span });
}

/**
 * The hub's check of a listen request: what it keeps on the stream's socket and the filter it keeps in
 * memory, each bounded, and the honoured subset of what was asked.
 */
export function checkListenForHub<Env>(listen: ListenRequest<Env>, features: ListenFeatures): Checked {
  const { message, runtime, subject } = listen;
  return checkHeldKeys(message.id, subject, features.route) ?? checkListen(message, listen.clientCapabilities, runtime, features);
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

/** A -32602 answer to a listen request whose params are wrong, naming what is wrong. */
export function invalidParams(id: RequestId, message: string): Checked {
  // An error in a request's params is a JSON-RPC answer, not a transport failure: HTTP 200.
  return {
    ok: false,
    response: json({ jsonrpc: "2.0", id, error: { code: INVALID_PARAMS, message: `subscriptions/listen: ${message}` } }),
  };
}

/** Why `notifications[field]` is not an array of strings, or undefined when it is one. */
export function notStrings(value: unknown, field: string): string | undefined {
  if (!Array.isArray(value)) return `notifications.${field} must be an array of strings`;
  const at = value.findIndex((item) => typeof item !== "string");
  return at === -1 ? undefined : `notifications.${field}[${at}] must be a string`;
}

/** A list of distinct strings, or the reason it is not one. */
function readStrings(value: unknown, field: string, max: number, check: (s: string, at: string) => string | undefined): string[] | string {
  const wrong = notStrings(value, field);
  if (wrong) return wrong;
  const items = value as string[];
  if (items.length > max) return `notifications.${field} names ${items.length} entries; at most ${max} are allowed on one stream`;
  for (let i = 0; i < items.length; i++) {
    const problem = check(items[i] as string, `notifications.${field}[${i}]`);
    if (problem) return problem;
  }
  return [...new Set(items)];
}

function checkUri(uri: string, at: string): string | undefined {
  if (uri.length > MAX_URI_LENGTH) return `${at} is ${uri.length} characters long; at most ${MAX_URI_LENGTH} can be subscribed to`;
  if (!URI_SCHEME.test(uri)) return `${at} is not a URI (it needs a scheme, e.g. "file:///project/config.json")`;
  return undefined;
}

function checkTaskId(id: string, at: string): string | undefined {
  if (id.length === 0 || id.length > MAX_TASK_ID_LENGTH) return `${at} must be a task id of 1 to ${MAX_TASK_ID_LENGTH} characters`;
  return undefined;
}

/** The filter's list-change flags, each with the list whose changes it asks for. */
export const LIST_FLAGS = [
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
  if (!isObject(requested)) return invalidParams(id, NOTIFICATIONS_REQUIRED);
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
    const taskIds = readStrings(requested.taskIds, "taskIds", max, checkTaskId);
    if (typeof taskIds === "string") return invalidParams(id, taskIds);
    size += charsOf(taskIds);
    if (size > MAX_FILTER_CHARS) return tooLarge(id, size);
    if (taskIds.length > 0 && features.tasks) {
      const undeclared = tasksUndeclared(id, capabilities);
      if (undeclared) return undeclared;
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
