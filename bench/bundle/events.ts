/** Sessions + the Events extension: one emitted event type, its webhooks, and a tool that emits it. */
import { sessions } from "../../src/features/sessions/index";
import { defineEvent, events, webhooks } from "../../src/features/events/index";
import { createMcpEdge, text } from "../../src/index";
import { server } from "./one-tool";

const noted = defineEvent("bench.noted", {
  description: "A note was taken",
  payload: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
});
const feature = events({ types: [noted], webhooks: webhooks() });

server.tool("note", { description: "Takes a note and emits it" }, async (_args, ctx) => {
  await feature.emit(ctx.env, "bench.noted", { text: "hello" });
  return { content: [text("noted")] };
});

const edge = createMcpEdge(server, { features: [sessions(), feature] });
export default edge.worker;
export const { McpSession, McpEvents } = edge.objects;
