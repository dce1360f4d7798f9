/**
 * `subscriptions/listen` on a deployment without the hub (no MCP_HUB binding, as the project
 * `npm create mcp-edge` writes): its server/discover declares no resource subscriptions and no
 * list changes (handlers/discover.ts), so a listen honours none of them, and without task ids
 * there is nothing the stream could ever carry. Such a listen is answered here, in the Worker:
 * the acknowledgement of the subset honoured (the empty set), then the listen request's
 * `complete` result (subscriptions.mdx "Graceful Closure"), so a client knows the stream ended on
 * purpose and has no reason to reopen it. Task ids still need the hub (their status comes from it).
 * An edge whose features name no hub answers every listen so (listenWithoutHubLane). It checks the
 * filter's shape as the hub's lane does (the same -32602 for a malformed filter, the same -32021 for
 * task ids the client did not declare), but none of the hub's bounds on what a stream holds (lengths,
 * counts, URI syntax): a stream that honours nothing holds nothing. It bundles none of the hub's code.
 */
import { hubBound } from "../../mcp/handlers/discover";
import { listenCompleteResult, SUBSCRIPTION_ID_KEY, type ListenFilter } from "../../../durable-objects/hub/contract";
import type { StreamCall } from "../../kernel/feature";
import type { EdgeEnv } from "../../kernel/env";
import type { RequestId } from "../../jsonrpc/messages";
import { hubNotServed } from "../../platform/bindings";
import { encodeSseEvent, sseResponse } from "../../wire/sse";
import { isObject } from "../../jsonrpc/parse";
import {
  invalidParams,
  LIST_FLAGS,
  notStrings,
  NOTIFICATIONS_REQUIRED,
  serveListenCall,
  tasksUndeclared,
  type Checked,
  type CheckedListen,
  type ListenFeatures,
  type ListenRequest,
} from "./listen-request";

/**
 * The lane of an edge whose features name no hub: the filter's shape checked, then the acknowledged
 * empty set, so a client knows the stream ended on purpose; task ids, which need the hub, are a misconfiguration.
 */
export function listenWithoutHubLane<Env>(call: StreamCall<Env>): Promise<Response> {
  return serveListenCall(call, { check: checkFilterShape, open: openWithoutHub });
}

/**
 * A listen's filter as a stream that honours nothing checks it: an object, its flags booleans, its
 * lists arrays of strings. Task ids are kept (to be refused as needing the hub) only when the server
 * serves the tasks extension and the client declared it; the rest of the filter is honoured by nobody.
 */
function checkFilterShape<Env>(listen: ListenRequest<Env>, features: ListenFeatures): Checked {
  const { id, params } = listen.message;
  const requested = params?.notifications;
  if (!isObject(requested)) return invalidParams(id, NOTIFICATIONS_REQUIRED);
  for (const [flag] of LIST_FLAGS) {
    const value = requested[flag];
    if (value !== undefined && typeof value !== "boolean") return invalidParams(id, `notifications.${flag} must be a boolean`);
  }
  for (const field of ["resourceSubscriptions", "taskIds"]) {
    const wrong = requested[field] === undefined ? undefined : notStrings(requested[field], field);
    if (wrong) return invalidParams(id, wrong);
  }
  const taskIds = (requested.taskIds ?? []) as string[];
  if (taskIds.length === 0 || !features.tasks) return { ok: true, filter: {} };
  return tasksUndeclared(id, listen.clientCapabilities) ?? { ok: true, filter: { taskIds } };
}

async function openWithoutHub<Env extends EdgeEnv>({ listen, filter }: CheckedListen<Env>): Promise<Response> {
  if ((filter.taskIds?.length ?? 0) > 0) throw hubNotServed(listen.env, "subscriptions/listen with notifications.taskIds");
  return emptyListen(listen.message.id, { ...listen.runtime.server.identity });
}

/** Whether this listen can be answered without the hub: the Worker has none, and the filter names no task. */
export function listenWithoutHub(env: unknown, filter: ListenFilter): boolean {
  if (hubBound(env)) return false;
  return (filter.taskIds?.length ?? 0) === 0;
}

/** The whole stream of a listen that can deliver nothing: acknowledged with `{}`, then complete. */
export function emptyListen(id: RequestId, serverInfo: Record<string, unknown>): Response {
  const acknowledged = {
    jsonrpc: "2.0",
    method: "notifications/subscriptions/acknowledged",
    params: { _meta: { [SUBSCRIPTION_ID_KEY]: id }, notifications: {} },
  };
  const complete = listenCompleteResult(id, serverInfo);
  const frames = [encodeSseEvent(JSON.stringify(acknowledged)), encodeSseEvent(JSON.stringify(complete))];
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const frame of frames) controller.enqueue(frame);
      controller.close();
    },
  });
  return sseResponse(body, { "X-Accel-Buffering": "no" });
}
