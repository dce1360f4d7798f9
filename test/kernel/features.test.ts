/**
 * The one Feature shape (src/kernel/feature.ts) as a user plugs in: features passed to createMcpEdge
 * add methods and extensions to that edge only, answer requests with a stream of their own in both
 * eras, fill seams (`ctx.user`, the task lane), and bring exactly their object classes (`edge.objects`).
 */
import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createMcpEdge } from "../../src/edge";
import { defineServer } from "../../src/mcp/definition/server";
import { defineMethod } from "../../src/mcp/handlers/methods";
import type { Feature } from "../../src/kernel/feature";
import { deferredSessions, sessions } from "../../src/features/sessions/index";
import { tasks } from "../../src/features/tasks/index";
import { hub } from "../../src/features/hub/index";
import { user } from "../../src/features/user/index";
import type { EdgeEnv } from "../../src/http/runtime";
import { ACCEPT_BOTH, initializeParams } from "../helpers/mcp";
import { envelope, headers2026 } from "../helpers/era-2026";

const PING_EXT = "com.example/ping";
const ping = defineMethod("com.example/ping", { extension: PING_EXT, params: { n: z.number().int() } }, ({ n }) => ({ pong: n + 1 }));

/** A user's own feature: one method, its extension, and a held stream of its own. */
function pingFeature(): Feature {
  return {
    name: "com.example/ping",
    methods: [ping],
    extensions: { [PING_EXT]: { version: 2 } },
    streams: {
      "com.example/watch": async (call) =>
        new Response(`data: ${JSON.stringify({ id: call.id, era: call.era, caps: call.clientCapabilities ?? null })}\n\n`, {
          headers: { "Content-Type": "text/event-stream" },
        }),
    },
  };
}

function serverOf() {
  return defineServer({ name: "kernel-test", version: "1.0.0" }).tool("echo", { description: "Echo" }, () => ({
    content: [{ type: "text", text: "hi" }],
  }));
}

function post2026To(
  edge: { worker: { fetch: (r: Request, e: unknown, c: ExecutionContext) => Promise<Response> } },
  method: string,
  params: Record<string, unknown>,
  caps = {},
): Promise<Response> {
  const request = new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, ...headers2026(method, params) },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params: { ...params, _meta: envelope(caps) } }),
  });
  return edge.worker.fetch(request, env, createExecutionContext());
}

