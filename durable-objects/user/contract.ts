/**
 * The contract between Workers (and other objects) and a principal's store (McpUser): one object
 * per principal subject, addressed by name (`idFromName("user:" + subject)`), and the calls it
 * answers over Workers RPC (the object's id: src/platform/addresses.ts). Both sides import this
 * file; neither imports the other.
 */
import type { UserListOptions, UserOp } from "../../src/mcp/definition/context";
import type { UpstreamAccess, UpstreamGrant, UpstreamPlan, UpstreamSealing } from "../../src/platform/upstream-token";

export type { UserListOptions, UserOp, UpstreamAccess, UpstreamGrant, UpstreamPlan, UpstreamSealing };

/** What the Worker, the session object and task runs call on a principal's object. */
export interface UserRpc extends Rpc.DurableObjectBranded {
  get(key: string): Promise<unknown>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<boolean>;
  list(options: UserListOptions): Promise<[string, unknown][]>;
  transaction(ops: UserOp[]): Promise<boolean>;
  /** Stores the principal's grant at upstream `name`, sealed (replacing any earlier one). */
  saveUpstreamGrant(name: string, grant: UpstreamGrant, sealing: UpstreamSealing): Promise<void>;
  /** A fresh access token for upstream `name`, refreshed first (once for all concurrent callers) when it is about to expire. */
  upstreamAccess(name: string, plan: UpstreamPlan): Promise<UpstreamAccess>;
  /** Forgets the grant at upstream `name`; whether there was one. */
  dropUpstreamGrant(name: string): Promise<boolean>;
}

export const MAX_USER_LIST = 1000;
