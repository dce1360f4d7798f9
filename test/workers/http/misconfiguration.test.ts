/**
 * A Worker deployed without one of its Durable Object bindings: the request that needs it gets a
 * message giving the wrangler.toml lines to add (never a bare "Internal error"). The session
 * binding is checked at the first request on the session endpoint whatever its era, so a 2026-07-28
 * client hears it too; the task and hub bindings where a request first needs them. (A binding
 * without its migration: test/misconfigured.)
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import wranglerAuthToml from "../../../wrangler.auth.toml?raw";
import wranglerToml from "../../../wrangler.toml?raw";
import { createMcpEdge } from "../../../src/edge";
import { demoServer } from "../../../src/demo/server";
import { initializeParams } from "../../helpers/mcp";
import { envelope, expectComplete, modernHeaders } from "../../helpers/modern";

const edge = createMcpEdge(demoServer);
const NO_BINDINGS = {} as never;

function send(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return edge.worker.fetch!(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(body),
    }) as never,
    NO_BINDINGS,
    {} as ExecutionContext,
  ) as Promise<Response>;
}

describe("session mode without the MCP_SESSION binding", () => {
  it("answers initialize with 500 naming the wrangler.toml lines to add", async () => {
    const res = await send({ jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams() });
    expect(res.status).toBe(500);
    const body = (await res.json()) as {
      id: unknown;
      error: { code: number; message: string; data: { missingBinding: string; wranglerToml: string } };
    };
    expect(body.id).toBeNull();
    expect(body.error.code).toBe(-32603);
    expect(body.error.message).toContain('name = "MCP_SESSION"');
    expect(body.error.data.missingBinding).toBe("MCP_SESSION");
    expect(body.error.data.wranglerToml).toContain('new_sqlite_classes = ["McpSession"]');
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
    const res = await send({ jsonrpc: "2.0", id: 1, method: "tools/list", params }, modernHeaders("tools/list", params));
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
          ...modernHeaders("tools/list", params),
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

  function call(method: string, params: Record<string, unknown>, bindings: never, id = 3): Promise<Response> {
    const full = { ...params, _meta: envelope({ extensions: { [TASKS]: {} } }) };
    const headers: Record<string, string> = { ...modernHeaders(method, full) };
    if (typeof params.taskId === "string") headers["Mcp-Name"] = params.taskId;
    return edge.worker.fetch!(
      new Request("http://127.0.0.1/mcp", {
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
      expect(body.error.message).toContain("export const McpTask = edge.TaskObject");
      expect(body.error.data.wranglerToml).toContain('new_sqlite_classes = ["McpTask"]');
    }
  });

  it("answers subscriptions/listen without MCP_HUB with 500 naming its lines", async () => {
    const res = await call("subscriptions/listen", { notifications: { toolsListChanged: true } }, only(["MCP_SESSION", "MCP_TASK"]));
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error: { message: string; data: { missingBinding: string } } };
    expect(body.error.data.missingBinding).toBe("MCP_HUB");
    expect(body.error.message).toContain('class_name = "McpHub"');
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

  it("bind the session, hub, task and user objects in both the plain and the authenticated demo, each with its SQLite migration", () => {
    for (const [file, toml] of [
      ["wrangler.toml", wranglerToml],
      ["wrangler.auth.toml", wranglerAuthToml],
    ] as const) {
      const { bindings, sqlite } = objectsOf(toml);
      expect(bindings, file).toEqual({ MCP_SESSION: "McpSession", MCP_HUB: "McpHub", MCP_TASK: "McpTask", MCP_USER: "McpUser" });
      for (const className of Object.values(bindings)) expect(sqlite, `${file}: ${className}`).toContain(className);
    }
  });
});
