/**
 * Mcp-Session-Id values. A session id is the string form of its Durable Object's id, which
 * the namespace minted: 64 lower-case hex characters (visible ASCII, as 2025-06-18 requires).
 * A value that is not of that shape is refused without touching any object; one that is but
 * was not minted by this namespace makes `idFromString` throw, also without waking an object.
 */

const SESSION_ID_PATTERN = /^[0-9a-f]{64}$/;

export function isWellFormedSessionId(value: string): boolean {
  return SESSION_ID_PATTERN.test(value);
}

/** The object id for a session id, or undefined when the id is malformed or forged. */
export function sessionObjectId(namespace: { idFromString(id: string): DurableObjectId }, value: string): DurableObjectId | undefined {
  if (!isWellFormedSessionId(value)) return undefined;
  try {
    return namespace.idFromString(value);
  } catch {
    return undefined;
  }
}
