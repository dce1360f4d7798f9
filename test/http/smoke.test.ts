import { describe, expect, it } from "vitest";
import { openSession, call, post, request } from "../helpers/mcp";

describe("smoke", () => {
  it("initializes a session and answers ping in the Worker", async () => {
    const { sessionId, version } = await openSession();
    expect(sessionId).toMatch(/^[0-9a-f]{64}$/);
    expect(await call(sessionId, version, "ping")).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });

  it("serves deferred sessions at /deferred/mcp: a sealed session id, then ping and DELETE as usual", async () => {
    const url = "http://127.0.0.1:8787/deferred/mcp";
    const init = await post(
      {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "s", version: "1" } },
      },
      { url },
    );
    const sessionId = init.headers.get("Mcp-Session-Id") ?? "";
    await init.text();
    expect(sessionId).toMatch(/^[0-9a-f]{64}\.[A-Za-z0-9_-]+$/);
    const s = { sessionId, version: "2025-11-25", url };
    expect(await (await post({ jsonrpc: "2.0", id: 1, method: "ping" }, s)).json()).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    // The same id on /mcp (no sealer there) names no session.
    expect((await post({ jsonrpc: "2.0", id: 2, method: "ping" }, { sessionId, version: "2025-11-25" })).status).toBe(404);
    const ended = await request(url, { method: "DELETE", headers: { "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "2025-11-25" } });
    expect(ended.status).toBe(204);
    expect((await post({ jsonrpc: "2.0", id: 3, method: "ping" }, s)).status).toBe(404);
  });
});
