// A 2025 session on a Worker whose MCP_HUB binding is there but whose edge passes no hub() (docs/hub.md
// "A server with nothing to deliver"): nothing links the session to the hub, so its initialize offers no
// resource subscriptions, and a client that subscribes anyway is refused (the server's log names the feature
// to pass), over real HTTP with the official SDK v1 client (test/servers/hub-binding-only).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { useWorker } from "./helpers/server";

/** The one resource of test/servers/hub-binding-only/entry.ts. */
const NOTE_URI = "note://only";

const server = useWorker({ configPath: "test/servers/hub-binding-only/wrangler.toml" });

describe("a session of an edge without hub(), MCP_HUB bound", () => {
  it("declares no resource subscriptions and refuses one (its log names the feature to pass); the session serves on", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(server.mcpUrl));
    const client = new Client({ name: "e2e-no-hub", version: "1.0.0" });
    await client.connect(transport);
    expect(client.getServerCapabilities()?.resources).toEqual({ subscribe: false, listChanged: false });

    // The session object answers as a deployed Worker does: a reference to the log line that names the fix.
    const refused = await client.subscribeResource({ uri: NOTE_URI }).then(
      () => undefined,
      (error: { code: number; message: string }) => error,
    );
    expect(refused?.code).toBe(-32603);
    const reference = /reference (misconfigured-[0-9a-f]{8})/.exec(refused?.message ?? "")?.[1];
    expect(reference, refused?.message).toBeDefined();
    await expect
      .poll(() => server.server.logs(), { timeout: 5_000 })
      .toContain(
        `[${reference}] Server misconfigured: resources/subscribe needs the hub: pass hub() (mcp-edge/hub) in createMcpEdge's features`,
      );
    // On the wire: the session's JSON answer (200) carrying the error, as any failed request in a session.
    const raw = await fetch(server.mcpUrl, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        "Mcp-Session-Id": transport.sessionId as string,
        "MCP-Protocol-Version": transport.protocolVersion as string,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: "sub", method: "resources/subscribe", params: { uri: NOTE_URI } }),
    });
    expect(raw.status).toBe(200);
    expect(await raw.json()).toMatchObject({ jsonrpc: "2.0", id: "sub", error: { code: -32603, data: { reference } } });
    expect(await client.readResource({ uri: NOTE_URI })).toMatchObject({ contents: [{ uri: NOTE_URI, text: "a note" }] });
    // Nothing was subscribed: unsubscribing stores nothing and succeeds.
    expect(await client.unsubscribeResource({ uri: NOTE_URI })).toEqual({});
    await transport.terminateSession();
    await client.close();
  });
});
