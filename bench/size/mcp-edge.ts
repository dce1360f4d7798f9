/** The size comparison's server, built with mcp-edge (zod schemas, session mode). Same features in each file here. */
import { z } from "zod";
import { createMcpEdge, defineServer, sessionObject, text } from "../../src/index";

const server = defineServer({ name: "size", version: "1.0.0" })
  .tool("echo", { description: "Echoes a text", input: z.object({ text: z.string() }) }, ({ text: value }) => ({ content: [text(value)] }))
  .tool("add", { description: "Adds two numbers", input: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => ({
    content: [text(String(a + b))],
  }))
  .resource("info://about", { name: "about", mimeType: "text/plain" }, (uri) => ({ uri, text: "a small server" }))
  .prompt("greet", { description: "Greets someone", arguments: [{ name: "name", required: true }] }, ({ name }) => ({
    messages: [{ role: "user", content: { type: "text", text: `Say hello to ${name}` } }],
  }));

const edge = createMcpEdge(server);
export default edge.worker;
export const McpSession = sessionObject(edge);
