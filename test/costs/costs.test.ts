/**
 * What each operation costs, as the platform bills it (meter.ts: object requests and rows written,
 * counted at the objects and their storage), against two things that must say the same: the
 * table in docs/costs.md "What each operation costs", and the `onEvent` counters (the sum of the
 * events' doRequests and rowsWritten over an operation, or over a whole session life when an
 * operation's rows are only known at its end).
 */
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { call, post } from "../helpers/mcp";
import { getStream, postToolCall, sseOf, type Session } from "../helpers/session";
import costsPage from "../../docs/costs.md?raw";
import { events } from "./entry";
import { billed, resetMeter } from "./meter";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Past the 1.5 s idle timeout (wrangler.toml), with room for the alarm to run. */
const PAST_EXPIRY_MS = 2200;

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

/** Runs `work`, and returns what the platform billed for it and what onEvent said, summed. */
async function cost(work: () => Promise<unknown>): Promise<{ requests: string[]; rows: number; counted: [number, number] }> {
  resetMeter();
  events.length = 0;
  await work();
  const { requests, rows } = billed();
  const counted: [number, number] = [events.reduce((n, e) => n + e.doRequests, 0), events.reduce((n, e) => n + e.rowsWritten, 0)];
  return { requests, rows, counted };
}

/** Records an operation's figures for the page check, and holds the counters to the meter. */
async function operation(name: string, work: () => Promise<unknown>, counters: "exact" | "requests" = "exact") {
  const result = await cost(work);
  measured.set(name, [result.requests.length, result.rows]);
  expect(result.counted[0], `${name}: onEvent's doRequests against the object requests billed`).toBe(result.requests.length);
  if (counters === "exact") expect(result.counted[1], `${name}: onEvent's rowsWritten against the rows billed`).toBe(result.rows);
  return result;
}

const initialize = (version = "2025-11-25") =>
  post({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "c", version: "1" } },
  });

beforeEach(() => {
  resetMeter();
});

describe("each operation's cost", () => {
  let s: Session;

  it("a short 2025 session: initialize, initialized, one simple call, abandoned: 3 object requests, at most 4 rows", async () => {
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
    expect(initialized.requests).toEqual([]);
    const simple = await operation("2025 simple call", () =>
      call(s.sessionId, s.version, "tools/call", { name: "echo", arguments: { text: "x" } }),
    );
    expect(simple.requests).toEqual(["session.confirm"]);
    const expiry = await operation("2025 expiry alarm", () => sleep(PAST_EXPIRY_MS));
    expect(expiry.requests).toEqual(["session.alarm"]);
    // The session is gone: 404, as before.
    expect((await post({ jsonrpc: "2.0", id: 9, method: "ping" }, s)).status).toBe(404);

    const life = [init, initialized, simple, expiry];
    expect(life.reduce((n, c) => n + c.requests.length, 0)).toBeLessThanOrEqual(3);
    expect(life.reduce((n, c) => n + c.rows, 0)).toBeLessThanOrEqual(4);
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

afterAll(() => {
  // docs/costs.md's table says what was measured here, row for row.
  console.log(`[costs] ${JSON.stringify(Object.fromEntries(measured))}`);
  const table = pageTable();
  for (const [name, figures] of measured) expect(table.get(name), `the costs page's row for ${name}`).toEqual(figures);
});
