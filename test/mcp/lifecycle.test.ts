/**
 * initialize (2025-06-18 "Lifecycle" > Initialization and > Version Negotiation): the server
 * echoes a version it supports, else answers with its latest; capabilities follow what is
 * registered and whether sessions exist.
 */
import { DEMO_ICONS } from "../../src/demo/assets";
import { listDurableObjectIds } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { INVALID_PARAMS } from "../../src/jsonrpc/errors";
import { demoServer } from "../../src/demo/server";
import { call, initializeParams, openSession, post } from "../helpers/mcp";
import { expectResult, expectRpcError, postStateless, sessionNamespace } from "../helpers/rpc-expect";

function initialize(protocolVersion: unknown, extra: Record<string, unknown> = {}) {
  return { jsonrpc: "2.0", id: 0, method: "initialize", params: { ...initializeParams(), protocolVersion, ...extra } };
}

describe("version negotiation", () => {
  for (const version of ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]) {
    it(`echoes the supported version ${version}`, async () => {
      const result = await expectResult(await post(initialize(version)), 0);
      expect(result.protocolVersion).toBe(version);
    });
  }

  it("answers an unknown version with the latest it supports, 2025-11-25", async () => {
    const result = await expectResult(await post(initialize("1999-01-01")), 0);
    expect(result.protocolVersion).toBe("2025-11-25");
  });

  it("answers an unknown version with 2025-11-25 in stateless mode too", async () => {
    const result = await expectResult(await postStateless(initialize("2099-12-31")), 0);
    expect(result.protocolVersion).toBe("2025-11-25");
  });

  it("records the negotiated version for the session, whatever the later header says", async () => {
    // 2025-11-25 reports invalid tool arguments as a tool error (SEP-1303); 2025-06-18 as -32602.
    const { sessionId, version } = await openSession("2025-11-25");
    expect(version).toBe("2025-11-25");
    const res = await post(
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo", arguments: {} } },
      { sessionId, version: "2025-06-18" },
    );
    expect((await expectResult(res, 3)).isError).toBe(true);
  });
});

describe("the initialize result", () => {
  it("declares tools, resources with subscribe, prompts, completions and logging in session mode", async () => {
    const result = await expectResult(await post(initialize("2025-06-18")), 0);
    expect(result.capabilities).toEqual({
      logging: {},
      tools: { listChanged: false },
      resources: { subscribe: true, listChanged: false },
      prompts: { listChanged: false },
      completions: {},
    });
  });

  it("declares resources without subscribe in stateless mode", async () => {
    const result = await expectResult(await postStateless(initialize("2025-06-18")), 0);
    expect(result.capabilities).toEqual({
      logging: {},
      tools: { listChanged: false },
      resources: { subscribe: false, listChanged: false },
      prompts: { listChanged: false },
      completions: {},
    });
  });

  it("carries serverInfo and instructions", async () => {
    const result = await expectResult(await post(initialize("2025-06-18")), 0);
    expect(result.serverInfo).toEqual({
      name: "mcp-edge-demo",
      version: "0.1.0",
      description: demoServer.info.description,
      icons: DEMO_ICONS,
    });
    expect(result.instructions).toBe(demoServer.instructions);
    expect(typeof result.instructions).toBe("string");
  });

  it("returns a visible-ASCII Mcp-Session-Id in session mode", async () => {
    const res = await post(initialize("2025-06-18"));
    expect(res.headers.get("Mcp-Session-Id")).toMatch(/^[\x21-\x7e]+$/);
  });

  it("gives each initialize a new session", async () => {
    const a = await openSession();
    const b = await openSession();
    expect(a.sessionId).not.toBe(b.sessionId);
  });

  it("lets an initialized session answer requests with the id it returned", async () => {
    const { sessionId, version } = await openSession("2025-03-26");
    expect(await call(sessionId, version, "ping", {}, "after-init")).toEqual({ jsonrpc: "2.0", id: "after-init", result: {} });
  });
});

describe("invalid initialize requests", () => {
  it("answers initialize without protocolVersion with -32602 and the request id, and no session", async () => {
    const before = (await listDurableObjectIds(sessionNamespace())).length;
    const res = await post({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { capabilities: {}, clientInfo: { name: "x", version: "1" } },
    });
    expect(res.headers.get("Mcp-Session-Id")).toBeNull();
    await expectRpcError(res, 200, INVALID_PARAMS, 0);
    expect((await listDurableObjectIds(sessionNamespace())).length).toBe(before);
  });

  it("answers initialize without params with -32602", async () => {
    await expectRpcError(await post({ jsonrpc: "2.0", id: "i", method: "initialize" }), 200, INVALID_PARAMS, "i");
  });

  it("answers initialize with a non-string protocolVersion with -32602", async () => {
    await expectRpcError(await postStateless(initialize(20250618)), 200, INVALID_PARAMS, 0);
  });

  it("answers initialize with malformed clientInfo with -32602", async () => {
    await expectRpcError(await post(initialize("2025-06-18", { clientInfo: { name: "x" } })), 200, INVALID_PARAMS, 0);
  });

  it("answers initialize whose capabilities are not an object with -32602", async () => {
    await expectRpcError(await post(initialize("2025-06-18", { capabilities: [] })), 200, INVALID_PARAMS, 0);
  });
});

describe("MCP-Protocol-Version after initialize", () => {
  it("answers a 2025-11-25 session's request whose header says 2025-03-26 (conformance 0.1.16 quirk)", async () => {
    const { sessionId } = await openSession("2025-11-25");
    const res = await post({ jsonrpc: "2.0", id: 4, method: "tools/list" }, { sessionId, version: "2025-03-26" });
    expect(Array.isArray((await expectResult(res, 4)).tools)).toBe(true);
  });

  it("answers a 2025-11-25 session's notification whose header says 2025-03-26 with 202", async () => {
    const { sessionId } = await openSession("2025-11-25");
    const res = await post({ jsonrpc: "2.0", method: "notifications/roots/list_changed" }, { sessionId, version: "2025-03-26" });
    expect(res.status).toBe(202);
  });
});
