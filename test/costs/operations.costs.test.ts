/**
 * What each operation costs, as the platform bills it (meter.ts: object requests and rows written,
 * counted at the objects and their storage), against two things that must say the same: the
 * table in docs/costs.md "What each operation costs", and the `onEvent` counters (the sum of the
 * events' doRequests and rowsWritten over an operation, or over a whole session life when an
 * operation's rows are only known at its end).
 */
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { post2026, envelope } from "../helpers/era-2026";
import { call, post, request } from "../helpers/mcp";
import { SseReader } from "../helpers/sse";
import { deleteSession, getStream, postToolCall, sseOf, type Session } from "../helpers/session";
import costsPage from "../../docs/costs.md?raw";
import { events } from "../servers/costs/entry";
import { billed, resetMeter } from "../servers/costs/meter";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Past the 4 s idle timeout (wrangler.toml), with room for the alarm to run. */
const PAST_EXPIRY_MS = 4700;

/** The rows of the page's table: operation → [object requests, rows written]. */
function pageTable(): Map<string, [number, number]> {
  const section = costsPage.split("## What each operation costs")[1]?.split("\n## ")[0] ?? "";
  const rows = new Map<string, [number, number]>();
  for (const line of section.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    if (cells.length < 5 || !/^\d+$/.test(cells[2] ?? "") || !/^\d+$/.test(cells[3] ?? "")) continue;
    rows.set(cells[1] as string, [Number(cells[2]), Number(cells[3])]);
  }
  return rows;
}

const measured = new Map<string, [number, number]>();

interface Cost {
  requests: string[];
  rows: number;
  webSocketMessages: number;
  counted: [number, number];
  countedMessages: number;
}

/** Runs `work`, and returns what the platform billed for it and what onEvent said, summed. */
async function cost(work: () => Promise<unknown>): Promise<Cost> {
  resetMeter();
  events.length = 0;
  await work();
  // What the objects still do for it (a hub shard reports a publish once its deliveries settled).
  await sleep(50);
  const { requests, rows, webSocketMessages } = billed();
  const counted: [number, number] = [events.reduce((n, e) => n + e.doRequests, 0), events.reduce((n, e) => n + e.rowsWritten, 0)];
  return { requests, rows, webSocketMessages, counted, countedMessages: events.reduce((n, e) => n + e.webSocketMessages, 0) };
}

/** Records an operation's figures for the page check, and holds the counters to the meter. */
async function operation(name: string, work: () => Promise<unknown>, counters: "exact" | "requests" = "exact") {
  const result = await cost(work);
  measured.set(name, [result.requests.length, result.rows]);
  expect(result.counted[0], `${name}: onEvent's doRequests against the object requests billed`).toBe(result.requests.length);
  expect(result.countedMessages, `${name}: onEvent's webSocketMessages against the messages billed`).toBe(result.webSocketMessages);
  if (counters === "exact") expect(result.counted[1], `${name}: onEvent's rowsWritten against the rows billed`).toBe(result.rows);
  return result;
}

/** `url`: another endpoint of the fixture (/deferred/mcp: deferredSessionObject). */
const initialize = (version = "2025-11-25", url?: string) =>
  post(
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "c", version: "1" } },
    },
    { url },
  );

beforeEach(() => {
  resetMeter();
});

