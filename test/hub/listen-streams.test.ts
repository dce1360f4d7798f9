/**
 * 2026-07-28 "Subscriptions": listen streams served by the hub, driven through serveListen (the
 * function the 2026 lane calls for `subscriptions/listen`) and the publish API, with real
 * objects. The demo server declares no listChanged, so list-change types are never honoured here.
 */
import { afterAll, describe, expect, it } from "vitest";
import { demoServer } from "../../src/demo/server";
import { closeListenStreams, publish, publishAndCount } from "../../src/publish";
import { serveListen } from "../../src/http/streams/listen";
import { createTask } from "../../src/tasks/lane";
import { disclosingEnv } from "../../src/platform/bindings";
import { resolveListenOptions } from "../../src/kernel/options";
import type { EdgeEnv } from "../../src/kernel/env";
import { edgeEnv, listen, openListen, SUBSCRIPTION_ID } from "../helpers/listen";

const server = demoServer;
const fresh = () => `test://template/listen-${crypto.randomUUID()}/data`;
const hubs: (string | undefined)[] = [undefined];
const shard = () => {
  const name = `test-${crypto.randomUUID()}`;
  hubs.push(name);
  return name;
};
// A stream a test cancelled stays open at its shard until the Worker's next keep-alive finds the client gone:
// closing them from the hub ends them before the file does, so no shard wakes while vitest tears the file's
// runtime down (an EnvironmentTeardownError, "resolve" pending, failed one full run).
afterAll(async () => {
  for (const hub of hubs) await closeListenStreams(edgeEnv, hub === undefined ? {} : { shard: hub });
});
const updated = (uri: string, id: unknown) => ({
  jsonrpc: "2.0",
  method: "notifications/resources/updated",
  params: { _meta: { [SUBSCRIPTION_ID]: id }, uri },
});

