/**
 * A Worker deployed without one of its Durable Object bindings: the request that needs it gets a
 * -32603 with its own id, never a bare "Internal error". Local development (a loopback host) reads
 * the wrangler.toml lines to add; a deployed Worker's client reads a generic message and the
 * reference of the log line that has them (docs/errors.md "Misconfiguration"). The session
 * binding is checked at the first request on the session endpoint whatever its era, so a 2026-07-28
 * client hears it too; the task and hub bindings where a request first needs them. (A binding
 * without its migration: test/servers/misconfigured.)
 */
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import wranglerAuthToml from "../../wrangler.auth.toml?raw";
import wranglerToml from "../../wrangler.toml?raw";
import { createMcpEdge } from "../../src/edge";
import { demoServer } from "../../src/demo/server";
import { initializeParams } from "../helpers/mcp";
import { envelope, expectComplete, headers2026 } from "../helpers/era-2026";

const edge = createMcpEdge(demoServer, { allowedHosts: ["mcp.example.com"] });
const NO_BINDINGS = {} as never;
const DEPLOYED = "http://mcp.example.com/mcp";

function send(body: unknown, headers: Record<string, string> = {}, url = "http://127.0.0.1/mcp"): Promise<Response> {
  return edge.worker.fetch!(
    new Request(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(body),
    }) as never,
    NO_BINDINGS,
    {} as ExecutionContext,
  ) as Promise<Response>;
}

describe("session mode without the MCP_SESSION binding", () => {
  it("answers initialize with 500, its id and the wrangler.toml lines to add (local development)", async () => {
    const res = await send({ jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams() });
    expect(res.status).toBe(500);
    const body = (await res.json()) as {
      id: unknown;
      error: { code: number; message: string; data: { missingBinding: string; wranglerToml: string } };
    };
    expect(body.id).toBe(1);
    expect(body.error.code).toBe(-32603);
    expect(body.error.message).toContain('name = "MCP_SESSION"');
    expect(body.error.data.missingBinding).toBe("MCP_SESSION");
    expect(body.error.data.wranglerToml).toContain('new_sqlite_classes = ["McpSession"]');
  });

  it("tells a deployed Worker's client only a generic message and the reference of the log line", async () => {
    const errors = vi.spyOn(console, "error");
    const res = await send({ jsonrpc: "2.0", id: "init-7", method: "initialize", params: initializeParams() }, {}, DEPLOYED);
    expect(res.status).toBe(500);
    const text = await res.text();
    for (const internal of ["MCP_SESSION", "McpSession", "wrangler", "durable_objects", "migrations"]) expect(text).not.toContain(internal);
    const body = JSON.parse(text) as { id: unknown; error: { code: number; message: string; data: { reference: string } } };
    expect(body.id).toBe("init-7");
    expect(body.error.code).toBe(-32603);
    expect(body.error.message).toContain("Server misconfigured");
    expect(body.error.message).toContain(body.error.data.reference);
    // The log line (once per isolate, maybe by an earlier test) holds the fix under the same reference.
    const logged = [...errors.mock.calls].map((c) => String(c[0]));
    errors.mockRestore();
    const local = (await (await send({ jsonrpc: "2.0", id: 2, method: "initialize", params: initializeParams() })).json()) as {
      error: { data: { reference: string } };
    };
    expect(local.error.data.reference).toBe(body.error.data.reference);
    expect(logged.every((line) => !line.includes(body.error.data.reference) || line.includes('name = "MCP_SESSION"'))).toBe(true);
  });

  it("answers a GET on the endpoint the same way", async () => {
    const res = await edge.worker.fetch!(
      new Request("http://127.0.0.1/mcp", {
        method: "GET",
        headers: { Accept: "text/event-stream", "Mcp-Session-Id": "ab".repeat(32) },
      }) as never,
      NO_BINDINGS,
      {} as ExecutionContext,
    );
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("[[durable_objects.bindings]]");
  });

  it("answers a 2026-07-28 request on the session endpoint the same way (the deployment hears it from its first client)", async () => {
    const params = { _meta: envelope() };
    const res = await send({ jsonrpc: "2.0", id: 1, method: "tools/list", params }, headers2026("tools/list", params));
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error: { code: number; message: string; data: { missingBinding: string } } };
    expect(body.error.code).toBe(-32603);
    expect(body.error.data.missingBinding).toBe("MCP_SESSION");
    expect(body.error.message).toContain('new_sqlite_classes = ["McpSession"]');
  });

  it("still serves the stateless endpoint and a 2026-07-28-only server, which have no sessions", async () => {
    const stateless = createMcpEdge(demoServer, { sessions: false });
    const params = { _meta: envelope() };
    const res = await stateless.worker.fetch!(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          ...headers2026("tools/list", params),
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params }),
      }) as never,
      NO_BINDINGS,
      {} as ExecutionContext,
    );
    expect(Array.isArray((await expectComplete(res)).tools)).toBe(true);
  });
});

