/**
 * The contract between Workers (and other objects) and a principal's store (McpUser): one object
 * per principal subject, addressed by name (`idFromName("user:" + subject)`), and the calls it
 * answers over Workers RPC (the object's id: src/platform/addresses.ts). Both sides import this
 * file; neither imports the other.
 */
import type { UserListOptions, UserOp } from "../../src/mcp/definition/context";

export type { UserListOptions, UserOp };

/** What the Worker, the session object and task runs call on a principal's object. */
export interface UserRpc extends Rpc.DurableObjectBranded {
  get(key: string): Promise<unknown>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<boolean>;
  list(options: UserListOptions): Promise<[string, unknown][]>;
  transaction(ops: UserOp[]): Promise<boolean>;
}

export const MAX_USER_LIST = 1000;
