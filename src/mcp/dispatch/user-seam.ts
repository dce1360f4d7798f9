/**
 * Where a handler's `ctx.user` comes from: createMcpEdge installs the principal's store
 * (src/user.ts: one McpUser object per subject), so the core names only what a handler sees and
 * reaches no binding and no object.
 */
import type { Principal } from "../definition/principal";
import type { UserStore } from "../definition/context";

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