describe("each operation's cost", () => {
  let s: Session;

  it("a short 2025 session: initialize, initialized, one simple call, abandoned: 4 object requests, at most 4 rows", async () => {
    let sessionId = "";
    const init = await operation("2025 initialize", async () => {
      const res = await initialize();
      sessionId = res.headers.get("Mcp-Session-Id") ?? "";
      await res.text();
    });
    expect(init.requests).toEqual(["session.init"]);
    s = { sessionId, version: "2025-11-25" };
    const initialized = await operation("2025 notifications/initialized", async () => {
      expect((await post({ jsonrpc: "2.0", method: "notifications/initialized" }, s)).status).toBe(202);
    });
    // The object confirms the session (an ended one's notification is 404, as every message's).
    expect(initialized.requests).toEqual(["session.confirm"]);
    const simple = await operation("2025 simple call", () =>
      call(s.sessionId, s.version, "tools/call", { name: "echo", arguments: { text: "x" } }),
    );
    expect(simple.requests).toEqual(["session.confirm"]);
    const expiry = await operation("2025 expiry alarm", () => sleep(PAST_EXPIRY_MS));
    expect(expiry.requests).toEqual(["session.alarm"]);
    // The session is gone: 404, as before.
    expect((await post({ jsonrpc: "2.0", id: 9, method: "ping" }, s)).status).toBe(404);

    const life = [init, initialized, simple, expiry];
    expect(life.reduce((n, c) => n + c.requests.length, 0)).toBeLessThanOrEqual(4);
    expect(life.reduce((n, c) => n + c.rows, 0)).toBeLessThanOrEqual(4);
  });

  it("a 2025 DELETE with nothing running: one object request, the storage goes in it (no alarm left to run)", async () => {
    const res = await initialize();
    const t = { sessionId: res.headers.get("Mcp-Session-Id") ?? "", version: "2025-11-25" };
    await res.text();
    await call(t.sessionId, t.version, "tools/call", { name: "echo", arguments: { text: "x" } });
    const ended = await operation("2025 DELETE", async () => expect((await deleteSession(t)).status).toBe(204));
    expect(ended.requests).toHaveLength(1);
    // Nothing is left to fire: past the session's expiry no alarm reaches the object.
    const after = await cost(() => sleep(PAST_EXPIRY_MS));
    expect(after.requests).toEqual([]);
    expect((await post({ jsonrpc: "2.0", id: 9, method: "ping" }, t)).status).toBe(404);
  });

  it("deferredSessionObject: a short session costs two object requests and no row; a DELETE's tombstone goes at its one alarm", async () => {
    const url = "http://127.0.0.1:8787/deferred/mcp";
    let sessionId = "";
    const init = await operation("2025 initialize, deferred", async () => {
      const res = await initialize("2025-11-25", url);
      sessionId = res.headers.get("Mcp-Session-Id") ?? "";
      await res.text();
    });
    expect(init.requests).toEqual([]);
    const t = { sessionId, version: "2025-11-25" };
    const ping = (id: number) => post({ jsonrpc: "2.0", id, method: "ping" }, { ...t, url });
    const simple = await operation("2025 simple call, deferred (its first activity interval)", async () =>
      expect((await ping(1)).status).toBe(200),
    );
    expect(simple.requests).toEqual(["session.confirm"]);
    const ended = await operation("2025 DELETE, deferred", async () => {
      const res = await request(url, { method: "DELETE", headers: { "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "2025-11-25" } });
      expect(res.status).toBe(204);
    });
    expect(ended.requests).toEqual(["session.fetch"]);
    expect((await ping(2)).status).toBe(404);
    const alarm = await operation("2025 deferred tombstone alarm", () => sleep(PAST_EXPIRY_MS));
    expect(alarm.requests).toEqual(["session.alarm"]);
    // Past the sealed id's lifetime the empty object reads as expired: still 404, and nothing is left.
    expect((await ping(3)).status).toBe(404);
    const abandoned = await cost(async () => {
      const res = await initialize("2025-11-25", url);
      const u = { sessionId: res.headers.get("Mcp-Session-Id") ?? "", version: "2025-11-25", url };
      await res.text();
      expect((await post({ jsonrpc: "2.0", method: "notifications/initialized" }, u)).status).toBe(202);
      expect((await post({ jsonrpc: "2.0", id: 1, method: "ping" }, u)).status).toBe(200);
      await sleep(PAST_EXPIRY_MS);
    });
    expect([abandoned.requests.length, abandoned.rows]).toEqual([2, 0]);
  });

  it("a 2025 session with a GET stream and an interactive call: the counters match the meter over its whole life", async () => {
    const life = await cost(async () => {
      const res = await initialize();
      const t = { sessionId: res.headers.get("Mcp-Session-Id") ?? "", version: "2025-11-25" };
      await res.text();
      const stream = await getStream(t);
      await call(t.sessionId, t.version, "tools/call", { name: "echo", arguments: { text: "x" } });
      await sseOf(await postToolCall(t, 2, "stream_progress", { count: 2 }, "p")).all();
      await stream.body?.cancel();
      await sleep(PAST_EXPIRY_MS + 500);
    });
    console.log(
      `[costs] a session with a GET stream and an interactive call, whole life: ${life.requests.length} object requests, ${life.rows} rows`,
    );
    expect(life.counted).toEqual([life.requests.length, life.rows]);
  });

  it("a GET stream and an interactive call: one object request each", async () => {
    const res = await initialize();
    const t = { sessionId: res.headers.get("Mcp-Session-Id") ?? "", version: "2025-11-25" };
    await res.text();
    let stream: Response | undefined;
    const get = await operation(
      "2025 GET stream (open)",
      async () => {
        stream = await getStream(t);
      },
      "requests",
    );
    expect(get.requests).toEqual(["session.fetch"]);
    const interactive = await operation(
      "2025 interactive call (SSE)",
      async () => sseOf(await postToolCall(t, 2, "stream_progress", { count: 2 }, "p")).all(),
      "requests",
    );
    expect(interactive.requests).toEqual(["session.fetch"]);
    await stream?.body?.cancel();
  });

  it("2026-07-28 and stateless calls reach no object", async () => {
    const modern = await operation("2026-07-28 simple call", () =>
      post(
        {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: {
            name: "echo",
            arguments: { text: "x" },
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientCapabilities": {},
              "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" },
            },
          },
        },
        { version: "2026-07-28", headers: { "Mcp-Method": "tools/call", "Mcp-Name": "echo" } },
      ).then((r) => r.text()),
    );
    expect(modern.requests).toEqual([]);
  });
});

/** A 2026-07-28 tools/call of the demo's touch_resource: one publish of `uri`, whose answer waits for its delivery count. */
const touch = (uri: string) =>
  post2026("tools/call", { name: "touch_resource", arguments: { uri } }).then(async (res) => {
    expect(res.status).toBe(200);
    return res.text();
  });

/** Opens a 2026-07-28 listen stream through the Worker; its reader, after the acknowledgement. */
async function listenThroughWorker(notifications: Record<string, unknown>, capabilities: Record<string, unknown> = {}): Promise<SseReader> {
  const res = await post2026("subscriptions/listen", { notifications }, { meta: envelope(capabilities) });
  expect(res.status).toBe(200);
  const stream = new SseReader(res);
  expect((await stream.next())?.json?.method).toBe("notifications/subscriptions/acknowledged");
  return stream;
}

const TASKS = "io.modelcontextprotocol/tasks";

/** A task of the demo's slow_compute, created by a 2026-07-28 call; its id. */
async function createTask(seconds: number): Promise<string> {
  const res = await post2026(
    "tools/call",
    { name: "slow_compute", arguments: { seconds } },
    { capabilities: { extensions: { [TASKS]: {} } } },
  );
  const body = (await res.json()) as { result?: { resultType?: string; taskId?: string } };
  expect(body.result?.resultType).toBe("task");
  return body.result?.taskId as string;
}

describe("the hub's and a task's costs, and WebSocket messages", () => {
  it("a publish nobody listens to costs shard 0's request alone", async () => {
    const uri = `test://template/cost-${crypto.randomUUID()}/data`;
    const nobody = await operation("hub publish (nobody listening)", () => touch(uri));
    expect(nobody.requests).toEqual(["hub.publish"]);
  });

  it("a listen stream: its upgrade and its filter (one WebSocket message); a publish it hears costs shard 0's request", async () => {
    const uri = `test://template/cost-${crypto.randomUUID()}/data`;
    let stream: SseReader | undefined;
    const open = await operation("2026-07-28 listen stream (open)", async () => {
      stream = await listenThroughWorker({ resourceSubscriptions: [uri] });
    });
    expect(open.requests).toEqual(["hub.fetch"]);
    expect(open.webSocketMessages).toBe(1);
    const heard = await operation("hub publish (one listen stream)", async () => {
      await touch(uri);
      expect((await stream?.next())?.json?.method).toBe("notifications/resources/updated");
    });
    expect(heard.requests).toEqual(["hub.publish"]);
    await stream?.cancel();
  });

  it("a task created and run: with nobody listening, and with a listen stream for it", async () => {
    // The sessions of the tests above expire first: their alarms would report rows they wrote before this test.
    await sleep(PAST_EXPIRY_MS);
    const alone = await operation("2026-07-28 task created and run (nobody listening)", async () => {
      await createTask(0);
      // The run and its status publishes finish in the task object after the answer.
      await sleep(500);
    });
    expect(alone.requests.filter((r) => r === "hub.publish").length).toBeGreaterThan(0);
    let stream: SseReader | undefined;
    const heard = await cost(async () => {
      const taskId = await createTask(1);
      stream = await listenThroughWorker({ taskIds: [taskId] }, { extensions: { [TASKS]: {} } });
      for (;;) {
        const event = await stream.next();
        const status = (event?.json?.params as { status?: string } | undefined)?.status;
        if (event === undefined || status === "completed") break;
      }
      await sleep(300);
    });
    console.log(`[costs] a task run with a listen stream for it: ${heard.requests.join(", ")}; ${heard.rows} rows`);
    expect(heard.counted).toEqual([heard.requests.length, heard.rows]);
    expect(heard.countedMessages).toBe(heard.webSocketMessages);
    await stream?.cancel();
  });
});

afterAll(() => {
  // docs/costs.md's table says what was measured here, row for row.
  console.log(`[costs] ${JSON.stringify(Object.fromEntries(measured))}`);
  const table = pageTable();
  for (const [name, figures] of measured) expect(table.get(name), `the costs page's row for ${name}`).toEqual(figures);
});
