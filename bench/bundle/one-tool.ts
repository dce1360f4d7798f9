/**
 * The one-tool server every bundle variant serves (bench/run.mjs, part "bundle"): a simple tool
 * with a raw JSON Schema (no schema library). What a variant's bundle holds beyond these lines is
 * the runtime's own cost, and what a variant adds is that feature's.
 */
import { defineServer, type EdgeEnv, text } from "../../src/index";

export const server = defineServer<EdgeEnv>({ name: "bundle-size", version: "1.0.0" });

server.tool(
  "echo",
  { description: "Echoes its text", input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
  (args) => ({ content: [text(String(args.text))] }),
);
