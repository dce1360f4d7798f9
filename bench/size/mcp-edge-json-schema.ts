/** The size comparison's server with mcp-edge and raw JSON Schema: the library's own share, no zod. */
import { createMcpEdge, defineServer, sessionObject, text } from "../../src/index";

const server = defineServer({ name: "size", version: "1.0.0" })
  .tool(
    "echo",
    { description: "Echoes a text", input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
    (args) => ({
      content: [text(String(args.text))],
    }),
  )
  .tool(
    "add",
    {
      description: "Adds two numbers",
      input: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    },
    (args) => ({
      content: [text(String(Number(args.a) + Number(args.b)))],
    }),
  )
  .resource("info://about", { name: "about", mimeType: "text/plain" }, (uri) => ({ uri, text: "a small server" }))
  .prompt("greet", { description: "Greets someone", arguments: [{ name: "name", required: true }] }, ({ name }) => ({
    messages: [{ role: "user", content: { type: "text", text: `Say hello to ${name}` } }],
  }));

const edge = createMcpEdge(server);
export default edge.worker;
export const McpSession = sessionObject(edge);
