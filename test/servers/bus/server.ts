/**
 * An MCP server built on the MCP SDK v2 (`@modelcontextprotocol/server`), served in a Worker by
 * the SDK's own `createMcpHandler`, whose `subscriptions/listen` events travel over mcp-edge's
 * hub (`hubBus`): two Workers built from this (listener.ts, publisher.ts) share one hub, so a
 * change published in one reaches listen streams held by the other (test/e2e/bus/bus.test.ts).
 */
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { env } from "cloudflare:workers";
import { z } from "zod";
import { hubBus } from "../../../src/features/hub/bus";

/** The test's hub spreads over 4 shards: a bus stream and the publisher meet across shards. */
const SHARDS = 4;

export function sdkWorker(name: string): { fetch(request: Request): Promise<Response> } {
  const bus = hubBus(env, { shards: SHARDS });
  const handler = createMcpHandler(
    () => {
      const server = new McpServer(
        { name, version: "1.0.0" },
        { capabilities: { resources: { subscribe: true }, tools: { listChanged: true } } },
      );
      server.registerTool(
        "touch",
        {
          description: "Announces that a resource changed (to every listener, in any Worker of the hub)",
          inputSchema: z.object({ uri: z.string() }),
        },
        ({ uri }) => {
          handler.notify.resourceUpdated(uri);
          return { content: [{ type: "text", text: `touched ${uri}` }] };
        },
      );
      server.registerResource("notes", "notes://today", { mimeType: "text/plain" }, (uri) => ({
        contents: [{ uri: uri.href, text: "today" }],
      }));
      return server;
    },
    // The SDK notices a client that left at its next write: a short keep-alive, so the test sees the bus stream go.
    { bus, keepAliveMs: 200 },
  );
  return {
    async fetch(request) {
      const url = new URL(request.url);
      // Test-only: how many bus streams (SDK listen streams, in any Worker) a publish reached.
      if (url.pathname === "/count") {
        const reached = await bus.publishAndCount({ kind: "resource_updated", uri: "probe://count" });
        return Response.json({ reached });
      }
      return handler.fetch(request);
    },
  };
}