describe("features passed to createMcpEdge", () => {
  it("refuse sessions({ deferred }) with a TypeError naming deferredSessions(), whose edge mints sealed ids", async () => {
    expect(() => sessions({ deferred: true } as never)).toThrow(/deferredSessions\(\{ … \}\)/);
    const initialize = async (features: Feature[]) => {
      const res = await createMcpEdge(serverOf(), { features }).worker.fetch(
        new Request("http://127.0.0.1/mcp", {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH },
          body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2025-11-25") }),
        }),
        env,
        createExecutionContext(),
      );
      expect(res.status).toBe(200);
      return res.headers.get("Mcp-Session-Id") ?? "";
    };
    // A deferred id is the object id, ".", and the seal; sessions() answers the bare object id.
    expect(await initialize([deferredSessions()])).toMatch(/^[0-9a-f]{64}\.[A-Za-z0-9_-]+$/);
    expect(await initialize([sessions()])).toMatch(/^[0-9a-f]{64}$/);
  });

  it("hand back exactly their object classes in edge.objects, and none without features", () => {
    const edge = createMcpEdge(serverOf(), { features: [sessions(), tasks(), hub(), user()] });
    expect(Object.keys(edge.objects).sort()).toEqual(["McpHub", "McpSession", "McpTask", "McpUser"]);
    expect(Object.keys(createMcpEdge(serverOf(), { features: [tasks()] }).objects)).toEqual(["McpTask"]);
    expect(createMcpEdge(serverOf()).objects).toEqual({});
  });

  it("serve a feature's method on its edge only: another edge of the same server answers -32601", async () => {
    const server = serverOf();
    const withPing = createMcpEdge(server, { features: [pingFeature()] });
    const without = createMcpEdge(server, { features: [] });
    const caps = { extensions: { [PING_EXT]: {} } };
    const answered = (await (await post2026To(withPing, "com.example/ping", { n: 41 }, caps)).json()) as { result: { pong: number } };
    expect(answered.result.pong).toBe(42);
    const refused = await post2026To(without, "com.example/ping", { n: 41 }, caps);
    expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(-32601);
    // And the declaration follows: server/discover lists the extension on one edge only.
    const discover = async (edge: typeof withPing) =>
      ((await (await post2026To(edge, "server/discover", {})).json()) as { result: { capabilities: { extensions?: object } } }).result
        .capabilities.extensions ?? {};
    expect(await discover(withPing)).toHaveProperty([PING_EXT], { version: 2 });
    expect(await discover(without)).not.toHaveProperty([PING_EXT]);
  });

  it("serve what the definition registers after createMcpEdge on an edge whose features add methods too", async () => {
    const server = serverOf();
    const withPing = createMcpEdge(server, { features: [pingFeature()] });
    const LATE_EXT = "com.example/late";
    server.add(defineMethod("com.example/late", { extension: LATE_EXT, params: { n: z.number() } }, ({ n }) => ({ twice: n * 2 })));
    const caps = { extensions: { [PING_EXT]: {}, [LATE_EXT]: {} } };
    const late = (await (await post2026To(withPing, "com.example/late", { n: 4 }, caps)).json()) as { result: { twice: number } };
    expect(late.result.twice).toBe(8);
    const pinged = (await (await post2026To(withPing, "com.example/ping", { n: 1 }, caps)).json()) as { result: { pong: number } };
    expect(pinged.result.pong).toBe(2);
  });

  it("find a feature's stream lane by its own keys only: a method named constructor is -32601, not a crash", async () => {
    const edge = createMcpEdge(serverOf(), { features: [pingFeature()] });
    for (const method of ["constructor", "toString", "__proto__"]) {
      const res = await post2026To(edge, method, {});
      expect(((await res.json()) as { error: { code: number } }).error.code, method).toBe(-32601);
    }
  });

  it("validate a feature method's params with its schema: -32602 naming the field", async () => {
    const edge = createMcpEdge(serverOf(), { features: [pingFeature()] });
    const res = await post2026To(edge, "com.example/ping", { n: "x" }, { extensions: { [PING_EXT]: {} } });
    const body = (await res.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32602);
    expect(body.error.message).toContain("n");
  });

  it("answer a feature's stream method with the feature's own Response, in the 2026 era", async () => {
    const edge = createMcpEdge(serverOf(), { features: [pingFeature()] });
    const res = await post2026To(edge, "com.example/watch", {}, { extensions: { [PING_EXT]: {} } });
    expect(res.headers.get("Content-Type")).toBe("text/event-stream");
    expect(await res.text()).toBe(`data: ${JSON.stringify({ id: 7, era: "2026", caps: { extensions: { [PING_EXT]: {} } } })}\n\n`);
  });

  it("answer a feature's stream method in a 2025 session with the session's capabilities (and 404 for an unknown session)", async () => {
    const edge = createMcpEdge(serverOf(), { features: [sessions(), pingFeature()] });
    const fetch = (body: unknown, headers: Record<string, string> = {}) =>
      edge.worker.fetch(
        new Request("http://127.0.0.1/mcp", {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, ...headers },
          body: JSON.stringify(body),
        }),
        env as EdgeEnv,
        createExecutionContext(),
      );
    const caps = { roots: {}, extensions: { [PING_EXT]: {} } };
    const init = await fetch({ jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2025-11-25", caps) });
    const sessionId = init.headers.get("Mcp-Session-Id") as string;
    expect(sessionId).toBeTruthy();
    const session = { "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "2025-11-25" };
    const res = await fetch({ jsonrpc: "2.0", id: "w", method: "com.example/watch", params: {} }, session);
    expect(await res.text()).toBe(`data: ${JSON.stringify({ id: "w", era: "2025", caps })}\n\n`);
    const unknown = await fetch(
      { jsonrpc: "2.0", id: 1, method: "com.example/watch", params: {} },
      { ...session, "Mcp-Session-Id": "f".repeat(64) },
    );
    expect(unknown.status).toBe(404);
  });

  it("refuse a list that is not one, a name given twice, two features for one seam or one object name", () => {
    const server = serverOf();
    expect(() => createMcpEdge(server, { features: {} as never })).toThrow(/features must be a list/);
    expect(() => createMcpEdge(server, { features: [tasks(), tasks()] })).toThrow(/"tasks" is given twice/);
    const otherUsers: Feature = { name: "my-users", seams: { users: () => ({}) as never } };
    expect(() => createMcpEdge(server, { features: [user(), otherUsers] })).toThrow(/"my-users" and "user" both serve users/);
    const otherHub: Feature = { name: "my-hub", objects: () => ({ McpHub: class {} as never }) };
    expect(() => createMcpEdge(server, { features: [hub(), otherHub] })).toThrow(/two features bring the object class McpHub/);
  });

  it("decide session mode: sessions() among the features, and the sessions option refused beside them", async () => {
    expect(() => createMcpEdge(serverOf(), { features: [], sessions: true })).toThrow(/with features, session mode is sessions\(\)/);
    expect(() => createMcpEdge(serverOf(), { features: [sessions({ idleTimeoutMs: 1000 })], session: {} })).toThrow(
      /session: give it once/,
    );
    // A stateless edge (no sessions()): initialize gets no session id.
    const stateless = createMcpEdge(serverOf(), { features: [] });
    const res = await stateless.worker.fetch(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH },
        body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2025-11-25") }),
      }),
      env,
      createExecutionContext(),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("Mcp-Session-Id")).toBeNull();
  });

  it("serve ctx.user only with user(): without it a handler's use names the feature to add", async () => {
    const server = defineServer({ name: "u", version: "1.0.0" }).tool("who", { description: "Reads ctx.user" }, async (_args, ctx) => {
      try {
        return { content: [{ type: "text", text: ctx.user.subject }] };
      } catch (error) {
        return { content: [{ type: "text", text: (error as Error).message }], isError: true };
      }
    });
    const res = await post2026To(createMcpEdge(server, { features: [] }), "tools/call", { name: "who", arguments: {} });
    const body = (await res.json()) as { result: { content: { text: string }[] } };
    expect(body.result.content[0]?.text).toContain("served by the user() feature");
  });

  it("leave ctx.user inert without user(): logging or serialising the context does not throw, and a read rejects naming the feature", async () => {
    const server = defineServer({ name: "u2", version: "1.0.0" }).tool(
      "log",
      { description: "Serialises ctx.user" },
      async (_args, ctx) => {
        const shown = JSON.stringify({ user: ctx.user });
        const read = await ctx.user.get("k").then(
          () => "read",
          (error: Error) => error.message,
        );
        return { content: [{ type: "text", text: `${shown} ${read}` }] };
      },
    );
    const res = await post2026To(createMcpEdge(server, { features: [] }), "tools/call", { name: "log", arguments: {} });
    const body = (await res.json()) as { result: { content: { text: string }[]; isError?: boolean } };
    expect(body.result.isError).toBeUndefined();
    expect(body.result.content[0]?.text).toContain("not served");
    expect(body.result.content[0]?.text).toContain("served by the user() feature");
  });

  it("declare resource subscriptions and list changes to a 2025 session only where the hub can deliver them (hub() and MCP_HUB bound)", async () => {
    const server = defineServer({ name: "lists", version: "1.0.0", listChanged: true }).resource("note://a", { name: "a" }, (uri) => ({
      uri,
      text: "a",
    }));
    const initialize = async (features: Feature[], workerEnv: unknown) => {
      const res = await createMcpEdge(server, { features }).worker.fetch(
        new Request("http://127.0.0.1/mcp", {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH },
          body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2025-11-25") }),
        }),
        workerEnv as never,
        createExecutionContext(),
      );
      expect(res.status).toBe(200);
      return ((await res.json()) as { result: { capabilities: { resources: unknown } } }).result.capabilities.resources;
    };
    const { MCP_HUB: _hub, ...withoutHub } = env as unknown as Record<string, unknown>;
    expect(await initialize([sessions()], withoutHub)).toEqual({ subscribe: false, listChanged: false });
    // The binding alone delivers nothing: without hub() the session has no link to it (its listen is the empty set too).
    expect(await initialize([sessions()], env)).toEqual({ subscribe: false, listChanged: false });
    expect(await initialize([sessions(), hub()], env)).toEqual({ subscribe: true, listChanged: true });
  });

  it("offer resource subscriptions and list changes in a 2026 server/discover only where the hub serves listen (hub() and MCP_HUB bound)", async () => {
    const server = defineServer({ name: "lists", version: "1.0.0", listChanged: true }).resource("note://a", { name: "a" }, (uri) => ({
      uri,
      text: "a",
    }));
    const discovered = async (features: Feature[]) => {
      const res = await post2026To(createMcpEdge(server, { features }), "server/discover", {});
      expect(res.status).toBe(200);
      return ((await res.json()) as { result: { capabilities: { resources: unknown } } }).result.capabilities.resources;
    };
    // MCP_HUB is bound here: without hub() its listen answers the empty set, so discover offers nothing to listen for.
    expect(await discovered([])).toEqual({ subscribe: false, listChanged: false });
    expect(await discovered([hub()])).toEqual({ subscribe: true, listChanged: true });
  });
});
