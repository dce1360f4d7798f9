// deferredSessionObject over real HTTP with the official SDK v1 client (docs/sessions.md
// "When a session gets its object"): the client takes the longer sealed session id as any other, calls a
// tool (served in the Worker, the object writes nothing), opens its standalone GET stream (which
// gives the session its object), subscribes, and gets the update another client causes; after
// the client ends the session (DELETE), the id answers 404. A client that declares kilobytes of
// capabilities gets its object at initialize and a bare object id, which its fetch can read.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { useWorker } from "./helpers/server";

const server = useWorker({
  configPath: "test/servers/deferred/wrangler.toml",
  vars: { MCP_STATE_SECRET: "e2e-only-state-secret-0123456789abcdef" },
});

describe("deferred sessions with the SDK v1 client", () => {
  it("initialize, a call, a GET stream, a subscription and its update, then DELETE: 404", { timeout: 60_000 }, async () => {
    const uri = `test://template/e2e-deferred-${crypto.randomUUID()}/data`;
    const transport = new StreamableHTTPClientTransport(new URL(server.mcpUrl));
    const client = new Client({ name: "e2e-deferred", version: "1.0.0" });
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
    });
    await client.connect(transport);
    const sessionId = transport.sessionId as string;
    expect(sessionId).toMatch(/^[0-9a-f]{64}\.[A-Za-z0-9_-]+$/);

    const echoed = await client.callTool({ name: "echo", arguments: { text: "deferred" } });
    expect(echoed.content).toEqual([{ type: "text", text: "deferred" }]);
    await client.subscribeResource({ uri });

    const other = new ClientV2({ name: "e2e-deferred-v2", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await other.connect(new TransportV2(new URL(server.mcpUrl)));
    expect((await other.callTool({ name: "touch_resource", arguments: { uri } })).isError).not.toBe(true);
    await expect.poll(() => updates, { timeout: 5_000 }).toEqual([uri]);

    await transport.terminateSession();
    const after = await fetch(server.mcpUrl, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        "Mcp-Session-Id": sessionId,
        "MCP-Protocol-Version": "2025-06-18",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" }),
    });
    expect(after.status).toBe(404);
    await after.body?.cancel();
    await Promise.all([client.close(), other.close()]);
  });

  it("a client declaring 40 KB of capabilities connects and calls a tool: its session id is the bare object id", {
    timeout: 60_000,
  }, async () => {
    const transport = new StreamableHTTPClientTransport(new URL(server.mcpUrl));
    const capabilities = { experimental: { "e2e.big": { blob: "x".repeat(40_000) } } };
    const client = new Client({ name: "e2e-deferred-big", version: "1.0.0" }, { capabilities });
    // A sealed id would carry all of it (about 53,000 characters): more header than Node's fetch reads.
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^[0-9a-f]{64}$/);
    const echoed = await client.callTool({ name: "echo", arguments: { text: "big" } });
    expect(echoed.content).toEqual([{ type: "text", text: "big" }]);
    await transport.terminateSession();
    await client.close();
  });
});
