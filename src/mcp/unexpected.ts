/**
 * Failures the author did not mean for the client (STYLE.md "Exposure policy"): an exception
 * from a handler, a platform limit, a bug. The client gets a generic answer carrying a short
 * correlation id; the message and stack go to console.error with the same id, never to the wire.
 */

/** Logs an unexpected failure and returns the reference to show the client instead of its text. */
export function reportUnexpected(what: string, error: unknown): string {
  const reference = crypto.randomUUID().slice(0, 8);
  console.error(`mcp-edge: ${what} failed unexpectedly (reference ${reference}):`, error);
  return reference;
}
