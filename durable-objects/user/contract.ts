/**
 * The contract between Workers (and other objects) and a principal's store (McpUser): one object
 * per principal subject, addressed by name (`idFromName("user:" + subject)`), and the calls it
 * answers over Workers RPC. Both sides import this file; neither imports the other.
 */

/** One step of a transaction: all of them apply, or (a `check` failed) none. */
export type UserOp =
  | { put: string; value: unknown }
  | { delete: string }
  /** The key's value must equal `equals` (compared as JSON; `undefined`: the key must be absent). */
  | { check: string; equals: unknown };

export interface UserListOptions {
  /** Only keys that start with this. */
  prefix?: string;
  /** Keys from this one on (inclusive), in key order. */
  start?: string;
  /** At most this many entries (default and most: 1,000). */
  limit?: number;
}

/** What the Worker, the session object and task runs call on a principal's object. */
export interface UserRpc extends Rpc.DurableObjectBranded {
  get(key: string): Promise<unknown>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<boolean>;
  list(options: UserListOptions): Promise<[string, unknown][]>;
  transaction(ops: UserOp[]): Promise<boolean>;
}

/** The object of a principal. A name, not a minted id: every Worker must find the same object. */
export function userObjectId(namespace: { idFromName(name: string): DurableObjectId }, subject: string): DurableObjectId {
  return namespace.idFromName("user:" + subject);
}

export const MAX_USER_LIST = 1000;
