/**
 * The router's last resort: a failure nothing else answered (here a session object whose every
 * call rejects, as one that failed or was reset mid-request does) is 500, -32603 "Internal error",
 * with the request's id where the body gave one and the reference of the log line, never its text.
 */
import { describe, expect, it, vi } from "vitest";
import { createMcpEdge } from "../../src/edge";
import { demoServer } from "../../src/demo/server";
import { initializeParams } from "../helpers/mcp";

const edge = createMcpEdge(demoServer);

/** A session namespace whose objects fail every call with an internal detail the client must not see. */
const failingNamespace = {
  idFromName: () => ({ toString: () => "ab".repeat(32) }),
  idFromString: () => ({ toString: () => "ab".repeat(32) }),
  newUniqueId: () => ({ toString: () => "ab".repeat(32) }),
  // Every method of its stubs (fetch, and the RPC methods) rejects.
  get: () => new Proxy({}, { get: () => () => Promise.reject(new Error("object reset: secret-internal-detail")) }),
};

function send(method: string, init: RequestInit): Promise<Response> {
  return edge.worker.fetch!(
    new Request("http://127.0.0.1/mcp", { method, ...init }) as never,
    { MCP_SESSION: failingNamespace } as never,
    {} as ExecutionContext,
  ) as Promise<Response>;
}

describe("a failure nothing else answered", () => {
  it("answers a POST with 500, -32603, its id and the log line's reference", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const res = await send("POST", {
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: "init-1", method: "initialize", params: initializeParams() }),
      });
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(text).not.toContain("secret-internal-detail");
      const body = JSON.parse(text) as { id: unknown; error: { code: number; message: string; data: { reference: string } } };
      expect(body).toMatchObject({ id: "init-1", error: { code: -32603, message: "Internal error" } });
      const logged = errors.mock.calls.map((call) => call.map(String).join(" ")).join("\n");
      expect(logged).toContain(`reference ${body.error.data.reference}`);
      expect(logged).toContain("secret-internal-detail");
    } finally {
      errors.mockRestore();
    }
  });

  it("answers a GET (no id to read) with 500, -32603, id null and the reference", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const res = await send("GET", { headers: { Accept: "text/event-stream", "Mcp-Session-Id": "ab".repeat(32) } });
      expect(res.status).toBe(500);
      const body = (await res.json()) as { id: unknown; error: { code: number; data: { reference: string } } };
      expect(body.id).toBeNull();
      expect(body.error.code).toBe(-32603);
      expect(body.error.data.reference).toMatch(/^[0-9a-f]{8}$/);
    } finally {
      errors.mockRestore();
    }
  });
});
