/**
 * `sessions()`: 2025-era sessions (initialize, the SSE streams and their event log) as a feature: the
 * session object class, `export const { McpSession } = edge.objects` (bound as MCP_SESSION).
 * `deferredSessions()` (deferred-sessions.ts) is the same feature whose sessions get their object when
 * they first need state; the 2024-11-05 HTTP+SSE transport is a feature of its own beside either,
 * `legacySse()` (legacy-sse.ts). Each is its own factory, so a Worker bundles only the one it passes.
 */
import { CORE_OPTIONS, type Feature } from "../../kernel/feature";
import type { SessionOptions } from "../../kernel/options";
import { sessionClass } from "../../../durable-objects/sessions/classes";
import { sessionCoreOptions } from "./session-options";

/** The options of `sessions()` and `deferredSessions()`: the session settings (docs/configuration.md). */
export type SessionsOptions = SessionOptions;

/** Session mode: a Durable Object per 2025-era session, made at `initialize`. Without this feature the edge is stateless. */
export function sessions<Env = unknown>(options: SessionsOptions = {}): Feature<Env> {
  refuseDeferredOption(options);
  return {
    name: "sessions",
    bindings: { MCP_SESSION: "McpSession" },
    objects: (kernel) => ({ McpSession: sessionClass(kernel) }),
    [CORE_OPTIONS]: sessionCoreOptions(options),
  };
}

/**
 * `deferredSessions()` became its own factory, so that a Worker without deferred sessions
 * bundles none of their code: a TypeError naming it, rather than sessions made at `initialize` unasked.
 */
function refuseDeferredOption(options: SessionOptions): void {
  if (!Object.hasOwn(options, "deferred")) return;
  throw new TypeError(
    'mcp-edge sessions({ deferred }): deferred sessions are their own feature: import { deferredSessions } from "mcp-edge/sessions" and pass deferredSessions({ … }) (the same session options) in place of sessions(…)',
  );
}

export { deferredSessions } from "./deferred-sessions";
export { legacySse, type LegacySseOptions } from "./legacy-sse";