describe("subscriptions/listen: the acknowledgement", () => {
  it("comes first, carries the listen request's id as subscription id and only the honoured subset", async () => {
    const uri = fresh();
    const { stream, ack } = await openListen({
      server,
      id: "listen-1",
      notifications: { toolsListChanged: true, resourceSubscriptions: [uri] },
    });
    // schema/examples/SubscriptionsAcknowledgedNotification, minus toolsListChanged: this server announces no list changes.
    expect(ack).toEqual({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { _meta: { [SUBSCRIPTION_ID]: "listen-1" }, notifications: { resourceSubscriptions: [uri] } },
    });
    await stream.cancel();
  });

  it("is sent with the SSE headers, including X-Accel-Buffering: no", async () => {
    const res = await listen({ server, notifications: { resourceSubscriptions: [fresh()] } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/event-stream");
    expect(res.headers.get("X-Accel-Buffering")).toBe("no");
    await res.body?.cancel();
  });

  it("lists each URI once when the client repeats one", async () => {
    const uri = fresh();
    const { stream, ack } = await openListen({ server, notifications: { resourceSubscriptions: [uri, uri] } });
    expect((ack.params as { notifications: unknown }).notifications).toEqual({ resourceSubscriptions: [uri] });
    await stream.cancel();
  });
});

describe("subscriptions/listen: notifications", () => {
  it("delivers resources/updated for a subscribed URI with the subscription id in _meta, and nothing for others", async () => {
    const uri = fresh();
    const { stream } = await openListen({ server, id: 7, notifications: { resourceSubscriptions: [uri] } });
    expect(await publishAndCount(edgeEnv, { type: "resourceUpdated", uri: fresh() })).toEqual({ listenStreams: 0, sessions: 0 });
    expect(await publishAndCount(edgeEnv, { type: "resourceUpdated", uri })).toEqual({ listenStreams: 1, sessions: 0 });
    expect((await stream.next())?.json).toEqual(updated(uri, 7));
    await stream.cancel();
  });

  it("never sends a type the client did not opt in to, or one the server does not honour", async () => {
    const uri = fresh();
    const { stream } = await openListen({ server, notifications: { toolsListChanged: true, resourceSubscriptions: [uri] } });
    expect((await publishAndCount(edgeEnv, { type: "listChanged", list: "tools" })).listenStreams).toBe(0);
    await publish(edgeEnv, { type: "resourceUpdated", uri });
    // The next event is the update: no list_changed came before it.
    expect((await stream.next())?.json).toEqual(updated(uri, "listen-1"));
    await stream.cancel();
  });

  it("keeps several streams apart, each with its own subscription id", async () => {
    const uri = fresh();
    const a = await openListen({ server, id: "a", notifications: { resourceSubscriptions: [uri] } });
    const b = await openListen({ server, id: "b", notifications: { resourceSubscriptions: [uri] } });
    expect((await publishAndCount(edgeEnv, { type: "resourceUpdated", uri })).listenStreams).toBe(2);
    expect((await a.stream.next())?.json).toEqual(updated(uri, "a"));
    expect((await b.stream.next())?.json).toEqual(updated(uri, "b"));
    await Promise.all([a.stream.cancel(), b.stream.cancel()]);
  });

  it("sends SSE comment keep-alives on a quiet stream", async () => {
    const res = await listen({
      server,
      notifications: { resourceSubscriptions: [fresh()] },
      options: { keepAliveMs: 20 },
      features: { shard: shard() },
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes(": keepalive\n\n")) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`stream ended without a keep-alive: ${text}`);
      text += decoder.decode(value, { stream: true });
    }
    expect(text.startsWith("event: message\ndata: {")).toBe(true); // the acknowledgement came first
    await reader.cancel();
  });
});

describe("subscriptions/listen: graceful end and the limit", () => {
  it("ends every stream with the listen request's complete result, then closes it", async () => {
    const hub = shard();
    const { stream } = await openListen({
      server,
      id: "listen-1",
      notifications: { resourceSubscriptions: [fresh()] },
      features: { shard: hub },
    });
    expect(await closeListenStreams(edgeEnv, { shard: hub })).toBe(1);
    // schema/examples/SubscriptionsListenResultResponse, with the server's info in _meta.
    expect((await stream.next())?.json).toEqual({
      jsonrpc: "2.0",
      id: "listen-1",
      result: { resultType: "complete", _meta: { [SUBSCRIPTION_ID]: "listen-1", "io.modelcontextprotocol/serverInfo": server.identity } },
    });
    expect(await stream.next()).toBeUndefined();
  });

  it("refuses a listen stream beyond the hub's limit with 429 -31003 naming the limit", async () => {
    const hub = shard();
    const call = { server, notifications: { resourceSubscriptions: [fresh()] }, options: { maxStreams: 2 }, features: { shard: hub } };
    const open = [await openListen(call), await openListen(call)];
    const refused = await listen({ ...call, id: 3 });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: { code: -31003, message: "Too many listen streams on this server (limit 2); close one, or retry later" },
    });
    await Promise.all(open.map((o) => o.stream.cancel()));
  });

  it("serves a new stream again after the server closed the others", async () => {
    const hub = shard();
    const call = { server, notifications: { resourceSubscriptions: [fresh()] }, options: { maxStreams: 1 }, features: { shard: hub } };
    const first = await openListen(call);
    await closeListenStreams(edgeEnv, { shard: hub });
    await first.stream.all();
    const second = await openListen(call);
    await second.stream.cancel();
  });
});

