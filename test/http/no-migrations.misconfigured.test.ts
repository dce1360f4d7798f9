/**
 * Durable Object bindings without their [[migrations]] (test/servers/misconfigured/wrangler.toml), a
 * user's common slip: workerd then runs each class without SQLite and throws "SQL is not enabled
 * for this Durable Object class" at its first SQL call. Wherever a request first reaches such an
 * object, the answer quotes the migration lines to add, like a missing binding does, never a bare
 * "Internal error".
 */
import { describe, expect, it } from "vitest";
import { initializeParams, post } from "../helpers/mcp";
import { envelope, headers2026 } from "../helpers/era-2026";

const TASKS = "io.modelcontextprotocol/tasks";

interface Reply {
  id?: unknown;
  error?: { code: number; message: string; data?: { missingMigration?: string; binding?: string; wranglerToml?: string } };
}

// Each object's first SQL call fails in workerd only after seconds on a loaded machine.
describe("a binding without its migration", { timeout: 30_000 }, () => {
  it("answers initialize (the session object's first reach) with 500, its id and the McpSession migration (local development)", async () => {
    const res = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams() });
    expect(res.status).toBe(500);
    const body = (await res.json()) as Reply;
    expect(body.id).toBe(1);
    expect(body.error?.code).toBe(-32603);
    expect(body.error?.message).toContain("MCP_SESSION Durable Object binding has no migration");
    expect(body.error?.data).toMatchObject({ missingMigration: "McpSession", binding: "MCP_SESSION" });
    expect(body.error?.data?.wranglerToml).toContain('new_sqlite_classes = ["McpSession"]');
  });

  it("answers a 2026-07-28 task-creating call (the task object's first reach) with -32603 quoting the McpTask migration and the request id", async () => {
    const params = { name: "slow_compute", arguments: { seconds: 0 }, _meta: envelope({ extensions: { [TASKS]: {} } }) };
    const res = await post({ jsonrpc: "2.0", id: 9, method: "tools/call", params }, { headers: headers2026("tools/call", params) });
    const text = await res.text();
    const body = JSON.parse(text) as Reply;
    expect(body.id, text.slice(0, 300)).toBe(9);
    expect(body.error?.code, text.slice(0, 300)).toBe(-32603);
    expect(body.error?.message).toContain('new_sqlite_classes = ["McpTask"]');
    expect(body.error?.data).toMatchObject({ missingMigration: "McpTask", binding: "MCP_TASK" });
  });

  it("answers a deployed Worker's client with its id, a generic message and the log's reference, no class or binding name", async () => {
    const deployed = { url: "http://mcp.example.com/mcp", headers: { Host: "mcp.example.com" } };
    const res = await post({ jsonrpc: "2.0", id: "i-1", method: "initialize", params: initializeParams() }, deployed);
    expect(res.status).toBe(500);
    const text = await res.text();
    for (const internal of ["MCP_SESSION", "McpSession", "migrations", "wrangler", "SQL"]) expect(text).not.toContain(internal);
    const body = JSON.parse(text) as Reply & { error: { data: { reference: string } } };
    expect(body.id).toBe("i-1");
    expect(body.error.code).toBe(-32603);
    expect(body.error.message).toContain(`reference ${body.error.data.reference}`);
  });
});
