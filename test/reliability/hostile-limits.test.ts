/**
 * Limits at the boundary (issue 16, defects 3 and 6, and the rounded ids): how many handlers
 * one request may start (a batch beyond gets one -32003 per item, on every lane), the URI
 * length of every method that takes one, no persistent storage created by a request that
 * cannot create data (unsubscribe of an unknown URI, a notify no one hears, anything sent
 * without a session), registry state deleted once empty, and request ids that round-trip
 * exactly or are refused with -32600 saying why.
 */
import { runInDurableObject } from "cloudflare:test";
import { afterAll, describe, expect, it } from "vitest";
import { allHubTables } from "../helpers/listen";
import { sessionNamespace } from "../helpers/rpc-expect";
import { isAnyResponse, type Session } from "../helpers/session";
import { BASE, call, post, startSession } from "./support/direct";
import { SseReader } from "../helpers/sse";
import { reportFigures } from "./support/settings";

const STATELESS = `${BASE}/stateless/mcp`;
const MAX_RUNS_PER_REQUEST = 100;
const MAX_URI = 8192;
const figures = { batchItemsRefused: 0, anonymousRequests: 0, storageCreatedByAnonymousTraffic: 0, uriChecks: 0 };
afterAll(() => reportFigures("hostile-limits", figures));

const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });
const refusedItem = /^Not run: one request may start at most 100 handlers; send the rest in another request$/;

type Reply = { id: unknown; result?: unknown; error?: { code: number; message: string } };

function expectLimitedBatch(replies: Reply[], size: number): void {
  expect(replies).toHaveLength(size);
  const refused = replies.filter((r) => r.error?.code === -32003);
  expect(replies.filter((r) => r.result !== undefined)).toHaveLength(MAX_RUNS_PER_REQUEST);
  expect(refused).toHaveLength(size - MAX_RUNS_PER_REQUEST);
  for (const r of refused) expect(r.error?.message).toMatch(refusedItem);
  figures.batchItemsRefused += refused.length;
}

describe("handlers one request may start", () => {
  it("runs 100 of a 250-request batch on the stateless endpoint and answers each of the others with -32003", async () => {
    const res = await post(
      Array.from({ length: 250 }, (_, i) => ping(i)),
      undefined,
      { "MCP-Protocol-Version": "2025-03-26" },
      STATELESS,
    );
    expect(res.status).toBe(200);
    expectLimitedBatch((await res.json()) as Reply[], 250);
  });

  it("does the same for a batch answered in the Worker within a session", async () => {
    const s = await startSession("2025-03-26");
    const res = await post(
      Array.from({ length: 101 }, (_, i) => ping(i)),
      s,
    );
    expectLimitedBatch((await res.json()) as Reply[], 101);
  });

  it("does the same on the session object's stream for a batch of interactive calls", async () => {
    const s = await startSession("2025-03-26");
    const batch = Array.from({ length: 105 }, (_, i) => ({
      jsonrpc: "2.0",
      id: i,
      method: "tools/call",
      params: { name: "stream_progress", arguments: { count: 0 } },
    }));
    const events = await new SseReader(await post(batch, s)).all();
    expectLimitedBatch(
      events.filter(isAnyResponse).map((e) => e.json as Reply),
      105,
    );
  });

  it("lets a batch of exactly 100 run whole", async () => {
    const res = await post(
      Array.from({ length: 100 }, (_, i) => ping(i)),
      undefined,
      { "MCP-Protocol-Version": "2025-03-26" },
      STATELESS,
    );
    expect(((await res.json()) as Reply[]).every((r) => r.result !== undefined)).toBe(true);
  });
});

describe("URI length on every method that takes one", () => {
  const long = (n: number) => `test://${"a".repeat(n - 7)}`;
  const methods: [string, (uri: string) => Record<string, unknown>][] = [
    ["resources/read", (uri) => ({ uri })],
    ["resources/subscribe", (uri) => ({ uri })],
    ["resources/unsubscribe", (uri) => ({ uri })],
    ["completion/complete", (uri) => ({ ref: { type: "ref/resource", uri }, argument: { name: "id", value: "" } })],
  ];

  it.each(methods)("refuses %s with a URI one character over 8192 with -32602 naming the limit", async (method, params) => {
    const s = await startSession("2025-06-18");
    const answer = await call(s, method, params(long(MAX_URI + 1)));
    expect(answer.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(new RegExp(`^${method}: the uri is 8193 characters long; at most 8192 `)),
    });
    figures.uriChecks++;
  });

  it.each(methods)("judges %s with a URI of exactly 8192 characters on its merits, not its length", async (method, params) => {
    const s = await startSession("2025-06-18");
    const answer = await call(s, method, params(long(MAX_URI)));
    expect(JSON.stringify(answer)).not.toContain("characters long");
    figures.uriChecks++;
  });
});

/**
 * What an object stores: its tables (Cloudflare's internal `_cf_` ones aside), its key-value keys and its alarm.
 * Counted per object rather than with listDurableObjectIds, which lists every object that was
 * ever woken locally (workerd opens an empty database file for it) whether or not it stored
 * anything; a deployed object that never wrote has no storage.
 */
