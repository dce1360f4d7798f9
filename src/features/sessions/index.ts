/**
 * `sessions()`: 2025-era sessions (initialize, the SSE streams and their event log) as a feature: the session object class, `export const { McpSession } = edge.objects`
 * (bound as MCP_SESSION). With `deferred: true` a session's object is made when it first needs state.
 * The 2024-11-05 HTTP+SSE transport is a feature of its own beside it, `legacySse()` (legacy-sse.ts).
 */
import { CORE_OPTIONS, type Feature } from "../../kernel/feature";
import type { SessionOptions } from "../../kernel/options";
import { sessionClass } from "../../../durable-objects/sessions/classes";
import { deferredSessionClass, SESSION_SEALER } from "../../../durable-objects/sessions/deferred";

export interface SessionsOptions extends SessionOptions {
  /**
   * Deferred sessions: `initialize` mints a sealed id and makes no object; the object is made when
   * the session first needs state (needs `MCP_STATE_SECRET`; without it every session gets its object
   * at `initialize`). Default false. docs/sessions.md "When a session gets its object".
   */
  deferred?: boolean;
}

/** Session mode: a Durable Object per 2025-era session. Without this feature the edge is stateless. */
export function sessions<Env = unknown>(options: SessionsOptions = {}): Feature<Env> {
  const { deferred = false, ...session } = options;
  return {
    name: "sessions",
    bindings: { MCP_SESSION: "McpSession" },
    seams: deferred ? { sealer: SESSION_SEALER } : {},
    objects: (kernel) => ({ McpSession: deferred ? deferredSessionClass(kernel) : sessionClass(kernel) }),
    [CORE_OPTIONS]: Object.keys(session).length > 0 ? { session } : {},
  };
}

export { legacySse, type LegacySseOptions } from "./legacy-sse";
