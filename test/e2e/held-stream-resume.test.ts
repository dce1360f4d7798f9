// A held GET stream that ends before its CPU budget, with the official SDK v1 client over real HTTP
// (docs/reliability.md "Held streams and the CPU limit"): the server ends the stream with a `retry:`
// field several times while 80 updates are published, and the client resumes with Last-Event-ID
// each time, by itself, and gets every update once, in order.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { useWorker } from "./helpers/server";

const server = useWorker({ configPath: "test/servers/held-streams/wrangler.toml" });

describe("a GET stream ended by its CPU budget, with the SDK v1 client", () => {
  it("resumes by itself with Last-Event-ID and gets all 80 updates once, in order", { timeout: 90_000 }, async () => {
    const uris = Array.from({ length: 80 }, (_, i) => `test://template/e2e-budget-${i}-${crypto.randomUUID()}/data`);
    const updates: string[] = [];
    const resumptions: string[] = [];
    let streamOpened: () => void = () => undefined;
    const opened = new Promise<void>((resolve) => {
      streamOpened = resolve;
    });
    // The client's own fetch, watched: its GET requests, and the Last-Event-ID each resumption carries.
    const watched: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if ((init?.method ?? "GET") === "GET") {
        const lastEventId = new Headers(init?.headers).get("last-event-id");
        if (lastEventId) resumptions.push(lastEventId);
        if (response.ok) streamOpened();
      }
      return response;
    };
    const transport = new StreamableHTTPClientTransport(new URL(server.mcpUrl), { fetch: watched });
    const client = new Client({ name: "e2e-held-stream", version: "1.0.0" });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
    });
    await client.connect(transport);
    await opened;
    for (const uri of uris) await client.subscribeResource({ uri });
    for (const uri of uris) await client.callTool({ name: "touch_resource", arguments: { uri } });
    await expect.poll(() => updates.length, { timeout: 30_000 }).toBe(uris.length);
    expect(updates).toEqual(uris);
    // About 17 events a stream on this server's budget: it ended and was resumed several times.
    expect(resumptions.length).toBeGreaterThanOrEqual(3);
    await client.close();
  });
});
