/**
 * DESIGN.md "The Worker first, an object only for state": each kind of request costs a known number of calls to the
 * session object. The Worker is driven with the real MCP_SESSION namespace wrapped so every
 * stub call (RPC or fetch) is counted.
 */
import { env } from "cloudflare:workers";
import { createExecutionContext, runInDurableObject } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { createMcpEdge } from "../../src/edge";
import { demoServer } from "../../src/demo/server";
import type { EdgeEnv } from "../../src/http/runtime";
import { countingEnv } from "../helpers/counting-namespace";
import { ACCEPT_BOTH, initializeParams } from "../helpers/mcp";
import { sessionStub } from "../helpers/session";

const edge = createMcpEdge(demoServer, { statelessPath: "/stateless/mcp" });
let calls: string[] = [];

function countingEnvNow(): EdgeEnv {
  return countingEnv({ MCP_SESSION: (env as unknown as Required<EdgeEnv>).MCP_SESSION } as EdgeEnv, calls);
}

async function send(
  body: unknown,
  headers: Record<string, string> = {},
  url = "http://127.0.0.1:8787/mcp",
  method = "POST",
): Promise<Response> {
  const init: RequestInit = {
    method,
    headers: { Host: "127.0.0.1:8787", "Content-Type": "application/json", Accept: ACCEPT_BOTH, ...headers },
  };
  if (method === "POST") init.body = JSON.stringify(body);
  const res = await edge.worker.fetch!(
    new Request(url, init) as Request<unknown, IncomingRequestCfProperties>,
    countingEnvNow(),
    createExecutionContext(),
  );
  return res;
}

async function session(): Promise<string> {
  const res = await send({ jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2025-06-18") });
  await res.text();
  return res.headers.get("Mcp-Session-Id")!;
}

describe("Durable Object round trips per request kind", () => {
  beforeEach(() => {
    calls = [];
  });

  it("initialize costs one call (init)", async () => {
    await session();
    expect(calls).toEqual(["init"]);
  });

  it("a simple request in a session costs one confirm call; the handler runs in the Worker", async () => {
    const id = await session();
    calls = [];
    for (const [method, params] of [
      ["ping", {}],
      ["tools/list", {}],
      ["tools/call", { name: "echo", arguments: { text: "x" } }],
      ["resources/read", { uri: "test://static-text" }],
    ] as const) {
      const res = await send({ jsonrpc: "2.0", id: 1, method, params }, { "Mcp-Session-Id": id, "MCP-Protocol-Version": "2025-06-18" });
      expect(res.status).toBe(200);
      await res.text();
    }
    expect(calls).toEqual(["confirm", "confirm", "confirm", "confirm"]);
  });

  it("an interactive call, a notification and logging/setLevel each cost one fetch to the object; notifications/initialized one confirm", async () => {
    const id = await session();
    calls = [];
    const h = { "Mcp-Session-Id": id, "MCP-Protocol-Version": "2025-06-18" };
    await (
      await send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "stream_progress", arguments: { count: 2 } } }, h)
    ).text();
    await (await send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }, h)).text();
    const initialized = await send({ jsonrpc: "2.0", method: "notifications/initialized" }, h);
    expect(initialized.status).toBe(202);
    await (await send({ jsonrpc: "2.0", id: 2, method: "logging/setLevel", params: { level: "info" } }, h)).text();
    expect(calls).toEqual(["fetch", "fetch", "confirm", "fetch"]);
  });

  it("DELETE costs one fetch to the object", async () => {
    const id = await session();
    calls = [];
    const res = await send(undefined, { "Mcp-Session-Id": id }, undefined, "DELETE");
    expect(res.status).toBe(204);
    expect(calls).toEqual(["fetch"]);
  });

  it("a malformed or forged session id costs no call at all", async () => {
    const forged = "a".repeat(64);
    const res1 = await send({ jsonrpc: "2.0", id: 1, method: "ping" }, { "Mcp-Session-Id": forged });
    const res2 = await send({ jsonrpc: "2.0", id: 1, method: "ping" }, { "Mcp-Session-Id": "not-a-session" });
    expect([res1.status, res2.status]).toEqual([404, 404]);
    expect(calls).toEqual([]);
  });

  it("stateless mode costs no call at all", async () => {
    const res = await send(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "x" } } },
      {},
      "http://127.0.0.1:8787/stateless/mcp",
    );
    expect(res.status).toBe(200);
    expect(calls).toEqual([]);
  });

  it("a client that re-initializes before every call costs four calls a turn, and leaves only the session's state stored", async () => {
    const h = (id: string) => ({ "Mcp-Session-Id": id, "MCP-Protocol-Version": "2025-06-18" });
    const sizes: number[] = [];
    for (let turn = 0; turn < 3; turn++) {
      calls = [];
      const id = await session();
      await (await send({ jsonrpc: "2.0", method: "notifications/initialized" }, h(id))).text();
      await (await send({ jsonrpc: "2.0", id: 1, method: "tools/list" }, h(id))).text();
      await (await send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "x" } } }, h(id))).text();
      expect(calls).toEqual(["init", "confirm", "confirm", "confirm"]);
      const stored = await runInDurableObject(sessionStub(id), (_instance, state) => ({
        tables: state.storage.sql
          .exec<{ name: string }>(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'sqlite_%'",
          )
          .toArray()
          .map((r) => r.name)
          .sort(),
        keys: [...state.storage.kv.list()].map(([key]) => key).sort(),
        bytes: state.storage.sql.databaseSize,
      }));
      // A session that never streamed stores its state (its activity within its first 30 s is kept in memory), nothing of the event log.
      expect(stored.tables).toEqual([]);
      expect(stored.keys).toEqual(["state"]);
      sizes.push(stored.bytes);
    }
    console.log(`[round-trips] re-initializing turn: 4 session-object calls, ${sizes[0]} bytes of SQLite per session`);
  });
});
