/**
 * The smallest Worker of the features idiom: one tool, `features: [sessions()]` and nothing else
 * (test/e2e/package/feature-bundles.test.ts checks that its bundle holds none of the features it
 * does not pass).
 */
import { createMcpEdge, defineServer, text } from "../../../src/index";
import { sessions } from "../../../src/features/sessions/index";

const server = defineServer({ name: "sessions-only", version: "1.0.0" }).tool(
  "echo",
  { description: "Echoes its text", input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
  (args) => ({ content: [text(String(args.text))] }),
);

const edge = createMcpEdge(server, { features: [sessions()] });
export default edge.worker;
export const { McpSession } = edge.objects;
