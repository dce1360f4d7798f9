/**
 * A project written before features still runs (test/servers/old-idiom/entry.ts: the deprecated object
 * factories from "mcp-edge", no `features`): a 2025 session is initialized and answers a tool call, a
 * 2026-07-28 client runs a tool as a task, `publish` reaches a session's GET stream and a listen stream, and
 * GET /sse serves the 2024-11-05 transport.
 * Each factory gives its edge what the feature would: an edge whose factory is not called (made here, in
 * the same project, with MCP_HUB and MCP_USER bound) serves listen, a 2025 session's initialize and `ctx.user`
 * as an edge without the hub and the user store does.
 */
import { createExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { createMcpEdge } from "../../src/edge";
import { createTestClient, type Fetcher } from "../../src/testing/index";
import { NOTES_URI, server } from "../servers/old-idiom/entry";
import { ACCEPT_BOTH, initializeParams } from "../helpers/mcp";
import { isResponseTo, SseReader } from "../helpers/sse";

const worker = (exports as unknown as { default: Fetcher }).default;
const MODERN = "2026-07-28";

/** What a 2025 session's initialize declares for resources on this Worker. */
async function resourcesDeclared(fetcher: Fetcher): Promise<unknown> {
  const res = await fetcher.fetch(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH },
      body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2025-11-25") }),
    }),
  );
  return ((await res.json()) as { result: { capabilities: { resources: unknown } } }).result.capabilities.resources;
}

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

  it("declares resource subscriptions to a 2025 session: hubObject(edge) linked its sessions to the hub", async () => {
    expect(await resourcesDeclared(worker)).toEqual({ subscribe: true, listChanged: false });
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

  it("serves the 2024-11-05 HTTP+SSE transport, as before features: sessionObject(edge) gave its edge legacySse()'s part", async () => {
    const stream = await worker.fetch(new Request("http://127.0.0.1/sse", { headers: { Accept: "text/event-stream" } }));
    expect(stream.status).toBe(200);
    const reader = new SseReader(stream);
    const first = await reader.next();
    expect(first?.event).toBe("endpoint");
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams("2024-11-05") };
    const posted = await worker.fetch(
      new Request(`http://127.0.0.1${first?.data ?? ""}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(init),
      }),
    );
    expect(posted.status).toBe(202);
    const answered = (await reader.until(isResponseTo(1))).at(-1);
    expect(JSON.parse(answered?.data ?? "{}")).toMatchObject({ result: { protocolVersion: "2024-11-05" } });
    await reader.cancel();
  });

  it("serves ctx.user through the store userObject(edge) gave the edge (an anonymous caller is refused by the store)", async () => {
    const client = createTestClient(worker, { protocolVersion: MODERN });
    const result = await client.callTool("remember");
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: expect.stringMatching(/ctx\.user needs an authenticated user/) }]);
  });
});

describe("an edge of that project whose hubObject(edge) and userObject(edge) are not called", () => {
  const bare = createMcpEdge(server);
  const fetcher: Fetcher = { fetch: (request) => bare.worker.fetch(request, env as never, createExecutionContext()) };

  it("acknowledges a listen with the empty set and completes it, though MCP_HUB is bound", async () => {
    const client = createTestClient(fetcher, { protocolVersion: MODERN });
    const complete = await client.request("subscriptions/listen", { notifications: { resourceSubscriptions: [NOTES_URI] } });
    expect(complete).toMatchObject({ resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": { name: "old-idiom-test" } } });
    const acknowledged = client.notifications.find((n) => n.method === "notifications/subscriptions/acknowledged");
    expect(acknowledged?.params).toMatchObject({ notifications: {} });
  });

  it("declares no resource subscriptions to a 2025 session, though MCP_HUB is bound: nothing links its sessions to the hub", async () => {
    expect(await resourcesDeclared(fetcher)).toEqual({ subscribe: false, listChanged: false });
  });

  it("still checks the listen's filter's shape: a resource subscription that is not a string is -32602", async () => {
    const client = createTestClient(fetcher, { protocolVersion: MODERN });
    await expect(client.request("subscriptions/listen", { notifications: { resourceSubscriptions: [7] } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("notifications.resourceSubscriptions[0] must be a string"),
    });
  });

  it("fails a tool that uses ctx.user, and logs for its author that the user store is not served", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const client = createTestClient(fetcher, { protocolVersion: MODERN });
      const result = await client.callTool("remember");
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).not.toMatch(/authenticated user/);
      expect(logged.mock.calls.flat().map(String).join("\n")).toMatch(/ctx\.user is served by the user\(\) feature/);
    } finally {
      logged.mockRestore();
    }
  });
});
