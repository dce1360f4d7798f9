/**
 * `ctx.user`: state that belongs to the authenticated principal, not to a session. One McpUser
 * object per principal subject (durable-objects/user/), reached from the Worker, the session
 * object and task runs alike; the same calls in both eras. Nothing is contacted until a method
 * is called, so a handler that never uses it costs nothing. Anonymous requests are refused: a
 * store shared by everyone without a token would be nobody's.
 */
import type { UserRpc } from "../../../durable-objects/user/contract";
import type { Principal } from "../../auth/principal";
import { INVALID_REQUEST, RpcError } from "../../jsonrpc/errors";
import type { UserListOptions, UserOp, UserStore } from "../../mcp/definition/context";
import { userObjectId } from "../../platform/addresses";
import { requireNamespace, USER_BINDING } from "../../platform/bindings";

export type { UserListOptions, UserOp, UserStore };

/** The store of the request's principal; every call throws (clearly) without one or without the binding. */
export function userStore(env: unknown, principal: Pick<Principal, "subject"> | undefined): UserStore {
  return new PrincipalStore(env, principal);
}

/** One per handler context: docs/engine-notes.md "Classes for what a request builds". */
class PrincipalStore implements UserStore {
  #stub: DurableObjectStub<UserRpc> | undefined;

  constructor(
    private readonly env: unknown,
    private readonly principal: Pick<Principal, "subject"> | undefined,
  ) {}

  get subject(): string {
    if (!this.principal)
      throw new RpcError(
        INVALID_REQUEST,
        'ctx.user needs an authenticated user, and this request has no principal: without the auth() feature (mcp-edge/auth) no access token is verified (an Authorization header is not read). Pass auth({ … }) in features; for tests and wrangler dev, testAuth() from mcp-edge/testing (docs/auth.md "A principal for local tests")',
      );
    return this.principal.subject;
  }

  private object(): DurableObjectStub<UserRpc> {
    if (this.#stub) return this.#stub;
    const who = this.subject;
    // A missing binding, or one without its migration, is an error naming the wrangler.toml lines to add.
    const namespace = requireNamespace<DurableObjectNamespace<UserRpc>>(this.env, USER_BINDING, "ctx.user");
    this.#stub = namespace.get(userObjectId(namespace, who));
    return this.#stub;
  }

  async get<T>(key: string): Promise<T | undefined> {
    return (await this.object().get(checkKey(key))) as T | undefined;
  }

  async put(key: string, value: unknown): Promise<void> {
    await this.object().put(checkKey(key), value);
  }

  async delete(key: string): Promise<boolean> {
    return this.object().delete(checkKey(key));
  }

  async list<T>(options: UserListOptions = {}): Promise<Map<string, T>> {
    return new Map((await this.object().list(options)) as [string, T][]);
  }

  async transaction(ops: UserOp[]): Promise<boolean> {
    if (!Array.isArray(ops))
      throw new TypeError("mcp-edge ctx.user.transaction takes an array of { put, value }, { delete } and { check, equals }");
    for (const op of ops) checkKey("put" in op ? op.put : "delete" in op ? op.delete : op.check);
    return this.object().transaction(ops);
  }
}

function checkKey(key: string): string {
  if (typeof key !== "string" || key.length === 0) throw new TypeError("mcp-edge ctx.user: a key is a non-empty string");
  return key;
}
