/**
 * The era decision table of docs/eras.md "Protocol eras: 2026-07-28 beside 2025", row by row, through the
 * front door (2026-07-28 basic/versioning.mdx "Backward Compatibility", transports/
 * streamable-http.mdx "Server Validation" and "Protocol Version Header"). A claim in
 * params._meta selects 2026-07-28; everything unclaimed keeps its 2025-era answer.
 */
import { describe, expect, it } from "vitest";
import { MCP, STATELESS, initializeParams, openSession, post, request } from "../helpers/mcp";
import { envelope, expectComplete, expect2026Error, MODERN, post2026 } from "../helpers/era-2026";
import { expectAccepted, expectResult, expectRpcError } from "../helpers/rpc-expect";

describe("2025 era: everything without a claim keeps today's answers", () => {
  it("answers initialize without a claim as a 2025-era handshake with a session id", async () => {
    const res = await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2025-11-25") });
    expect(res.headers.get("Mcp-Session-Id")).toMatch(/^[0-9a-f]{64}$/);
    expect((await expectResult(res, 0)).protocolVersion).toBe("2025-11-25");
  });

  it("treats a batch without claims as 2025 (a 2025-03-26 stateless batch is answered)", async () => {
    const res = await post(
      [
        { jsonrpc: "2.0", id: 1, method: "ping" },
        { jsonrpc: "2.0", id: 2, method: "ping" },
      ],
      { url: STATELESS, version: "2025-03-26" },
    );
    expect(await res.json()).toEqual([
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 2, result: {} },
    ]);
  });

  it("keeps refusing an unsupported 2025-style header on an unclaimed request with 400 -32000", async () => {
    await expectRpcError(await post({ jsonrpc: "2.0", id: 1, method: "ping" }, { version: "1999-01-01" }), 400, -32000, null);
  });

  it("keeps GET and DELETE on the 2025 era (400 without a session id)", async () => {
    await expectRpcError(await request(MCP, { method: "GET", headers: { Accept: "text/event-stream" } }), 400, -32000, null);
  });
});

describe("2026-07-28: a claimed request", () => {
  it("is served statelessly in the Worker, ignoring a stale Mcp-Session-Id and Last-Event-ID", async () => {
    const res = await post2026("tools/list", {}, { headers: { "Mcp-Session-Id": "ab".repeat(32), "Last-Event-ID": "1_1" } });
    expect(res.headers.get("Mcp-Session-Id")).toBeNull();
    const result = await expectComplete(res);
    expect(Array.isArray(result.tools)).toBe(true);
  });

  it("is served the same at the stateless path (sessions: false)", async () => {
    await expectComplete(await post2026("tools/call", { name: "echo", arguments: { text: "hi" } }, { url: STATELESS }));
  });

  it("is refused 400 -32020 without MCP-Protocol-Version (streamable-http.mdx Server Validation)", async () => {
    await expect2026Error(await post2026("tools/list", {}, { omit: ["MCP-Protocol-Version"] }), 400, -32020);
  });

  it("is refused 400 -32020 when MCP-Protocol-Version differs from the claim", async () => {
    await expect2026Error(await post2026("tools/list", {}, { headers: { "MCP-Protocol-Version": "2025-11-25" } }), 400, -32020);
  });

  it("is refused 400 -32020 when Mcp-Method is missing or names another method", async () => {
    await expect2026Error(await post2026("tools/list", {}, { omit: ["Mcp-Method"] }), 400, -32020);
    await expect2026Error(await post2026("tools/list", {}, { headers: { "Mcp-Method": "prompts/list" } }), 400, -32020);
  });

  it("is refused 400 -32020 when Mcp-Name is missing or differs from params.name / params.uri", async () => {
    await expect2026Error(await post2026("tools/call", { name: "echo", arguments: { text: "x" } }, { omit: ["Mcp-Name"] }), 400, -32020);
    await expect2026Error(
      await post2026("tools/call", { name: "echo", arguments: { text: "x" } }, { headers: { "Mcp-Name": "add" } }),
      400,
      -32020,
    );
    await expect2026Error(
      await post2026("resources/read", { uri: "test://static-text" }, { headers: { "Mcp-Name": "test://other" } }),
      400,
      -32020,
    );
  });

  it("accepts a base64-sentinel Mcp-Name that decodes to the body's name (streamable-http.mdx Value Encoding)", async () => {
    const encoded = `=?base64?${btoa("echo")}?=`;
    await expectComplete(await post2026("tools/call", { name: "echo", arguments: { text: "x" } }, { headers: { "Mcp-Name": encoded } }));
  });

  it("is refused 400 -32602 naming the key when clientCapabilities is missing (basic/index.mdx Per-request protocol fields)", async () => {
    const meta = { "io.modelcontextprotocol/protocolVersion": MODERN };
    const body = await expect2026Error(await post2026("server/discover", {}, { meta }), 400, -32602);
    expect(body.error?.message).toContain("io.modelcontextprotocol/clientCapabilities");
  });

  it("is refused 400 -32022 with data.supported and data.requested for a version not served (versioning.mdx)", async () => {
    const meta = envelope({}, { "io.modelcontextprotocol/protocolVersion": "2099-01-01" });
    const body = await expect2026Error(
      await post2026("server/discover", {}, { meta, headers: { "MCP-Protocol-Version": "2099-01-01" } }),
      400,
      -32022,
    );
    expect(body.error?.data).toEqual({
      supported: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
      requested: "2099-01-01",
    });
  });

  it("answers initialize with a claim 404 -32601: 2026-07-28 removed it", async () => {
    await expect2026Error(await post2026("initialize", initializeParams("2025-11-25")), 404, -32601);
  });

  it("answers the removed methods ping, logging/setLevel, resources/subscribe and resources/unsubscribe 404 -32601", async () => {
    for (const method of ["ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"]) {
      await expect2026Error(await post2026(method, { level: "info", uri: "test://watched-resource" }, { id: method }), 404, -32601, method);
    }
  });

  it("answers an unknown method 404 -32601 with the request's id", async () => {
    await expect2026Error(await post2026("unknown/method", {}, { id: "abc" }), 404, -32601, "abc");
  });

  it("carries the request's id on a refused Accept or Content-Type too (406 / 415, -32000)", async () => {
    await expect2026Error(await post2026("tools/list", {}, { id: 9, headers: { Accept: "application/json" } }), 406, -32000, 9);
    await expect2026Error(await post2026("tools/list", {}, { id: 10, headers: { "Content-Type": "text/plain" } }), 415, -32000, 10);
  });

  it("refuses a batch in which any element claims with 400 -32600 and no id (the 2026 schema has no id: null)", async () => {
    const claimed = { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: envelope() } };
    const res = await post([{ jsonrpc: "2.0", id: 1, method: "ping" }, claimed], { version: "2025-03-26" });
    const body = (await res.json()) as Record<string, unknown>;
    expect({ status: res.status, code: (body.error as { code: number }).code, hasId: "id" in body }).toEqual({
      status: 400,
      code: -32600,
      hasId: false,
    });
  });
});

