/** Sessions + the user store: a tool reads the caller's own record (`ctx.user`). */
import { sessions } from "../../src/features/sessions/index";
import { user } from "../../src/features/user/index";
import { createMcpEdge, text } from "../../src/index";
import { server } from "./one-tool";

server.tool("seen", { description: "How often this user called" }, async (_args, ctx) => {
  const count = Number((await ctx.user.get("count")) ?? 0) + 1;
  await ctx.user.put("count", count);
  return { content: [text(String(count))] };
});

const edge = createMcpEdge(server, { features: [sessions(), user()] });
export default edge.worker;
export const { McpSession, McpUser } = edge.objects;
