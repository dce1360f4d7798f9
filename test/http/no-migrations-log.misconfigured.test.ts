/**
 * What `wrangler dev` prints when a binding lacks its migration: workerd logs its own errors for
 * it first, at length ("The storage.kv (synchronous KV) API is only available for SQLite-backed
 * Durable Objects", "SQL is not enabled for this Durable Object class"); mcp-edge's one line then
 * names those errors as this mistake and gives the lines to add, so the reader needs no other fix.
 */
import { describe, expect, it, vi } from "vitest";
import { initializeParams, post } from "../helpers/mcp";

describe("the log line of a binding without its migration", { timeout: 30_000 }, () => {
  it("names workerd's errors for it and the migration that fixes them", async () => {
    const logged = vi.spyOn(console, "error");
    try {
      const res = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams() });
      expect(res.status).toBe(500);
      const lines = logged.mock.calls.map((args) => String(args[0])).filter((line) => line.startsWith("mcp-edge: [misconfigured-"));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('new_sqlite_classes = ["McpSession"]');
      expect(lines[0]).toContain(
        'workerd reports this same mistake as "The storage.kv (synchronous KV) API is only available for SQLite-backed Durable Objects" or "SQL is not enabled for this Durable Object class": the migration above is the whole fix.',
      );
    } finally {
      logged.mockRestore();
    }
  });
});
