/**
 * The deprecated `userObject(edge)` of a project written before features: the principal's store class,
 * and `ctx.user` for that edge (its kernel's `users` seam), as `user()` would give it. An edge whose
 * McpUser is not made here serves no `ctx.user` and bundles none of the store.
 */
import { McpUser } from "../../../durable-objects/user/mcp-user";
import { bindingOf, type BoundEdge } from "../../../durable-objects/shared/edge-binding";
import { userStore } from "./user-store";

/**
 * @deprecated Pass `user()` in createMcpEdge's `features` and export `edge.objects.McpUser`; this
 * factory goes in the next minor release. A principal's store needs nothing of the server, so this is
 * the class itself; it fills the edge's `ctx.user` when no feature serves it.
 */
export function userObject<Env>(edge: BoundEdge<Env>): typeof McpUser {
  bindingOf(edge, "userObject").seams.users ??= userStore;
  return McpUser;
}
