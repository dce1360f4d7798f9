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

/** Every use throws: the edge serves no `ctx.user`. */
const UNSERVED: UserStore = new Proxy({} as UserStore, {
  get() {
    throw new TypeError(
      "mcp-edge ctx.user is served by the user() feature: createMcpEdge(server, { features: [..., user()] }) and export const { McpUser } = edge.objects",
    );
  },
});
