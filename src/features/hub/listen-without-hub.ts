/**
 * `subscriptions/listen` on a deployment without the hub (no MCP_HUB binding, as the project
 * `npm create mcp-edge` writes): its server/discover declares no resource subscriptions and no
 * list changes (handlers/discover.ts), so a listen honours none of them, and without task ids
 * there is nothing the stream could ever carry. Such a listen is answered here, in the Worker:
 * the acknowledgement of the subset honoured (the empty set), then the listen request's
 * `complete` result (subscriptions.mdx "Graceful Closure"), so a client knows the stream ended on
 * purpose and has no reason to reopen it. Task ids still need the hub (their status comes from it).
 */
import { listenCompleteResult, SUBSCRIPTION_ID_KEY, type ListenFilter } from "../../../durable-objects/hub/contract";
import type { RequestId } from "../../jsonrpc/messages";
import { encodeSseEvent, sseResponse } from "../../wire/sse";

/** Whether this listen can be answered without the hub: the Worker has none, and the filter names no task. */
export function listenWithoutHub(env: unknown, filter: ListenFilter): boolean {
  const hub = (env as { MCP_HUB?: unknown } | undefined)?.MCP_HUB;
  if (typeof hub === "object" && hub !== null) return false;
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
