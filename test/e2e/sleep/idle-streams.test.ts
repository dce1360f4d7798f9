// Idle streams cost nothing, over real HTTP: the SDK v1 client (which opens its standalone GET
// stream right after initialize) and a 2026-07-28 listen stream (opened with fetch: the SDK v2
// client has no listen API yet; it makes the change instead) stay open and idle past the point
// where local workerd evicts an object whose only connections are hibernatable WebSockets (about
// 10 s). The session and the hub shard log each construction (test/servers/sleep/entry.ts): a
// constructor that runs again on the next event proves the object slept. Then an update arrives
// on both streams, once.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { openListenStream } from "../helpers/listen-stream";
import { useWorker } from "../helpers/server";

const server = useWorker({ configPath: "test/servers/sleep/wrangler.toml" });
/** Past local workerd's eviction of an object held only by hibernatable sockets (about 10 s). */
const IDLE_MS = 16_000;

function constructions(kind: "session" | "hub"): number {
  return server.server
    .logs()
    .split("\n")
    .filter((line) => line.includes(`constructed ${kind} `)).length;
}

describe("idle streams let their objects sleep", () => {
  it("a session and a hub shard evicted while their streams idle get the next update to both clients", { timeout: 90_000 }, async () => {
    const uri = `test://template/e2e-sleep-${crypto.randomUUID()}/data`;
    // SDK v1: initialize opens the session; the client then opens its GET stream on its own.
    const v1 = new Client({ name: "e2e-sleep-v1", version: "1.0.0" });
    const updates: string[] = [];
    v1.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
    });
    await v1.connect(new StreamableHTTPClientTransport(new URL(server.mcpUrl)));
    await v1.subscribeResource({ uri });
    const listen = await openListenStream(server.mcpUrl, "sleepy", uri, "e2e-sleep");
    expect(listen.response.status).toBe(200);
    expect((await listen.next()).method).toBe("notifications/subscriptions/acknowledged");
    const before = { session: constructions("session"), hub: constructions("hub") };
    expect(before.session).toBeGreaterThanOrEqual(1);

    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));

    // The SDK v2 client, pinned to 2026-07-28, makes the change (a tool that publishes).
    const v2 = new ClientV2({ name: "e2e-sleep-v2", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await v2.connect(new TransportV2(new URL(server.mcpUrl)));
    const touched = await v2.callTool({ name: "touch_resource", arguments: { uri } });
    expect(touched.isError).not.toBe(true);

    expect(await listen.next()).toEqual({
      jsonrpc: "2.0",
      method: "notifications/resources/updated",
      params: { _meta: { "io.modelcontextprotocol/subscriptionId": "sleepy" }, uri },
    });
    await expect.poll(() => updates, { timeout: 5_000 }).toEqual([uri]);
    // Both objects were built again for this event: they had slept (been evicted) while idle.
    expect(constructions("session")).toBeGreaterThan(before.session);
    expect(constructions("hub")).toBeGreaterThan(before.hub);
    await listen.close();
    await Promise.all([v1.close(), v2.close()]);
    expect(updates).toEqual([uri]);
  });
});
