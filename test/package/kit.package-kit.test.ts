/**
 * mcp-edge/testing sees what a client sees, against a real server (entry.ts) in workerd: a
 * principal from the test verifier (ctx.user, scopes), listen and GET stream notifications,
 * a call's progress and logs, a task driven from the client side, and waits that end with a
 * message naming what they awaited.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  createTestClient,
  mintTestToken,
  testAuth,
  TestRpcError,
  TestTimeoutError,
  type Fetcher,
  type TestNotification,
} from "../../src/testing/index";
/** The server's one resource (entry.ts). */
const NOTES_URI = "file:///notes.txt";

const worker = (exports as unknown as { default: Fetcher }).default;
const secret = (env as unknown as { MCP_TEST_AUTH_SECRET: string }).MCP_TEST_AUTH_SECRET;
const MODERN = "2026-07-28";

const token = (subject: string, scopes: string[] = []) => mintTestToken({ subject, scopes, secret });

describe("a principal from the test verifier", () => {
  it("gives ctx.user a store per subject, in both eras", async () => {
    // The first test also starts the objects: on a loaded machine that takes longer than the default bound.
    const timeoutMs = 30_000;
    const ada = createTestClient(worker, { token: await token("ada", ["notes"]), timeoutMs });
    const ada2026 = createTestClient(worker, { token: await token("ada"), protocolVersion: MODERN, timeoutMs });
    const bob = createTestClient(worker, { token: await token("bob"), protocolVersion: MODERN, timeoutMs });
    expect((await ada.callTool("visit")).content).toEqual([{ type: "text", text: "ada (notes) visit 1" }]);
    expect((await ada2026.callTool("visit")).content).toEqual([{ type: "text", text: "ada () visit 2" }]);
    expect((await bob.callTool("visit")).content).toEqual([{ type: "text", text: "bob () visit 1" }]);
    await ada.close();
  }, 60_000);

  it("checks scopes: a token without the tool's scope gets 403 insufficient_scope", async () => {
    const withoutScope = createTestClient(worker, { token: await token("ada"), protocolVersion: MODERN });
    await expect(withoutScope.callTool("admin")).rejects.toThrow(/the tool "admin" needs the scope admin/);
    const admin = createTestClient(worker, { token: await token("ada", ["admin"]), protocolVersion: MODERN });
    expect((await admin.callTool("admin")).content).toEqual([{ type: "text", text: "admin ok" }]);
  });

  it("refuses a token signed with another secret, an expired one, and none at all (401)", async () => {
    const forged = await mintTestToken({ subject: "ada", secret: "another-secret-of-at-least-32-characters" });
    const expired = await mintTestToken({ subject: "ada", secret, expiresInSeconds: -60 });
    for (const bad of [forged, expired]) {
      const res = await worker.fetch(
        new Request("http://localhost/mcp", {
          method: "POST",
          headers: { Authorization: `Bearer ${bad}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
        }),
      );
      expect(res.status).toBe(401);
      expect(res.headers.get("WWW-Authenticate")).toMatch(
        bad === expired ? /the test token expired/ : /not a test token signed with this server's test secret/,
      );
    }
    await expect(createTestClient(worker).listTools()).rejects.toThrow(/needs an OAuth access token/);
  });

  it("refuses a malformed token with 401 invalid_token, never 503 (a signature of 4n+1 characters)", async () => {
    const good = await token("ada");
    const [head, body] = good.split(".");
    // A base64url segment of 4n+1 characters cannot be decoded (atob throws): the token is malformed, not an outage.
    for (const bad of [`${head}.${body}.AAAAA`, `${head}.${body}.A`, `A.${body}.AAAA`, `${head}.A.AAAA`]) {
      const res = await worker.fetch(
        new Request("http://localhost/mcp", {
          method: "POST",
          headers: { Authorization: `Bearer ${bad}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
        }),
      );
      expect(res.status).toBe(401);
      expect(res.headers.get("WWW-Authenticate")).toMatch(
        /error="invalid_token", error_description="not a test token signed with this server's test secret \(malformed\)"/,
      );
    }
  }, 30_000);

  it("refuses test tokens on a request addressed to a host that is not a loopback one (a deployment), naming the option", async () => {
    const res = await worker.fetch(
      new Request("https://kit.example.workers.dev/mcp", {
        method: "POST",
        headers: {
          Authorization: `Bearer ${await token("ada", ["admin"])}`,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
      }),
    );
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toContain(
      'error="invalid_token", error_description="test sign-in (testAuth from mcp-edge/testing) is refused on kit.example.workers.dev: ' +
        'it is for tests and wrangler dev on loopback hosts; deploy with a production verifier (allowNonLoopbackHosts: true accepts it there)"',
    );
  }, 30_000);

  it("accepts test tokens off loopback hosts only where told: allowNonLoopbackHosts, or the allowed resource's own host", async () => {
    type Verify = (token: string, context: { resource: string; env: unknown; request?: Request }) => Promise<unknown>;
    const good = await token("ada");
    const at = (url: string) => new Request(url, { method: "POST" });
    const local = testAuth().verify as Verify;
    await expect(local(good, { resource: "http://localhost/mcp", env, request: at("http://127.0.0.1:8787/mcp") })).resolves.toMatchObject({
      subject: "ada",
    });
    await expect(local(good, { resource: "http://localhost/mcp", env, request: at("https://mcp.example.com/mcp") })).rejects.toThrow(
      /is refused on mcp\.example\.com/,
    );
    const anywhere = testAuth({ allowNonLoopbackHosts: true }).verify as Verify;
    await expect(
      anywhere(good, { resource: "http://localhost/mcp", env, request: at("https://mcp.example.com/mcp") }),
    ).resolves.toBeDefined();
    const preview = testAuth({ resource: "https://preview.example.com/mcp", allowNonLocalResource: true }).verify as Verify;
    const resource = "https://preview.example.com/mcp";
    await expect(preview(good, { resource, env, request: at("https://preview.example.com/mcp") })).resolves.toBeDefined();
    await expect(preview(good, { resource, env, request: at("https://mcp.example.com/mcp") })).rejects.toThrow(/is refused/);
  });

  it("mints nothing with a short secret", async () => {
    await expect(mintTestToken({ subject: "ada", secret: "short" })).rejects.toThrow(/at least 32 characters/);
  });

  it("verifies nothing where the Worker has no secret, and naming the binding to set", async () => {
    const verify = testAuth().verify as (token: string, context: { resource: string; env: unknown }) => Promise<unknown>;
    const good = await token("ada");
    await expect(verify(good, { resource: "http://localhost/mcp", env: {} })).rejects.toThrow(
      /no usable secret \(binding MCP_TEST_AUTH_SECRET: none; needs at least 32 characters\): set MCP_TEST_AUTH_SECRET in \.dev\.vars/,
    );
    await expect(verify(good, { resource: "http://localhost/mcp", env: { MCP_TEST_AUTH_SECRET: "short" } })).rejects.toThrow(
      /5 characters/,
    );
    await expect(verify(good, { resource: "http://localhost/mcp", env })).resolves.toMatchObject({ subject: "ada" });
  });

  it("refuses a resource off localhost unless told", () => {
    expect(() => testAuth({ resource: "https://mcp.example.com/mcp" })).toThrow(
      /is not on localhost; the test verifier is for tests and wrangler dev only/,
    );
    expect(testAuth({ resource: "https://preview.example.com/mcp", allowNonLocalResource: true }).resource).toBe(
      "https://preview.example.com/mcp",
    );
  });
});

describe("notifications outside a call", () => {
  it("2026-07-28: a listen stream gets resource updates and list changes, as an iterator or by method", async () => {
    const client = createTestClient(worker, { token: await token("ada"), protocolVersion: MODERN });
    const stream = await client.listen({ resourceSubscriptions: [NOTES_URI], toolsListChanged: true });
    expect(stream.acknowledged).toMatchObject({ resourceSubscriptions: [NOTES_URI], toolsListChanged: true });
    await client.callTool("touch");
    const updated = await stream.next("notifications/resources/updated");
    expect(updated.params).toMatchObject({ uri: NOTES_URI });
    for await (const notification of stream) {
      expect(notification.method).toBe("notifications/tools/list_changed");
      break; // leaving the loop closes the stream
    }
    expect(stream.ended).toBe("closed");
    expect(client.notifications.map((n) => n.method)).toContain("notifications/resources/updated");
  });

  it("2025: the session's GET stream gets the resource updates the session subscribed to", async () => {
    const heard: TestNotification[] = [];
    const client = createTestClient(worker, { token: await token("ada"), onNotification: (n) => heard.push(n) });
    await client.request("resources/subscribe", { uri: NOTES_URI });
    const stream = await client.listen();
    expect(stream.acknowledged).toBeUndefined();
    await client.callTool("touch");
    expect((await stream.next("notifications/resources/updated")).params).toMatchObject({ uri: NOTES_URI });
    expect(heard.map((n) => n.method)).toContain("notifications/resources/updated");
    await stream.close();
    await client.close();
  });
});

describe("the test kit's listen on a 2025 session", () => {
  it("listen({ resourceSubscriptions }) subscribes the session, so its GET stream gets their updates", async () => {
    const client = createTestClient(worker, { token: await token("ada") });
    const stream = await client.listen({ resourceSubscriptions: [NOTES_URI] });
    await client.callTool("touch");
    expect((await stream.next("notifications/resources/updated")).params).toMatchObject({ uri: NOTES_URI });
    await stream.close();
    await client.close();
  });

  it("a wait that times out on the GET stream says what the stream hears and how to subscribe", async () => {
    const client = createTestClient(worker, { token: await token("ada") });
    const stream = await client.listen();
    await client.callTool("touch");
    await expect(stream.next("notifications/resources/updated", { timeoutMs: 200 })).rejects.toThrow(
      "waiting for notifications/resources/updated on the session's GET stream (a 2025 session's GET stream hears resources/updated only for URIs the session subscribed to (client.listen({ resourceSubscriptions: [uri] }) subscribes them",
    );
    await stream.close();
    await client.close();
  });

  it("refuses listen({ taskIds }), which only 2026-07-28 follows, saying what to do", async () => {
    const client = createTestClient(worker, { token: await token("ada") });
    await expect(client.listen({ taskIds: ["t"] })).rejects.toThrow(
      'listen({ taskIds }) follows tasks on 2026-07-28 only; create this client with protocolVersion: "2026-07-28"',
    );
    await client.close();
  });
});

describe.each(["2025-11-25", MODERN])("a call's progress and logs, protocol %s", (protocolVersion) => {
  it("reaches onProgress and onLog in order", async () => {
    const client = createTestClient(worker, { token: await token("ada"), protocolVersion });
    const progress: unknown[] = [];
    const logs: unknown[] = [];
    const result = await client.callTool("work", {}, { onProgress: (p) => progress.push(p.message), onLog: (l) => logs.push(l.data) });
    expect(result.content).toEqual([{ type: "text", text: "worked" }]);
    expect(progress).toEqual(["half", "done"]);
    expect(logs).toEqual(["working"]);
    await client.close();
  });
});

describe("a task from the client side (2026-07-28)", () => {
  it("is created (a flat taskId), asks for input, is answered and completes", async () => {
    const client = createTestClient(worker, {
      token: await token("ada"),
      protocolVersion: MODERN,
      onElicit: () => ({ action: "accept", content: { yes: true } }),
    });
    const created = await client.tasks.create("approve", { what: "deploy" });
    expect(created.taskId).toMatch(/^[0-9a-f]{64}$/);
    expect(created.status).toBe("working");
    const asking = await client.tasks.waitFor(created.taskId, "input_required");
    const [ask] = Object.values(asking.inputRequests ?? {});
    expect(ask).toMatchObject({ method: "elicitation/create", params: { message: "Approve deploy?" } });
    expect(await client.tasks.answer(created.taskId)).toHaveLength(1);
    const result = await client.tasks.result(created.taskId);
    expect(result.content).toEqual([{ type: "text", text: "deploy approved" }]);
    expect((await client.tasks.get(created.taskId)).status).toBe("completed");
  });

  it("reports its changes on a listen stream for its id", async () => {
    const client = createTestClient(worker, {
      token: await token("ada"),
      protocolVersion: MODERN,
      onElicit: () => ({ action: "accept", content: { yes: false } }),
    });
    const { taskId } = await client.tasks.create("approve", { what: "rollback" });
    const stream = await client.listen({ taskIds: [taskId] });
    expect(stream.acknowledged).toMatchObject({ taskIds: [taskId] });
    await client.tasks.waitFor(taskId, "input_required");
    await client.tasks.answer(taskId);
    const done = await stream.next((n) => n.method === "notifications/tasks" && n.params?.status === "completed");
    expect(done.params).toMatchObject({ taskId, result: { content: [{ type: "text", text: "rollback refused" }] } });
    await stream.close();
  });

  it("is cancelled: result() then throws", async () => {
    const client = createTestClient(worker, { token: await token("ada"), protocolVersion: MODERN });
    const created = await client.tasks.create("sleep", { ms: 60_000 });
    await client.tasks.cancel(created.taskId);
    await expect(client.tasks.result(created.taskId)).rejects.toThrow(/was cancelled/);
  });

  it("is refused on a 2025 session, naming the revision", async () => {
    const client = createTestClient(worker, { token: await token("ada") });
    await expect(client.tasks.create("approve", { what: "x" })).rejects.toThrow(/tasks exist only on 2026-07-28/);
  });
});

describe("nothing hangs", () => {
  it("a call past its bound throws, naming what it awaited", async () => {
    const client = createTestClient(worker, { token: await token("ada"), protocolVersion: MODERN, timeoutMs: 200 });
    const error = await client.callTool("sleep", { ms: 2_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TestTimeoutError);
    expect((error as Error).message).toBe("mcp-edge/testing: timed out after 200 ms waiting for the answer to tools/call");
  });

  it("request('subscriptions/listen') ends with a hint to use listen()", async () => {
    const client = createTestClient(worker, { token: await token("ada"), protocolVersion: MODERN, timeoutMs: 200 });
    await expect(client.request("subscriptions/listen", { notifications: { toolsListChanged: true } })).rejects.toThrow(
      "waiting for the answer to subscriptions/listen (a listen stream stays open: use client.listen())",
    );
  });

  it("a notification that never comes, and a task that never ends", async () => {
    const client = createTestClient(worker, { token: await token("ada"), protocolVersion: MODERN });
    const stream = await client.listen({ toolsListChanged: true });
    await expect(stream.next("notifications/resources/updated", { timeoutMs: 100 })).rejects.toThrow(
      "timed out after 100 ms waiting for notifications/resources/updated on the listen stream",
    );
    await stream.close();
    const created = await client.tasks.create("sleep", { ms: 60_000 });
    await expect(client.tasks.waitFor(created.taskId, "completed", { timeoutMs: 100 })).rejects.toThrow(
      `waiting for task ${created.taskId} to be completed (last seen working)`,
    );
    await client.tasks.cancel(created.taskId);
  });

  it("a JSON-RPC error still throws TestRpcError", async () => {
    const client = createTestClient(worker, { token: await token("ada"), protocolVersion: MODERN });
    await expect(client.request("no/such")).rejects.toBeInstanceOf(TestRpcError);
  });
});
