/**
 * Which messages need the session object. Simple requests are answered where they arrive
 * (the Worker); interactive tool calls, session-state changes, the client's responses to server
 * requests and notifications go to the session, except `notifications/initialized`: it changes
 * nothing there and follows `initialize` at once, so the Worker answers it 202 without a Durable
 * Object request. Other notifications keep reaching the object, so a notification on an ended
 * session still gets its 404.
 */
import type { Message } from "../../jsonrpc/messages";
import type { McpServer } from "../definition/server";

const SESSION_METHODS = new Set(["logging/setLevel", "resources/subscribe", "resources/unsubscribe"]);

/**
 * A tools/call of an interactive tool, a prompts/get of an interactive prompt, a read of an interactive
 * resource, a request for an interactive method of the server's own (defineInteractiveMethod): it needs a channel.
 */
export function isInteractiveCall<Env>(message: Message, server: McpServer<Env>): boolean {
  if (message.kind !== "request") return false;
  if (message.method === "resources/read") {
    const uri = message.params?.uri;
    return typeof uri === "string" && server.resources.get(uri)?.interactive === true;
  }
  const own = server.methods.size > 0 ? server.methods.get(message.method) : undefined;
  if (own) return own.interactive;
  const name = message.params?.name;
  if (typeof name !== "string") return false;
  if (message.method === "tools/call") return server.tools.get(name)?.interactive === true;
  if (message.method === "prompts/get") return server.prompts.get(name)?.interactive === true;
  return false;
}

export function needsSession<Env>(message: Message, server: McpServer<Env>): boolean {
  if (message.kind === "notification") return message.method !== "notifications/initialized";
  if (message.kind !== "request") return true;
  return SESSION_METHODS.has(message.method) || isInteractiveCall(message, server);
}
