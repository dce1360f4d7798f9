/**
 * `subscriptions/listen` on a server with nothing a listen could ever deliver (no listChanged
 * lists, no resources to subscribe to, no tasks): the hub is not needed at all, so no MCP_HUB
 * binding either. The stream is answered here, in the Worker: the acknowledgement of the subset
 * honoured (the empty set), then the listen request's `complete` result (subscriptions.mdx
 * "Graceful Closure"), so a client knows the stream ended on purpose and has no reason to reopen it.
 */
import { SERVER_INFO_KEY, SUBSCRIPTION_ID_KEY } from "../../durable-objects/hub/contract";
import type { RequestId } from "../jsonrpc/messages";
import type { McpServer } from "../mcp/server";
import { encodeSseEvent, sseResponse } from "../wire/sse";

/** Whether a listen on this server could ever carry a notification (and so needs the hub). */
export function listenNeedsHub<Env>(server: McpServer<Env>, tasks: boolean): boolean {
  if (tasks) return true;
  const resources = server.resources.size > 0 || server.templates.length > 0;
  // Resource subscriptions are honoured for any server with resources; list changes only with listChanged.
  if (resources) return true;
  return server.listChanged === true && (server.tools.size > 0 || server.prompts.size > 0);
}

/** The whole stream of a listen that can deliver nothing: acknowledged with `{}`, then complete. */
export function emptyListen(id: RequestId, serverInfo: Record<string, unknown>): Response {
  const acknowledged = {
    jsonrpc: "2.0",
    method: "notifications/subscriptions/acknowledged",
    params: { _meta: { [SUBSCRIPTION_ID_KEY]: id }, notifications: {} },
  };
  const complete = {
    jsonrpc: "2.0",
    id,
    result: { resultType: "complete", _meta: { [SUBSCRIPTION_ID_KEY]: id, [SERVER_INFO_KEY]: serverInfo } },
  };
  const frames = [encodeSseEvent(JSON.stringify(acknowledged)), encodeSseEvent(JSON.stringify(complete))];
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const frame of frames) controller.enqueue(frame);
      controller.close();
    },
  });
  return sseResponse(body, { "X-Accel-Buffering": "no" });
}
