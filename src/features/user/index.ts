/**
 * `user()`: `ctx.user`, state that belongs to the authenticated principal, as a feature: one McpUser
 * object per principal subject (`export const { McpUser } = edge.objects`, bound as MCP_USER),
 * reached from the Worker, the session object and task runs alike. Upstream grants live there too.
 */
import type { Feature } from "../../kernel/feature";
import { userStore } from "../../user";
import { McpUser } from "../../../durable-objects/user/mcp-user";

/** `ctx.user` for every request with a principal. */
export function user<Env = unknown>(): Feature<Env> {
  return {
    name: "user",
    bindings: { MCP_USER: "McpUser" },
    seams: { users: userStore },
    objects: () => ({ McpUser }),
  };
}