describe("subscriptions/listen: bad params get -32602 with the listen request's id", () => {
  const cases: [string, unknown, string][] = [
    [
      "no notifications",
      undefined,
      'subscriptions/listen: params.notifications is required: an object naming the notifications to receive, e.g. {"toolsListChanged": true}',
    ],
    [
      "notifications is an array",
      [],
      'subscriptions/listen: params.notifications is required: an object naming the notifications to receive, e.g. {"toolsListChanged": true}',
    ],
    ["a flag that is not a boolean", { toolsListChanged: "yes" }, "subscriptions/listen: notifications.toolsListChanged must be a boolean"],
    [
      "resourceSubscriptions not an array",
      { resourceSubscriptions: "file:///a" },
      "subscriptions/listen: notifications.resourceSubscriptions must be an array of strings",
    ],
    [
      "a URI that is not a string",
      { resourceSubscriptions: ["file:///a", 3] },
      "subscriptions/listen: notifications.resourceSubscriptions[1] must be a string",
    ],
    [
      "a URI without a scheme",
      { resourceSubscriptions: ["config.json"] },
      'subscriptions/listen: notifications.resourceSubscriptions[0] is not a URI (it needs a scheme, e.g. "file:///project/config.json")',
    ],
    [
      "a URI over 8,192 characters",
      { resourceSubscriptions: ["file:///" + "x".repeat(8185)] },
      "subscriptions/listen: notifications.resourceSubscriptions[0] is 8193 characters long; at most 8192 can be subscribed to",
    ],
    [
      "more URIs than the limit",
      { resourceSubscriptions: Array.from({ length: 1001 }, (_, i) => `file:///${i}`) },
      "subscriptions/listen: notifications.resourceSubscriptions names 1001 entries; at most 1000 are allowed on one stream",
    ],
    [
      "more than 65,536 characters of URIs on one stream",
      { resourceSubscriptions: Array.from({ length: 9 }, (_, i) => `file:///${i}/${"x".repeat(8000)}`) },
      "subscriptions/listen: the URIs and task ids of one stream come to 72090 characters; at most 65536 are allowed (split them over several streams)",
    ],
    [
      "taskIds with an empty id",
      { taskIds: [""] },
      "subscriptions/listen: notifications.taskIds[0] must be a task id of 1 to 256 characters",
    ],
  ];
  it.each(cases)("%s", async (_name, notifications, message) => {
    const res = await listen({ server, id: "bad", notifications });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ jsonrpc: "2.0", id: "bad", error: { code: -32602, message } });
  });
});

describe("subscriptions/listen: task status (tasks extension)", () => {
  const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };
  const task = (taskId: string) => ({
    taskId,
    status: "completed",
    createdAt: "2026-07-28T10:30:00Z",
    lastUpdatedAt: "2026-07-28T10:50:00Z",
    ttlMs: 60000,
  });

  it("omits taskIds from the acknowledgement when the server does not serve tasks", async () => {
    const uri = fresh();
    const { stream, ack } = await openListen({ server, notifications: { taskIds: ["t1"], resourceSubscriptions: [uri] } });
    expect((ack.params as { notifications: unknown }).notifications).toEqual({ resourceSubscriptions: [uri] });
    await stream.cancel();
  });

  it("refuses taskIds with 400 -32021 when the request did not declare the tasks extension", async () => {
    const res = await listen({ server, id: 12, notifications: { taskIds: ["t1"] }, features: { tasks: true } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      jsonrpc: "2.0",
      id: 12,
      error: {
        code: -32021,
        message:
          "Missing required client capability: notifications.taskIds needs the io.modelcontextprotocol/tasks extension declared in this request's clientCapabilities",
        data: { requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } },
      },
    });
  });

  it("delivers notifications/tasks only for the named task ids, and only to the task owner's streams", async () => {
    // A real task of alice's (listen acknowledges only task ids its principal may see), and an id of no task.
    const alice = { subject: "alice", scopes: [], claims: {} };
    const created = await createTask(server, edgeEnv, {
      tool: "slow_compute",
      args: { seconds: 0 },
      principal: alice,
      clientCapabilities: TASKS,
    });
    const mine = created.taskId as string;
    const other = crypto.randomUUID();
    const features = { tasks: true, shard: shard() };
    const owner = await openListen({
      server,
      id: "owner",
      notifications: { taskIds: [mine] },
      capabilities: TASKS,
      subject: "alice",
      features,
    });
    const stranger = await openListen({
      server,
      id: "stranger",
      notifications: { taskIds: [mine] },
      capabilities: TASKS,
      subject: "mallory",
      features,
    });
    expect((owner.ack.params as { notifications: unknown }).notifications).toEqual({ taskIds: [mine] });
    // mallory may not follow alice's task: her stream is acknowledged without it.
    expect((stranger.ack.params as { notifications: unknown }).notifications).toEqual({ taskIds: [] });

    const on = { shard: features.shard };
    expect(await publishAndCount(edgeEnv, { type: "taskStatus", task: task(other), owner: "alice" }, on)).toEqual({
      listenStreams: 0,
      sessions: 0,
    });
    expect(await publishAndCount(edgeEnv, { type: "taskStatus", task: task(mine), owner: "alice" }, on)).toEqual({
      listenStreams: 1,
      sessions: 0,
    });
    expect((await owner.stream.next())?.json).toEqual({
      jsonrpc: "2.0",
      method: "notifications/tasks",
      params: { ...task(mine), _meta: { [SUBSCRIPTION_ID]: "owner" } },
    });

    // The stranger's stream carried nothing: the first event it sees is its closing result.
    expect(await closeListenStreams(edgeEnv, on)).toBe(2);
    expect((await stranger.stream.next())?.json).toMatchObject({ id: "stranger", result: { resultType: "complete" } });
    await owner.stream.cancel();
  });
});