describe("the task and hub bindings, checked where a request first needs them", () => {
  const TASKS = "io.modelcontextprotocol/tasks";
  const only = (names: string[]) => Object.fromEntries(names.map((n) => [n, (env as Record<string, unknown>)[n]])) as never;

  function call(method: string, params: Record<string, unknown>, bindings: never, id = 3, url = "http://127.0.0.1/mcp"): Promise<Response> {
    const full = { ...params, _meta: envelope({ extensions: { [TASKS]: {} } }) };
    const headers: Record<string, string> = { ...headers2026(method, full) };
    if (typeof params.taskId === "string") headers["Mcp-Name"] = params.taskId;
    return edge.worker.fetch!(
      new Request(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify({ jsonrpc: "2.0", id, method, params: full }),
      }) as never,
      bindings,
      {} as ExecutionContext,
    ) as Promise<Response>;
  }

  it("answers a task-creating call and tasks/get without MCP_TASK with -32603 naming its lines, and the request id", async () => {
    const bindings = only(["MCP_SESSION", "MCP_HUB"]);
    for (const [method, params] of [
      ["tools/call", { name: "slow_compute", arguments: { seconds: 0 } }],
      ["tasks/get", { taskId: "ab".repeat(32) }],
    ] as const) {
      const body = (await (await call(method, params, bindings)).json()) as {
        id: unknown;
        error: { code: number; message: string; data: { missingBinding: string; wranglerToml: string } };
      };
      expect(body.id, method).toBe(3);
      expect(body.error.code, method).toBe(-32603);
      expect(body.error.data.missingBinding).toBe("MCP_TASK");
      expect(body.error.message).toContain("export const { McpTask } = edge.objects; (with tasks() in createMcpEdge's features)");
      expect(body.error.data.wranglerToml).toContain('new_sqlite_classes = ["McpTask"]');
    }
  });

  it("acknowledges a listen for list changes and resources without MCP_HUB with the empty set, as server/discover declares", async () => {
    const bindings = only(["MCP_SESSION", "MCP_TASK"]);
    const discovered = (await (await call("server/discover", {}, bindings, 1)).json()) as {
      result: { capabilities: { tools: { listChanged: boolean }; resources: { subscribe: boolean } } };
    };
    expect(discovered.result.capabilities.tools.listChanged).toBe(false);
    expect(discovered.result.capabilities.resources.subscribe).toBe(false);
    const notifications = { toolsListChanged: true, resourceSubscriptions: ["demo://x"] };
    const res = await call("subscriptions/listen", { notifications }, bindings, 2);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('"method":"notifications/subscriptions/acknowledged"');
    expect(text).toContain('"notifications":{}');
    expect(text).toContain('"resultType":"complete"');
  });

  it("answers subscriptions/listen for task ids without MCP_HUB with 500, the request id and its lines", async () => {
    const res = await call("subscriptions/listen", { notifications: { taskIds: ["ab".repeat(32)] } }, only(["MCP_SESSION", "MCP_TASK"]));
    expect(res.status).toBe(500);
    const body = (await res.json()) as { id: unknown; error: { code: number; message: string; data: { missingBinding: string } } };
    expect(body.id).toBe(3);
    expect(body.error.code).toBe(-32603);
    expect(body.error.data.missingBinding).toBe("MCP_HUB");
    expect(body.error.message).toContain('class_name = "McpHub"');
  });

  it("answers the same listen of a deployed Worker's client with the id and no binding or class name", async () => {
    const res = await call(
      "subscriptions/listen",
      { notifications: { taskIds: ["ab".repeat(32)] } },
      only(["MCP_SESSION", "MCP_TASK"]),
      4,
      DEPLOYED,
    );
    expect(res.status).toBe(500);
    const text = await res.text();
    for (const internal of ["MCP_HUB", "McpHub", "wrangler", "durable_objects"]) expect(text).not.toContain(internal);
    const body = JSON.parse(text) as { id: unknown; error: { code: number; data: { reference: string } } };
    expect(body.id).toBe(4);
    expect(body.error.code).toBe(-32603);
    expect(body.error.data.reference).toMatch(/^misconfigured-[0-9a-f]{8}$/);
  });

  it("answers a deployed Worker's task call without MCP_TASK with -32603, the id and only the reference", async () => {
    const res = await call("tasks/get", { taskId: "ab".repeat(32) }, only(["MCP_SESSION", "MCP_HUB"]), 5, DEPLOYED);
    const text = await res.text();
    for (const internal of ["MCP_TASK", "McpTask", "wrangler"]) expect(text).not.toContain(internal);
    const body = JSON.parse(text) as { id: unknown; error: { code: number; data: { reference: string } } };
    expect(body.id).toBe(5);
    expect(body.error.code).toBe(-32603);
    expect(body.error.data.reference).toMatch(/^misconfigured-/);
  });
});

describe("the demo's wrangler configurations", () => {
  /** Each Durable Object binding's class, and the classes the migrations create with SQLite. */
  function objectsOf(toml: string): { bindings: Record<string, string>; sqlite: string[] } {
    const bindings: Record<string, string> = {};
    for (const m of toml.matchAll(/\[\[durable_objects\.bindings\]\]\s*name = "([^"]+)"\s*class_name = "([^"]+)"/g)) {
      bindings[m[1] as string] = m[2] as string;
    }
    const sqlite = [...toml.matchAll(/new_sqlite_classes = \[([^\]]*)\]/g)].flatMap((m) =>
      (m[1] as string).split(",").map((c) => c.trim().replace(/"/g, "")),
    );
    return { bindings, sqlite };
  }

  it("bind the session, hub, task and user objects in both the plain and the authenticated demo (and the plain one's events object), each with its SQLite migration", () => {
    for (const [file, toml] of [
      ["wrangler.toml", wranglerToml],
      ["wrangler.auth.toml", wranglerAuthToml],
    ] as const) {
      const { bindings, sqlite } = objectsOf(toml);
      const events = file === "wrangler.toml" ? { MCP_EVENTS: "McpEvents" } : {};
      expect(bindings, file).toEqual({ MCP_SESSION: "McpSession", MCP_HUB: "McpHub", MCP_TASK: "McpTask", MCP_USER: "McpUser", ...events });
      for (const className of Object.values(bindings)) expect(sqlite, `${file}: ${className}`).toContain(className);
    }
  });
});
