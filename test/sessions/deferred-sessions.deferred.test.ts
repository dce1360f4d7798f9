/**
 * deferredSessionObject (docs/sessions.md "When a session gets its object"): `initialize` makes
 * no object; the Mcp-Session-Id carries the negotiated state, sealed with MCP_STATE_SECRET; the
 * object is made by the first request that needs state, and a deleted or expired session still
 * answers 404 (the 2025 transports page, "Session Management": after termination the server
 * MUST answer 404 to that session id). Driven through the fixture's Worker and its real deferred
 * session objects (test/servers/deferred), every stub call of the Worker counted.
 */
import { env } from "cloudflare:workers";
import { createExecutionContext, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { deferredSessionObject } from "../../src/features/sessions/session-object";
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
const sealer = edge[EDGE_BINDING].seams.sealer!;
const SECRET = (env as unknown as { MCP_STATE_SECRET: string }).MCP_STATE_SECRET;
/** The same server on an edge without deferred sessions (a path like the demo's /mcp): its ids are bare object ids. */
const plain = createMcpEdge(demoServer);
/** The demo's objects keep the default idle timeout: 30 minutes, its slack 30 s. */
const IDLE_MS = 30 * 60_000;
let calls: string[] = [];

async function send(body: unknown, headers: Record<string, string> = {}, method = "POST", through = edge): Promise<Response> {
  const init: RequestInit = {
    method,
    headers: { Host: "127.0.0.1:8787", "Content-Type": "application/json", Accept: ACCEPT_BOTH, ...headers },
  };
  if (method === "POST") init.body = JSON.stringify(body);
  const workerEnv = countingEnv({ ...(env as unknown as EdgeEnv), MCP_STATE_SECRET: SECRET } as EdgeEnv, calls);
  return through.worker.fetch!(
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

  it("a short session (initialize, initialized, one call) costs two object requests and stores nothing", async () => {
    const sessionId = await initialize();
    const initialized = await send({ jsonrpc: "2.0", method: "notifications/initialized" }, inSession(sessionId));
    expect(initialized.status).toBe(202);
    const res = await echo(sessionId);
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).toContain("hi");
    // notifications/initialized is confirmed too: an ended or unknown session's is 404.
    expect(calls).toEqual(["confirm", "confirm"]);
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

  it("notifications/initialized is 404 after DELETE, once the sealed id lapsed, and for a sealed id never issued", async () => {
    const initialized = (sessionId: string) => send({ jsonrpc: "2.0", method: "notifications/initialized" }, inSession(sessionId));
    const deleted = await initialize();
    expect((await send(undefined, inSession(deleted), "DELETE")).status).toBe(204);
    const lapsed = await sealedAt(IDLE_MS);
    const foreign = await sealedAt(0, "another-deployment-secret-0123456789abcdef");
    for (const sessionId of [deleted, lapsed, foreign]) {
      const res = await initialized(sessionId);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: -32001 } });
    }
  });

  it("an adopted session keeps its subscription across a sleep and an alarm long before its expiry", async () => {
    const uri = "test://watched-resource";
    const sessionId = await initialize();
    const subscribed = await send({ jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri } }, inSession(sessionId));
    expect(subscribed.status).toBe(200);
    await subscribed.text();
    // Asleep, the object forgets what it kept in memory; an alarm (a finished stream's trim, say) then runs.
    await evictDurableObject(sessionStub(sessionId));
    expect(await runDurableObjectAlarm(sessionStub(sessionId))).toBe(true);

    const stream = await send(undefined, { ...inSession(sessionId), Accept: "text/event-stream" }, "GET");
    expect(stream.status).toBe(200);
    // Still the same session, subscribed: the update reaches its stream.
    expect(await sessionStub(sessionId).resourceUpdated(uri)).toBe("sent");
    await stream.body?.cancel();
  });

  it("a session expired while its sealed id still passes (the issuer's clock ahead) keeps a tombstone: 404, not a new empty session", async () => {
    const sessionId = await sealedAt(-10 * 60_000);
    const setLevel = { jsonrpc: "2.0", id: 2, method: "logging/setLevel", params: { level: "error" } };
    const adopted = await send(setLevel, inSession(sessionId));
    expect(adopted.status).toBe(200);
    await adopted.text();
    await runInDurableObject(sessionStub(sessionId), (_instance, state) => {
      state.storage.kv.put("last_active", Date.now() - IDLE_MS - 1);
    });
    expect(await runDurableObjectAlarm(sessionStub(sessionId))).toBe(true);

    expect((await echo(sessionId)).status).toBe(404);
    const { keys, alarm } = await stored(sessionId);
    expect(keys).toContain("terminated");
    // Kept until the sealed id lapses: its issue time (10 minutes ahead) + the idle timeout - the slack.
    expect(alarm).toBeGreaterThan(Date.now() + IDLE_MS);
  });

  it("once its object holds the session, only the sealed id it was adopted with reaches it: the bare object id and altered or borrowed seals are 404", async () => {
    const sessionId = await initialize();
    const setLevel = (id: number) => ({ jsonrpc: "2.0", id, method: "logging/setLevel", params: { level: "error" } });
    const adopted = await send(setLevel(2), inSession(sessionId));
    expect(adopted.status).toBe(200);
    await adopted.text();
    const other = await initialize();
    const seal = sessionId.slice(65);
    const flip = seal[10] === "A" ? "B" : "A";
    const wrong = {
      "the bare object id": sessionId.slice(0, 64),
      "a flipped seal": `${sessionId.slice(0, 75)}${flip}${sessionId.slice(76)}`,
      "a padded seal": `${sessionId}A`,
      "a seal padded with =": `${sessionId}=`,
      "a cut seal": sessionId.slice(0, -1),
      "another session's seal": `${sessionId.slice(0, 65)}${other.slice(65)}`,
    };
    for (const [what, id] of Object.entries(wrong)) {
      expect((await echo(id)).status, `${what}: a call`).toBe(404);
      expect((await send(setLevel(3), inSession(id))).status, `${what}: a forwarded request`).toBe(404);
      const get = await send(undefined, { ...inSession(id), Accept: "text/event-stream" }, "GET");
      expect(get.status, `${what}: a GET`).toBe(404);
      await get.body?.cancel();
      expect((await send(undefined, inSession(id), "DELETE")).status, `${what}: a DELETE`).toBe(404);
    }
    // Through an edge without deferred sessions the bare object id reaches the object too: 404 there as well.
    expect((await send(setLevel(4), inSession(sessionId.slice(0, 64)), "POST", plain)).status).toBe(404);
    const ping = { jsonrpc: "2.0", id: 5, method: "ping" };
    expect((await send(ping, inSession(sessionId.slice(0, 64)), "POST", plain)).status).toBe(404);
    // The session itself is untouched.
    expect((await echo(sessionId)).status).toBe(200);
  });

  it("a session made at initialize (a bare object id) is 404 when its id comes with a seal appended", async () => {
    const res = await send({ jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2025-06-18") }, {}, "POST", plain);
    await res.text();
    const objectId = res.headers.get("Mcp-Session-Id")!;
    expect(objectId).toMatch(/^[0-9a-f]{64}$/);
    const borrowed = `${objectId}.${(await initialize()).slice(65)}`;
    expect((await echo(borrowed)).status).toBe(404);
    // Its own id reaches it through either edge (one session class serves both kinds).
    expect((await echo(objectId)).status).toBe(200);
    expect((await send({ jsonrpc: "2.0", id: 1, method: "ping" }, inSession(objectId), "POST", plain)).status).toBe(200);
  });

  it("a client declaring 40 KB of capabilities gets its object at initialize and a bare object id, not a 50 KB id", async () => {
    const capabilities = { experimental: { big: { blob: "x".repeat(40_000) } } };
    const res = await send({ jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2025-06-18", capabilities) });
    expect(res.status).toBe(200);
    await res.text();
    const sessionId = res.headers.get("Mcp-Session-Id")!;
    expect(sessionId).toMatch(/^[0-9a-f]{64}$/);
    expect(calls).toEqual(["init"]);
    expect((await echo(sessionId)).status).toBe(200);
    const { keys } = await stored(sessionId);
    expect(keys).toContain("state");
  });

  it("ids of ordinary clients stay deferred, and no minted id is longer than 1,468 characters", async () => {
    const ordinary = await initialize();
    expect(ordinary.length).toBeLessThan(400);
    // The largest state that is still sealed: capabilities padded up to the bound, byte by byte.
    let longest = ordinary;
    for (let size = 600; size <= 1100; size += 20) {
      const capabilities = { experimental: { pad: "x".repeat(size) } };
      const res = await send({ jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2025-06-18", capabilities) });
      await res.text();
      const id = res.headers.get("Mcp-Session-Id")!;
      if (id.length > longest.length) longest = id;
    }
    expect(longest.length).toBeGreaterThan(1440);
    expect(longest.length).toBeLessThanOrEqual(1468);
  });

  it("without MCP_STATE_SECRET, initialize makes the object and the Worker says once why, with the fix", async () => {
    const unsealed = createMcpEdge(demoServer);
    deferredSessionObject(unsealed);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const { MCP_STATE_SECRET: _secret, ...rest } = env as unknown as EdgeEnv & { MCP_STATE_SECRET?: string };
      for (const id of [0, 1]) {
        const res = await unsealed.worker.fetch!(
          new Request("http://127.0.0.1:8787/mcp", {
            method: "POST",
            headers: { Host: "127.0.0.1:8787", "Content-Type": "application/json", Accept: ACCEPT_BOTH },
            body: JSON.stringify({ jsonrpc: "2.0", id, method: "initialize", params: initializeParams("2025-06-18") }),
          }) as Request<unknown, IncomingRequestCfProperties>,
          countingEnv(rest as EdgeEnv, calls),
          createExecutionContext(),
        );
        expect(res.headers.get("Mcp-Session-Id")).toMatch(/^[0-9a-f]{64}$/);
        await res.text();
      }
      expect(calls).toEqual(["init", "init"]);
      expect(warn).toHaveBeenCalledTimes(1);
      const message = String(warn.mock.calls[0]?.[0]);
      expect(message).toContain("deferred sessions (deferredSessions()) fall back to an object made at every initialize");
      expect(message).toContain("wrangler secret put MCP_STATE_SECRET");
    } finally {
      warn.mockRestore();
    }
  });
});