describe("publish: input checks", () => {
  it("refuses a URI longer than any subscription can be with -32602, before reaching the hub", async () => {
    await expect(publish(edgeEnv, { type: "resourceUpdated", uri: "test://" + "x".repeat(8200) })).rejects.toMatchObject({ code: -32602 });
  });

  it("refuses an unknown list kind with a TypeError naming the kinds", async () => {
    await expect(publish(edgeEnv, { type: "listChanged", list: "widgets" as "tools" })).rejects.toThrow(
      /"tools", "resources" or "prompts"/,
    );
  });
});

describe("a server without the MCP_HUB binding", () => {
  const noHub: EdgeEnv = { MCP_SESSION: edgeEnv.MCP_SESSION };
  it("fails publish with an error that quotes the wrangler.toml lines to add (local development)", async () => {
    await expect(publish(disclosingEnv(noHub), { type: "listChanged", list: "tools" })).rejects.toThrow(
      /publish needs the MCP_HUB Durable Object binding[\s\S]*name = "MCP_HUB"\nclass_name = "McpHub"[\s\S]*new_sqlite_classes = \["McpHub"\]/,
    );
  });

  it("fails serveListen for task ids the same way, naming subscriptions/listen", async () => {
    const withTasks: EdgeEnv = { ...noHub, MCP_TASK: edgeEnv.MCP_TASK };
    const capabilities = { extensions: { "io.modelcontextprotocol/tasks": {} } };
    await expect(
      serveListen(
        {
          message: { id: 1, params: { notifications: { taskIds: ["ab".repeat(32)] } } },
          clientCapabilities: capabilities,
          env: disclosingEnv(withTasks),
          runtime: { server, options: { listen: resolveListenOptions() } },
          subject: undefined,
        },
        { tasks: true },
      ),
    ).rejects.toThrow(/subscriptions\/listen needs the MCP_HUB Durable Object binding/);
  });

  it("names neither the binding nor the class to a deployed Worker's caller, only the log's reference", async () => {
    const error = (await publish(noHub, { type: "listChanged", list: "tools" }).then(
      () => new Error("publish succeeded"),
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toMatch(/^Server misconfigured: .* reference misconfigured-[0-9a-f]{8}\.$/);
    expect(error.message).not.toMatch(/MCP_HUB|McpHub|wrangler/);
  });
});
