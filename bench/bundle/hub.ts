/** Sessions + the hub: the listen stream and publish (a tool announces a change to every listener). */
import { createMcpEdge, type EdgeEnv, hubObject, publish, sessionObject, text } from "../../src/index";
import { server } from "./one-tool";

server.tool("touch", { description: "Announces that the notes changed" }, async (_args, ctx) => {
  await publish(ctx.env as EdgeEnv, { type: "resourceUpdated", uri: "notes://all" });
  return { content: [text("announced")] };
});

const edge = createMcpEdge(server);
export default edge.worker;
export const McpSession = sessionObject(edge);
export const McpHub = hubObject(edge);
