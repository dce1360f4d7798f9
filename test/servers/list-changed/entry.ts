/**
 * Test-only Worker: a server that declares listChanged and has a tool behind a feature flag.
 * In production the flag would live in KV or D1; here it is module state, which the Worker
 * and the session objects share because workerd runs them in one isolate under test.
 */
import { z } from "zod";
import { createMcpEdge } from "../../../src/edge";
import { sessionObject } from "../../../durable-objects/sessions/classes";
import { hubObject } from "../../../durable-objects/hub/mcp-hub";
import type { EdgeEnv } from "../../../src/kernel/env";
import { text } from "../../../src/mcp/definition/content";
import { defineServer } from "../../../src/mcp/definition/server";
import { notifyListChanged } from "../../../src/notify";

export const flags = { beta: false };

export const server = defineServer<EdgeEnv>({ name: "list-changed-test", version: "1.0.0", listChanged: true })
  .tool("stable", { description: "Always there" }, () => ({ content: [text("stable")] }))
  .tool("beta", { description: "Only while the beta flag is on", enabled: () => flags.beta }, () => ({ content: [text("beta")] }))
  .tool(
    "set_beta",
    { description: "Turns the beta flag on or off and tells every session", input: z.object({ on: z.boolean() }) },
    async ({ on }, ctx) => {
      flags.beta = on;
      const sessions = await notifyListChanged(ctx.env, "tools");
      return { content: [text(`told ${sessions} session(s)`)] };
    },
  )
  // The resource of the 2026-07-28 listen examples (schema/examples/SubscriptionsListenRequest).
  .resource("file:///project/config.json", { name: "config", mimeType: "application/json" }, (uri) => ({
    uri,
    mimeType: "application/json",
    text: "{}",
  }))
  .prompt("beta_prompt", { description: "Only while the beta flag is on", enabled: () => flags.beta }, () => ({
    messages: [{ role: "user", content: { type: "text", text: "beta" } }],
  }));

const edge = createMcpEdge(server);
export default edge.worker;
export const McpSession = sessionObject(edge);
export const McpHub = hubObject(edge);
