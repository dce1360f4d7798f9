/** Sessions + the hub: the listen stream and publish (a tool announces a change to every listener). */
import { hub, publish } from "../../src/features/hub/index";
import { sessions } from "../../src/features/sessions/index";
import { createMcpEdge, type EdgeEnv, text } from "../../src/index";
import { server } from "./one-tool";

server.tool("touch", { description: "Announces that the notes changed" }, async (_args, ctx) => {
  await publish(ctx.env as EdgeEnv, { type: "resourceUpdated", uri: "notes://all" });
  return { content: [text("announced")] };
});

const edge = createMcpEdge(server, { features: [sessions(), hub()] });
export default edge.worker;
export const { McpSession, McpHub } = edge.objects;
