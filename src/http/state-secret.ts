/**
 * `MCP_STATE_SECRET` as the Worker reads it, and the one warning when it cannot be used: it signs
 * 2026-07-28 MRTR `requestState`, and with deferredSessions() it seals deferred session ids.
 */
import { secretProblem, STATE_SECRET_BINDING } from "../mcp/era-2026/request-state";
import type { EdgeRuntime } from "./runtime";

export function secretOf(env: unknown): unknown {
  return (env as Record<string, unknown>)[STATE_SECRET_BINDING];
}

const warned = new WeakSet<object>();

/**
 * Once per server and isolate, in `wrangler dev` output and the Worker's logs, at the first request
 * that needs the secret (a 2026-07-28 request, or a 2025 `initialize` with deferred sessions): what
 * fails or falls back without it, and how to set it.
 */
export function warnIfNoStateSecret<Env>(runtime: EdgeRuntime<Env>, env: unknown): void {
  if (warned.has(runtime)) return;
  const problem = secretProblem(secretOf(env));
  if (!problem) return;
  warned.add(runtime);
  const asks = "2026-07-28 tools, prompts and reads that ask the client for input will fail";
  const deferred = "deferred sessions (deferredSessions()) fall back to an object made at every initialize, as with sessions()";
  console.warn(`mcp-edge: ${runtime.kernel.seams.sealer ? `${asks}, and ${deferred}` : asks}: ${problem}`);
}
