/**
 * The contract between Workers (and other objects) and a principal's store (McpUser): one object
 * per principal subject, addressed by name (`idFromName("user:" + subject)`), and the calls it
 * answers over Workers RPC (the object's id: src/platform/addresses.ts). Both sides import this
 * file; neither imports the other.
 */
import type { UserListOptions, UserOp } from "../../src/mcp/definition/context";
import type { TokenEndpoint, UpstreamGrant } from "../../src/platform/upstream-token";

export type { UserListOptions, UserOp, UpstreamGrant };

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

/** How a grant is sealed: under a key derived from `secret` (the server's) for this principal. */
export interface UpstreamSealing {
  subject: string;
  secret: string;
}

/** What the object needs to hand out a fresh token: the sealing, the token endpoint, how early to refresh. */
export interface UpstreamPlan extends UpstreamSealing, TokenEndpoint {
  /** Refresh when the token expires within this many seconds. */
  refreshBeforeSeconds: number;
  /** An access token the upstream API just refused (401): refresh unless the stored one is already another. */
  rejected?: string;
}

/**
 * A fresh upstream access token, or why there is none: `none` (never signed in), `revoked` (the
 * upstream refused the refresh token: the grant is deleted), `expired` (no refresh token),
 * `unreadable` (sealed under another secret), `unavailable` (the upstream failed; kept, retry later).
 */
export type UpstreamAccess =
  | { ok: true; accessToken: string; expiresAt?: number; refreshed?: boolean }
  | { ok: false; reason: "none" | "revoked" | "expired" | "unreadable" }
  | { ok: false; reason: "unavailable"; detail: string };
