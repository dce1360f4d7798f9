/**
 * Where a handler's `ctx.user` comes from: createMcpEdge installs the principal's store
 * (src/user.ts: one McpUser object per subject), so the core names only what a handler sees and
 * reaches no binding and no object.
 */
import type { Principal } from "../../auth/principal";

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

/** What a handler keeps for its user: get/put/delete/list by key, and all-or-nothing transactions. */
export interface UserStore {
  /** The principal's subject; throws for an anonymous request, as every method does. */
  readonly subject: string;
  get<T = unknown>(key: string): Promise<T | undefined>;
  /** Stores any structured-cloneable value (SQLite-backed: at most 2 MB a value, 2 KiB a key). */
  put(key: string, value: unknown): Promise<void>;
  /** Whether the key existed. */
  delete(key: string): Promise<boolean>;
  /** Entries in key order: `prefix`, `start` (inclusive), `limit` (default and most 1,000). */
  list<T = unknown>(options?: UserListOptions): Promise<Map<string, T>>;
  /**
   * Applies the puts and deletes all at once, or none when a `{ check, equals }` step finds
   * another value (returns false): read, compute, then write only if nothing changed meanwhile.
   */
  transaction(ops: UserOp[]): Promise<boolean>;
}

/** The store of a request's principal; building one contacts nothing. */
export type UserStores = (env: unknown, principal: Pick<Principal, "subject"> | undefined) => UserStore;

let installed: UserStores | undefined;

/** createMcpEdge's: every server in the isolate serves `ctx.user` the same way. */
export function installUserStores(stores: UserStores): void {
  installed = stores;
}

/** `ctx.user` of a request; without createMcpEdge in the isolate, a store whose every use throws. */
export function userStoreOf(env: unknown, principal: Pick<Principal, "subject"> | undefined): UserStore {
  return installed ? installed(env, principal) : UNSERVED;
}

/** Every use throws: a store only createMcpEdge's installed stores can serve. */
const UNSERVED: UserStore = new Proxy({} as UserStore, {
  get() {
    throw new TypeError("mcp-edge ctx.user is served by createMcpEdge, and none ran in this isolate");
  },
});