describe("2026-07-28: unclaimed requests with a modern header", () => {
  it("refuses a request without _meta but with MCP-Protocol-Version 2026-07-28 with 400 -32602 and its id", async () => {
    const res = await post(
      { jsonrpc: "2.0", id: 101, method: "server/discover", params: {} },
      { headers: { "MCP-Protocol-Version": MODERN, "Mcp-Method": "server/discover" } },
    );
    await expect2026Error(res, 400, -32602, 101);
  });

  it("refuses initialize carrying a modern MCP-Protocol-Version header with 400 -32020", async () => {
    const res = await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2025-11-25") }, { version: MODERN });
    await expect2026Error(res, 400, -32020, 0);
  });

  it("accepts a notification routed by a claim or a modern header with 202", async () => {
    await expectAccepted(await post({ jsonrpc: "2.0", method: "notifications/progress", params: { _meta: envelope() } }));
    await expectAccepted(await post({ jsonrpc: "2.0", method: "notifications/cancelled", params: {} }, { version: MODERN }));
  });

  it("leaves an unclaimed notification with a 2025 header on the 2025 era (400 without a session)", async () => {
    await openSession();
    await expectRpcError(await post({ jsonrpc: "2.0", method: "notifications/initialized" }, { version: "2025-06-18" }), 400, -32000, null);
  });
});

describe("2026-07-28: Mcp-Param-* headers of x-mcp-header parameters (streamable-http.mdx Custom Headers)", () => {
  const call = (args: Record<string, unknown>, headers: Record<string, string>) =>
    post2026("tools/call", { name: "test_header_param", arguments: args }, { headers });

  it("accepts a matching header, plain or base64-sentinel encoded, and surrounding whitespace", async () => {
    await expectComplete(await call({ region: "us-west1" }, { "Mcp-Param-Region": "us-west1" }));
    await expectComplete(await call({ region: "Hello" }, { "Mcp-Param-Region": `=?base64?${btoa("Hello")}?=` }));
    await expectComplete(await call({ region: "x" }, { "Mcp-Param-Region": "x", "Mcp-Name": "  test_header_param  " }));
  });

  it("refuses a missing, different or badly encoded header with 400 -32020", async () => {
    await expect2026Error(await call({ region: "us-west1" }, {}), 400, -32020);
    await expect2026Error(await call({ region: "us-west1" }, { "Mcp-Param-Region": "eu-west1" }), 400, -32020);
    await expect2026Error(await call({ region: "Hello" }, { "Mcp-Param-Region": "=?base64?SGVsbG8?=" }), 400, -32020);
    await expect2026Error(await call({ region: "Hello" }, { "Mcp-Param-Region": "=?base64?SGVs!!!bG8=?=" }), 400, -32020);
  });

  it("treats a value without both sentinel markers as literal text", async () => {
    await expectComplete(await call({ region: `=?base64?${btoa("Hello")}` }, { "Mcp-Param-Region": `=?base64?${btoa("Hello")}` }));
  });
});
