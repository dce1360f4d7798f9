/**
 * McpUser: the store of one principal (`ctx.user`), one object per principal subject, so what a
 * user's tools keep outlives sessions (2026-07-28 has none; many 2025 clients open one per call).
 * SQLite-backed key-value storage; each call is atomic, and `transaction` applies a list of puts
 * and deletes all at once, or none when a `check` fails (compare-and-set). Its upstream grants
 * (sealed, refreshed once for all callers: upstream-grants.ts) live in a table of their own. Made
 * by the object kit (durable-objects/kit/edge-object.ts), like every object class.
 */
import {
  MAX_USER_LIST,
  type UpstreamAccess,
  type UpstreamGrant,
  type UpstreamPlan,
  type UpstreamSealing,
  type UserListOptions,
  type UserOp,
  type UserRpc,
} from "./contract";
import { UpstreamGrants } from "./upstream-grants";
import { EdgeObject } from "../kit/edge-object";

export class McpUser extends EdgeObject<unknown> implements UserRpc {
  readonly #upstream: UpstreamGrants;

  /** A principal's store needs nothing of the server it serves: the class is bound to no edge, and reports nothing of its own. */
  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env, undefined, { rows: "events" });
    this.#upstream = new UpstreamGrants(this.storage.sql);
  }

  async get(key: string): Promise<unknown> {
    return this.storage.kv.get(key);
  }

  async put(key: string, value: unknown): Promise<void> {
    this.storage.kv.put(key, value);
  }

  async delete(key: string): Promise<boolean> {
    return this.storage.kv.delete(key);
  }

  async list(options: UserListOptions): Promise<[string, unknown][]> {
    const limit = Math.min(Math.max(1, Math.floor(options.limit ?? MAX_USER_LIST)), MAX_USER_LIST);
    const query: { prefix?: string; start?: string; limit: number } = { limit };
    if (options.prefix !== undefined) query.prefix = options.prefix;
    if (options.start !== undefined) query.start = options.start;
    return [...this.storage.kv.list(query)];
  }

  /** Applies every put and delete, or none when a check fails (then false). */
  async transaction(ops: UserOp[]): Promise<boolean> {
    const kv = this.storage.kv;
    return this.storage.transactionSync(() => {
      for (const op of ops) {
        if ("check" in op && JSON.stringify(kv.get(op.check)) !== JSON.stringify(op.equals)) return false;
      }
      for (const op of ops) {
        if ("put" in op) kv.put(op.put, op.value);
        else if ("delete" in op) kv.delete(op.delete);
      }
      return true;
    });
  }

  async saveUpstreamGrant(name: string, grant: UpstreamGrant, sealing: UpstreamSealing): Promise<void> {
    await this.#upstream.save(name, grant, sealing);
  }

  async upstreamAccess(name: string, plan: UpstreamPlan): Promise<UpstreamAccess> {
    return this.#upstream.access(name, plan);
  }

  async dropUpstreamGrant(name: string): Promise<boolean> {
    return this.#upstream.drop(name);
  }
}
