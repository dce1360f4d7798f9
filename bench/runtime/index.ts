/**
 * The smallest real server, for the bundle-size measurement: one simple tool with a raw JSON
 * Schema (no schema library), served in session mode. What its bundle holds beyond these lines
 * is the runtime's own cost.
 */
import { createMcpEdge, defineServer, sessionObject, text, type EdgeEnv } from "../../src/index";

const server = defineServer<EdgeEnv>({ name: "bundle-size", version: "1.0.0" });

server.tool(
  "echo",
  { description: "Echoes its text", input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
  (args) => ({ content: [text(String(args.text))] }),
);

const edge = createMcpEdge(server);
export default edge.worker;
export const McpSession = sessionObject(edge);
