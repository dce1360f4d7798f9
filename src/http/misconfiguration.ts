/**
 * Deployment mistakes caught at the first request, before any MCP work: each one answers 500
 * with a message naming the fix (the wrangler.toml lines to add), and is logged once per
 * isolate, so neither the developer nor the client is left with a bare "Internal error".
 */
import { INTERNAL_ERROR } from "../jsonrpc/errors";
import type { EdgeEnv } from "../env";
import { json } from "./respond";

/** The lines a Worker serving sessions needs in wrangler.toml. */
export const SESSION_BINDING_TOML = [
  "[[durable_objects.bindings]]",
  'name = "MCP_SESSION"',
  'class_name = "McpSession"',
  "",
  "[[migrations]]",
  'tag = "v1"',
  'new_sqlite_classes = ["McpSession"]',
].join("\n");

const SESSION_BINDING_FIX =
  "Server misconfigured: session mode needs the MCP_SESSION Durable Object binding. Add to wrangler.toml:\n\n" +
  SESSION_BINDING_TOML +
  '\n\nand export the class from the Worker entry: export const McpSession = edge.SessionObject; (or pass { sessions: false } to createMcpEdge).';

function isNamespace(value: unknown): boolean {
  return typeof value === "object" && value !== null && typeof (value as { idFromString?: unknown }).idFromString === "function";
}

let logged = false;

/** The misconfiguration response for a session-mode route, or undefined when the env is complete. */
export function checkSessionBinding(env: EdgeEnv): Response | undefined {
  if (isNamespace(env.MCP_SESSION)) return undefined;
  if (!logged) {
    logged = true;
    console.error(`mcp-edge: ${SESSION_BINDING_FIX}`);
  }
  return json({ jsonrpc: "2.0", id: null, error: { code: INTERNAL_ERROR, message: SESSION_BINDING_FIX, data: { missingBinding: "MCP_SESSION", wranglerToml: SESSION_BINDING_TOML } } }, 500);
}
