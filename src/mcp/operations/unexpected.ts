/**
 * Failures the author did not mean for the client (docs/operating.md "Errors: `server.onError`"): an exception
 * from a handler, a platform limit, a bug. The client gets a generic answer carrying a short
 * correlation id; the message and stack go to console.error with the same id, never to the wire.
 */

import type { ErrorHook, McpCall } from "../definition/context";

/** Who else hears of it: the server's `onError` hook, with the call that failed when there is one. */
export interface ErrorListener<Env = unknown> {
  hook: ErrorHook<Env> | undefined;
  call?: McpCall<Env>;
}

/** Logs an unexpected failure, tells the server's `onError` hook, and returns the reference to show the client instead of its text. */
export function reportUnexpected<Env>(what: string, error: unknown, listener?: ErrorListener<Env>): string {
  const reference = crypto.randomUUID().slice(0, 8);
  console.error(`mcp-edge: ${what} failed unexpectedly (reference ${reference}):`, error);
  const hook = listener?.hook;
  if (hook) {
    // The hook's own failure is logged, never thrown into the request it reports on.
    const hookFailed = (e: unknown) => console.error(`mcp-edge: the onError hook failed on reference ${reference}:`, e);
    try {
      void Promise.resolve(hook({ error, reference, what, call: listener.call })).catch(hookFailed);
    } catch (e) {
      hookFailed(e);
    }
  }
  return reference;
}
