/**
 * A project written before features still runs (test/servers/old-idiom/entry.ts: the deprecated object
 * factories from "mcp-edge", no `features`): a 2025 session is initialized and answers a tool call, a
 * 2026-07-28 client runs a tool as a task, and `publish` reaches a session's GET stream and a listen stream.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createTestClient, type Fetcher } from "../../src/testing/index";
import { NOTES_URI } from "../servers/old-idiom/entry";

const worker = (exports as unknown as { default: Fetcher }).default;
const MODERN = "2026-07-28";

describe("a project written with the deprecated object factories", () => {
  it("initializes a 2025 session and answers a tool call in it", async () => {
    const client = createTestClient(worker, { timeoutMs: 30_000 });
    const result = await client.callTool("echo", { text: "hi" });
    expect(result.content).toEqual([{ type: "text", text: "echo: hi" }]);
    expect(client.sessionId).toMatch(/.+/);
    await client.close();
  }, 60_000);

  it("runs a tool as a task (2026-07-28), through the task object its factory made", async () => {
    const client = createTestClient(worker, { protocolVersion: MODERN });
    const created = await client.tasks.create("later");
    expect(created.taskId).toMatch(/^[0-9a-f]{64}$/);
    expect((await client.tasks.result(created.taskId)).content).toEqual([{ type: "text", text: "done later" }]);
    expect((await client.tasks.get(created.taskId)).status).toBe("completed");
  });

  it("publishes through the hub its factory made: a session's GET stream and a listen stream both hear it", async () => {
    const session = createTestClient(worker);
    await session.request("resources/subscribe", { uri: NOTES_URI });
    const getStream = await session.listen();
    const modern = createTestClient(worker, { protocolVersion: MODERN });
    const listenStream = await modern.listen({ resourceSubscriptions: [NOTES_URI] });
    await modern.callTool("touch");
    expect((await getStream.next("notifications/resources/updated")).params).toMatchObject({ uri: NOTES_URI });
    expect((await listenStream.next("notifications/resources/updated")).params).toMatchObject({ uri: NOTES_URI });
    await getStream.close();
    await listenStream.close();
    await session.close();
  });
});
