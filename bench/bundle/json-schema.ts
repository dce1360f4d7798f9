/**
 * Sessions + the full JSON Schema 2020-12 validator: the one-tool server of one-tool.ts defined with
 * `jsonSchema: fullJsonSchema` (its own copy: one-tool.ts stays the budget's baseline, byte for byte).
 */
import { sessions } from "../../src/features/sessions/index";
import { createMcpEdge, defineServer, type EdgeEnv, text } from "../../src/index";
import { fullJsonSchema } from "../../src/json-schema";

const server = defineServer<EdgeEnv>({ name: "bundle-size", version: "1.0.0", jsonSchema: fullJsonSchema });

server.tool(
  "echo",
  { description: "Echoes its text", input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
  (args) => ({ content: [text(String(args.text))] }),
);

const edge = createMcpEdge(server, { features: [sessions()] });
export default edge.worker;
export const { McpSession } = edge.objects;