async function storageOf(id: DurableObjectId): Promise<{ tables: string[]; keys: string[]; alarm: number | null }> {
  return runInDurableObject(sessionNamespace().get(id), async (_instance, state) => ({
    tables: state.storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'sqlite_%'")
      .toArray()
      .map((r) => r.name),
    keys: [...state.storage.kv.list()].map(([key]) => key),
    alarm: await state.storage.getAlarm(),
  }));
}

/** The hub (the one place subscriptions are registered) holds no table, so it stores nothing. */
async function expectHubStoresNothing(): Promise<void> {
  const tables = await allHubTables();
  if (Object.keys(tables).length > 0) figures.storageCreatedByAnonymousTraffic++;
  expect(tables).toEqual({});
}

async function expectNothingStored(ids: DurableObjectId[]): Promise<void> {
  for (const id of ids) {
    const stored = await storageOf(id);
    if (stored.tables.length > 0 || stored.keys.length > 0 || stored.alarm !== null) figures.storageCreatedByAnonymousTraffic++;
    expect(stored, id.toString()).toEqual({ tables: [], keys: [], alarm: null });
  }
}

describe("no persistent storage from requests that cannot create data", () => {
  it("touch_resource on the stateless endpoint for 40 distinct URIs stores nothing in the hub", async () => {
    const uris = Array.from({ length: 40 }, (_, i) => `test://nobody-listens/${i}`);
    for (const [i, uri] of uris.entries()) {
      figures.anonymousRequests++;
      const res = await post(
        { jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "touch_resource", arguments: { uri } } },
        undefined,
        { "MCP-Protocol-Version": "2025-06-18" },
        STATELESS,
      );
      expect(await res.json()).toMatchObject({ result: { content: [{ text: "notified 0 session(s)" }] } });
    }
    await expectHubStoresNothing();
  });

  it("resources/unsubscribe of 40 URIs never subscribed to stores nothing in the hub", async () => {
    const s: Session = await startSession("2025-06-18");
    const uris = Array.from({ length: 40 }, (_, i) => `test://never-subscribed/${i}`);
    for (const [i, uri] of uris.entries()) {
      figures.anonymousRequests++;
      expect(await call(s, "resources/unsubscribe", { uri }, i)).toMatchObject({ result: {} });
    }
    await expectHubStoresNothing();
  });

  it("requests naming a session that does not exist store nothing in its object", async () => {
    const ghost = { sessionId: sessionNamespace().newUniqueId().toString(), version: "2025-06-18" };
    const bodies = [
      ping(1),
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "stream_progress", arguments: { count: 1 } } },
      { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
      // Confirmed with the object like the rest: 404 (the transport's MUST), and nothing stored.
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: "s-1", result: {} },
    ];
    for (const body of bodies) {
      figures.anonymousRequests++;
      expect((await post(body, ghost)).status).toBe(404);
    }
    figures.anonymousRequests++;
    expect((await post(ping(1), undefined, {}, `${BASE}/messages?sessionId=${ghost.sessionId}`)).status).toBe(404);
    await expectNothingStored([sessionNamespace().idFromString(ghost.sessionId)]);
  });

  it("deletes the hub's registration state once the last subscriber unsubscribes", async () => {
    const s = await startSession("2025-06-18");
    const uri = "test://watched-resource";
    expect(await call(s, "resources/subscribe", { uri })).toMatchObject({ result: {} });
    expect(Object.keys(await allHubTables()).length).toBeGreaterThan(0);
    expect(await call(s, "resources/unsubscribe", { uri }, 2)).toMatchObject({ result: {} });
    await expectHubStoresNothing();
  });
});

describe("request ids round-trip exactly or are refused", () => {
  it("refuses a numeric id beyond 2^53 - 1 with 400 and -32600 saying to send it as a string", async () => {
    const res = await post(
      '{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}',
      undefined,
      { "MCP-Protocol-Version": "2025-06-18" },
      STATELESS,
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32600,
        message:
          'Invalid Request: "id" is a number beyond ±9007199254740991, which JSON numbers cannot carry exactly here; send it as a string',
      },
    });
  });

  it("refuses such an id inside a batch item by item, and answers the others", async () => {
    const res = await post(
      '[{"jsonrpc":"2.0","id":-9007199254740993,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]',
      undefined,
      { "MCP-Protocol-Version": "2025-03-26" },
      STATELESS,
    );
    const replies = (await res.json()) as Reply[];
    expect(replies).toContainEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: expect.stringContaining("send it as a string") },
    });
    expect(replies).toContainEqual({ jsonrpc: "2.0", id: 2, result: {} });
  });

  it.each([
    ["the largest exact integer", "9007199254740991"],
    ["the smallest exact integer", "-9007199254740991"],
    ["zero", "0"],
    ["a large string id", '"12345678901234567890"'],
  ])("echoes %s byte for byte", async (_what, id) => {
    const res = await post(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`, undefined, { "MCP-Protocol-Version": "2025-06-18" }, STATELESS);
    expect(await res.text()).toBe(`{"jsonrpc":"2.0","id":${id},"result":{}}`);
  });
});
