/** Sessions + the user store: a tool reads the caller's own record (`ctx.user`). */
import { createMcpEdge, sessionObject, text, userObject } from "../../src/index";
import { server } from "./one-tool";

server.tool("seen", { description: "How often this user called" }, async (_args, ctx) => {
  const count = Number((await ctx.user.get("count")) ?? 0) + 1;
  await ctx.user.put("count", count);
  return { content: [text(String(count))] };
});

const edge = createMcpEdge(server);
export default edge.worker;
export const McpSession = sessionObject(edge);
export const McpUser = userObject(edge);
