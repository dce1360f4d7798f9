/**
 * Deployment mistakes caught at the first request that needs the missing piece, before any MCP
 * work: each one answers 500 with a message naming the fix (the wrangler.toml lines to add) and
 * is logged once per isolate, so neither the developer nor the client is left with a bare
 * "Internal error". Requests that need no session (2026-07-28, stateless) are not affected.
 */
import type { Refusal } from "../wire/refusals";

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
  "\n\nand export the class from the Worker entry: export const McpSession = edge.SessionObject; (or pass { sessions: false } to createMcpEdge).";

/** Thrown where a binding is needed and absent; the router answers it with its refusal. */
export class MisconfiguredError extends Error {
  constructor(readonly refusal: Refusal & { reason: "misconfigured" }) {
    super(refusal.message);
    this.name = "MisconfiguredError";
  }
}

let logged = false;

function isNamespace(value: unknown): boolean {
  return typeof value === "object" && value !== null && typeof (value as { idFromString?: unknown }).idFromString === "function";
}

/** The session namespace, or a MisconfiguredError naming the wrangler.toml lines to add. */
export function requireSessionNamespace<N>(value: N | undefined): N {
  if (isNamespace(value)) return value as N;
  if (!logged) {
    logged = true;
    console.error(`mcp-edge: ${SESSION_BINDING_FIX}`);
  }
  throw new MisconfiguredError({
    reason: "misconfigured",
    message: SESSION_BINDING_FIX,
    data: { missingBinding: "MCP_SESSION", wranglerToml: SESSION_BINDING_TOML },
  });
}
