/**
 * deferredSessionObject (docs/sessions.md "When a session gets its object"): `initialize` makes
 * no object; the Mcp-Session-Id carries the negotiated state, sealed with MCP_STATE_SECRET; the
 * object is made by the first request that needs state, and a deleted or expired session still
 * answers 404 (the 2025 transports page, "Session Management": after termination the server
 * MUST answer 404 to that session id). Driven through the fixture's Worker and its real deferred
 * session objects (test/servers/deferred), every stub call of the Worker counted.
 */
import { env } from "cloudflare:workers";
import { createExecutionContext, runInDurableObject } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { deferredSessionObject } from "../../durable-objects/session/deferred";
import { EDGE_BINDING } from "../../durable-objects/shared/edge-binding";
import { createMcpEdge } from "../../src/edge";
import { demoServer } from "../../src/demo/server";
import type { EdgeEnv } from "../../src/http/runtime";
import { countingEnv } from "../helpers/counting-namespace";
import { ACCEPT_BOTH, initializeParams } from "../helpers/mcp";
import { sessionStub } from "../helpers/session";

// The fixture's objects are deferred ones; this edge (its Worker, counted) mints deferred ids too.
const edge = createMcpEdge(demoServer);
deferredSessionObject(edge);
/** Mints like this edge's `initialize` (the sealer deferredSessionObject installed). */
const sealer = edge[EDGE_BINDING].sealer!;
const SECRET = (env as unknown as { MCP_STATE_SECRET: string }).MCP_STATE_SECRET;
/** The demo's objects keep the default idle timeout: 30 minutes, its slack 30 s. */
const IDLE_MS = 30 * 60_000;
let calls: string[] = [];

async function send(body: unknown, headers: Record<string, string> = {}, method = "POST"): Promise<Response> {
  const init: RequestInit = {
    method,
    headers: { Host: "127.0.0.1:8787", "Content-Type": "application/json", Accept: ACCEPT_BOTH, ...headers },
  };
  if (method === "POST") init.body = JSON.stringify(body);
  const workerEnv = countingEnv({ ...(env as unknown as EdgeEnv), MCP_STATE_SECRET: SECRET } as EdgeEnv, calls);
  return edge.worker.fetch!(
    new Request("http://127.0.0.1:8787/mcp", init) as Request<unknown, IncomingRequestCfProperties>,
    workerEnv,
    createExecutionContext(),
  );
}

function inSession(sessionId: string): Record<string, string> {
  return { "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "2025-06-18" };
}

async function initialize(): Promise<string> {
  const res = await send({ jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2025-06-18") });
  expect(res.status).toBe(200);
  await res.text();
  return res.headers.get("Mcp-Session-Id")!;
}

async function echo(sessionId: string): Promise<Response> {
  return send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } }, inSession(sessionId));
}

/** What the session's object stores: its key-value rows, its own tables, and its alarm. */
async function stored(sessionId: string): Promise<{ keys: string[]; tables: number; alarm: number | null }> {
  return runInDurableObject(sessionStub(sessionId), async (_instance, state) => ({
    keys: [...state.storage.kv.list()].map(([key]) => key),
    tables: state.storage.sql
      .exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'")
      .toArray().length,
    alarm: await state.storage.getAlarm(),
  }));
}

/** A deferred id minted here as `initialize` would have, `ageMs` ago (Date.now moved back while it seals). */
async function sealedAt(ageMs: number, secret = SECRET): Promise<string> {
  const objectId = (env as unknown as Required<EdgeEnv>).MCP_SESSION.newUniqueId().toString();
  const state = {
    protocolVersion: "2025-06-18" as const,
    clientInfo: { name: "t", version: "1" },
    clientCapabilities: {},
    logLevel: undefined,
  };
  const now = Date.now;
  Date.now = () => now() - ageMs;
  try {
    return (await sealer.mint({ MCP_STATE_SECRET: secret }, objectId, state)) as string;
  } finally {
    Date.now = now;
  }
}

