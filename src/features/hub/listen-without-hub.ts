/**
 * `subscriptions/listen` on a deployment without the hub (no MCP_HUB binding, as the project
 * `npm create mcp-edge` writes): its server/discover declares no resource subscriptions and no
 * list changes (handlers/discover.ts), so a listen honours none of them, and without task ids
 * there is nothing the stream could ever carry. Such a listen is answered here, in the Worker:
 * the acknowledgement of the subset honoured (the empty set), then the listen request's
 * `complete` result (subscriptions.mdx "Graceful Closure"), so a client knows the stream ended on
 * purpose and has no reason to reopen it. Task ids still need the hub (their status comes from it).
 * An edge whose features name no hub answers every listen so (listenWithoutHubLane), after the same
 * checks as the hub's lane (listen-request.ts), and bundles nothing of the hub's stream (listen.ts).
 */
import { hubBound } from "../../mcp/handlers/discover";
import { listenCompleteResult, SUBSCRIPTION_ID_KEY, type ListenFilter } from "../../../durable-objects/hub/contract";
import type { StreamCall } from "../../kernel/feature";
import type { EdgeEnv } from "../../kernel/env";
import type { RequestId } from "../../jsonrpc/messages";
import { hubNotServed } from "../../platform/bindings";
import { encodeSseEvent, sseResponse } from "../../wire/sse";
import { serveListenCall, type CheckedListen } from "./listen-request";

/**
 * The lane of an edge whose features name no hub: the same checks as the hub's, then the acknowledged
 * empty set, so a client knows the stream ended on purpose; task ids, which need the hub, are a misconfiguration.
 */
export function listenWithoutHubLane<Env>(call: StreamCall<Env>): Promise<Response> {
  return serveListenCall(call, openWithoutHub);
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
