/**
 * Where a handler's `ctx.user` comes from: the stores the edge serving the server filled in (its
 * kernel's `users` seam: the `user()` feature), so the core names only what a handler sees and
 * reaches no binding and no object.
 */
import type { Principal } from "../definition/principal";
import type { UserStore, UserStores } from "../definition/context";

/** `ctx.user` of a request; without stores (no `user()` feature), a store whose every use throws. */
export function userStoreOf(stores: UserStores | undefined, env: unknown, principal: Pick<Principal, "subject"> | undefined): UserStore {
  return stores ? stores(env, principal) : UNSERVED;
}

function unserved(): TypeError {
  return new TypeError(
    "mcp-edge ctx.user is served by the user() feature: createMcpEdge(server, { features: [..., user()] }) and export const { McpUser } = edge.objects",
  );
}

/**
 * `ctx.user` where the edge serves none: reading `subject` throws and every method rejects, naming the
 * feature to add; the value itself is inert, so logging or serialising the context does not throw.
 */
class UnservedUserStore implements UserStore {
  get subject(): string {
    throw unserved();
  }
  get(): Promise<never> {
    return Promise.reject(unserved());
  }
  put(): Promise<never> {
    return Promise.reject(unserved());
  }
  delete(): Promise<never> {
    return Promise.reject(unserved());
  }
  list(): Promise<never> {
    return Promise.reject(unserved());
  }
  transaction(): Promise<never> {
    return Promise.reject(unserved());
  }
  toJSON(): string {
    return "[ctx.user: not served (no user() feature)]";
  }
}

const UNSERVED: UserStore = new UnservedUserStore();