describe("deferred session objects", () => {
  beforeEach(() => {
    calls = [];
  });

  it("initialize calls no object; the id is the object's id and the sealed state, which does not show the client", async () => {
    const sessionId = await initialize();
    expect(calls).toEqual([]);
    expect(sessionId).toMatch(/^[0-9a-f]{64}\.[A-Za-z0-9_-]+$/);
    // Sealed, not just encoded: the client's name is not readable in it.
    const sealed = sessionId.slice(65).replace(/-/g, "+").replace(/_/g, "/");
    expect(atob(sealed + "=".repeat((4 - (sealed.length % 4)) % 4))).not.toContain("vitest");
  });

  it("a short session (initialize, initialized, one call) costs one object request and stores nothing", async () => {
    const sessionId = await initialize();
    const initialized = await send({ jsonrpc: "2.0", method: "notifications/initialized" }, inSession(sessionId));
    expect(initialized.status).toBe(202);
    const res = await echo(sessionId);
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).toContain("hi");
    expect(calls).toEqual(["confirm"]);
    expect(await stored(sessionId)).toEqual({ keys: [], tables: 0, alarm: null });
  });

  it("DELETE ends it: 404 afterwards for a call, a GET and another DELETE; the tombstone stays until the sealed id lapses", async () => {
    const before = Date.now();
    const sessionId = await initialize();
    expect((await echo(sessionId)).status).toBe(200);
    const deleted = await send(undefined, inSession(sessionId), "DELETE");
    expect(deleted.status).toBe(204);
    expect((await echo(sessionId)).status).toBe(404);
    const get = await send(undefined, { ...inSession(sessionId), Accept: "text/event-stream" }, "GET");
    expect(get.status).toBe(404);
    await get.body?.cancel();
    expect((await send(undefined, inSession(sessionId), "DELETE")).status).toBe(404);
    const { keys, alarm } = await stored(sessionId);
    expect(keys).toEqual(["terminated"]);
    // issuedAt + idle timeout - slack: after that the empty object reads as expired anyway.
    expect(alarm).toBeGreaterThanOrEqual(before + IDLE_MS - 30_000);
    expect(alarm).toBeLessThanOrEqual(Date.now() + IDLE_MS - 30_000);
  });

  it("an altered id, one sealed under another secret, or a seal moved to another object is 404, and no object keeps anything", async () => {
    const sessionId = await initialize();
    const last = sessionId.at(-2) === "A" ? "B" : "A";
    const altered = `${sessionId.slice(0, -2)}${last}${sessionId.at(-1)}`;
    expect((await echo(altered)).status).toBe(404);
    const foreign = await sealedAt(0, "another-deployment-secret-0123456789abcdef");
    expect((await echo(foreign)).status).toBe(404);
    // The object part swapped for another object's: the seal binds its object.
    const other = (env as unknown as Required<EdgeEnv>).MCP_SESSION.newUniqueId().toString();
    const moved = `${other}${sessionId.slice(64)}`;
    expect((await echo(moved)).status).toBe(404);
    // A forwarded request (it needs the session's state) is refused the same way.
    const setLevel = { jsonrpc: "2.0", id: 3, method: "logging/setLevel", params: { level: "error" } };
    expect((await send(setLevel, inSession(moved))).status).toBe(404);
    for (const id of [sessionId, foreign, other]) expect(await stored(id)).toEqual({ keys: [], tables: 0, alarm: null });
    // The real one still works.
    expect((await echo(sessionId)).status).toBe(200);
  });

  it("a session whose object was never made expires with its idle timeout: 404", async () => {
    const res = await echo(await sealedAt(IDLE_MS));
    expect(res.status).toBe(404);
  });

  it("activity past the first interval gives the session its object, which then expires as any session does", async () => {
    const sessionId = await sealedAt(60_000);
    expect((await echo(sessionId)).status).toBe(200);
    const { keys, alarm } = await stored(sessionId);
    expect(keys).toContain("state");
    expect(alarm).toBeGreaterThan(Date.now() + IDLE_MS - 60_000);
  });

  it("a request that needs state (logging/setLevel) makes the object, which keeps the level", async () => {
    const sessionId = await initialize();
    const res = await send({ jsonrpc: "2.0", id: 2, method: "logging/setLevel", params: { level: "error" } }, inSession(sessionId));
    expect(res.status).toBe(200);
    await res.text();
    expect(calls).toEqual(["fetch"]);
    const state = await runInDurableObject(sessionStub(sessionId), (_instance, s) => s.storage.kv.get("state"));
    expect(state).toMatchObject({ protocolVersion: "2025-06-18", logLevel: "error" });
    // From now on the object answers for it: a call confirms against what it stored.
    expect((await echo(sessionId)).status).toBe(200);
  });

  it("an object given another object's sealed id adopts nothing: 404, and it stays empty", async () => {
    const sessionId = await initialize();
    const other = (env as unknown as Required<EdgeEnv>).MCP_SESSION.newUniqueId().toString();
    const res = await sessionStub(other).fetch(
      new Request("https://mcp-session/mcp", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, ...inSession(sessionId) },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "logging/setLevel", params: { level: "error" } }),
      }),
    );
    expect(res.status).toBe(404);
    await res.text();
    expect(await stored(other)).toEqual({ keys: [], tables: 0, alarm: null });
  });

  it("a GET stream makes the object; the stream opens as for any session", async () => {
    const sessionId = await initialize();
    const res = await send(undefined, { ...inSession(sessionId), Accept: "text/event-stream" }, "GET");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/event-stream");
    await res.body?.cancel();
    expect((await stored(sessionId)).keys).toContain("state");
  });
});
