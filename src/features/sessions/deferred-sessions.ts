/**
 * `deferredSessions()`: the sessions feature whose 2025-era sessions get their Durable Object when they
 * first need state, not at `initialize` (durable-objects/sessions/deferred.ts;
 * docs/sessions.md "When a session gets its object"). `initialize` mints a sealed id under `MCP_STATE_SECRET` (without the secret
 * every session gets its object at `initialize`, as with `sessions()`). The same session options as `sessions()`.
 */
import { CORE_OPTIONS, type Feature } from "../../kernel/feature";
import type { SessionOptions } from "../../kernel/options";
import { deferredSessionClass, SESSION_SEALER } from "../../../durable-objects/sessions/deferred";
import { sessionCoreOptions } from "./session-options";

/** Session mode with deferred session objects: `export const { McpSession } = edge.objects`, bound as MCP_SESSION. */
export function deferredSessions<Env = unknown>(options: SessionOptions = {}): Feature<Env> {
  return {
    name: "sessions",
    bindings: { MCP_SESSION: "McpSession" },
    seams: { sealer: SESSION_SEALER },
    objects: (kernel) => ({ McpSession: deferredSessionClass(kernel) }),
    [CORE_OPTIONS]: sessionCoreOptions(options),
  };
}
