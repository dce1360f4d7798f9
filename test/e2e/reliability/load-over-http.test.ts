// Bounded load over real HTTP on 127.0.0.1 against the Worker under `wrangler dev` (in-process): many
// sessions at once, many concurrent requests per session, many open streams, and 1,000 minted
// session ids. Every request gets its correct answer; nothing is lost. Loops are bounded in count.
import { describe, expect, it } from "vitest";
import { SseReader, type SseEvent } from "../../helpers/sse";
import { sqliteBytes, workerdRss } from "../../../bench/harness/footprint.mjs";
import { useWorker } from "../helpers/server";

const server = useWorker();
const ACCEPT = "application/json, text/event-stream";
const VERSION = "2025-06-18";

interface Session {
  id: string;
}

function postJson(body: unknown, session?: Session): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: ACCEPT, "MCP-Protocol-Version": VERSION };
  if (session) headers["Mcp-Session-Id"] = session.id;
  return fetch(server.mcpUrl, { method: "POST", headers, body: JSON.stringify(body) });
}

async function initialize(): Promise<Session> {
  const res = await postJson({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "load", version: "1" } },
  });
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).toBe(200);
  const id = res.headers.get("Mcp-Session-Id") as string;
  const ack = await postJson({ jsonrpc: "2.0", method: "notifications/initialized" }, { id });
  expect(ack.status).toBe(202);
  return { id };
}

/** Runs `tasks` with at most `width` in flight. */
async function pool<T>(width: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, tasks.length) }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await (tasks[i] as () => Promise<T>)();
      }
    }),
  );
  return results;
}

const figures = { sessions: 0, requests: 0, sseEvents: 0, openStreamsHeld: 0, idsMinted: 0, memoryPerSession: 0, storagePerSession: 0 };
function report(what: string, started: number): void {
  console.log(
    `[reliability] e2e ${what}: ${Object.entries(figures)
      .map(([k, v]) => `${k}=${v}`)
      .join(" ")} elapsedMs=${Date.now() - started}`,
  );
}

/**
 * The documented bound (docs/reliability.md "Load and limits") on what one new session stores locally:
 * its own SQLite database (the event log's five tables, with SQLite's page and WAL overhead).
 */
const MAX_STORAGE_PER_SESSION = 128 * 1024;

describe("load over real HTTP (bounded)", () => {
  it("mints 1,000 distinct, well-formed session ids, each within the documented storage per session", { timeout: 120_000 }, async () => {
    const started = Date.now();
    const rssBefore = workerdRss(server.server.workerdPids);
    const storedBefore = sqliteBytes(server.server.persistDir);
    const ids = await pool(
      20,
      Array.from({ length: 1000 }, (_, i) => async () => {
        const res = await postJson({ jsonrpc: "2.0", id: i, method: "initialize", params: { protocolVersion: VERSION, capabilities: {} } });
        expect(res.status).toBe(200);
        await res.text();
        return res.headers.get("Mcp-Session-Id") as string;
      }),
    );
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(ids).size).toBe(1000);
    figures.idsMinted = ids.length;
    // Every session object is still live (none idle long enough to be evicted): the growth is theirs.
    // Memory is a figure here, not a bound (timing- and GC-dependent: its ratio lives in npm run bench).
    const memoryPerSession = Math.round((workerdRss(server.server.workerdPids) - rssBefore) / ids.length);
    const storagePerSession = Math.round((sqliteBytes(server.server.persistDir) - storedBefore) / ids.length);
    Object.assign(figures, { memoryPerSession, storagePerSession });
    expect(rssBefore, "no workerd process found for the server").toBeGreaterThan(0);
    expect(storagePerSession).toBeGreaterThan(0);
    expect(storagePerSession).toBeLessThanOrEqual(MAX_STORAGE_PER_SESSION);
    report("session ids", started);
  });

  it("serves 50 sessions at once, each with 20 concurrent requests (JSON and SSE), every answer correct", {
    timeout: 120_000,
  }, async () => {
    const started = Date.now();
    const sessions = await pool(
      10,
      Array.from({ length: 50 }, () => initialize),
    );
    figures.sessions += sessions.length;
    await Promise.all(
      sessions.map(async (s, si) => {
        await Promise.all(
          Array.from({ length: 20 }, async (_, r) => {
            const id = `${si}-${r}`;
            figures.requests++;
            if (r % 4 === 0) {
              const res = await postJson(
                {
                  jsonrpc: "2.0",
                  id,
                  method: "tools/call",
                  params: { name: "stream_progress", arguments: { count: 20 }, _meta: { progressToken: id } },
                },
                s,
              );
              expect(
                res.headers.get("Content-Type"),
                `${res.status} ${res.headers.get("Content-Type") === "text/event-stream" ? "" : (await res.clone().text()).slice(0, 300)}`,
              ).toBe("text/event-stream");
              const events = await new SseReader(res).all();
              figures.sseEvents += events.length;
              expect(
                events
                  .filter((e) => e.json?.method === "notifications/progress")
                  .map((e) => (e.json?.params as { progress: number }).progress),
              ).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
              expect(events.at(-1)?.json).toMatchObject({ id, result: { content: [{ text: "done 20" }] } });
            } else {
              const res = await postJson(
                { jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: { text: id } } },
                s,
              );
              expect(await res.json()).toMatchObject({ id, result: { content: [{ text: id }] } });
            }
          }),
        );
      }),
    );
    report("concurrent sessions", started);
  });

  it("holds 200 standalone streams open across 20 sessions while every session still answers, then closes them", {
    timeout: 120_000,
  }, async () => {
    const started = Date.now();
    const sessions = await pool(
      10,
      Array.from({ length: 20 }, () => initialize),
    );
    const controllers: AbortController[] = [];
    const readers: SseReader[] = [];
    for (const s of sessions) {
      for (let i = 0; i < 10; i++) {
        const controller = new AbortController();
        // A GET without an answer after 15 s fails, naming it (BUG-7 in docs/reliability.md was wrangler dev's
        // proxy parking such GETs; fixed upstream, so no workaround is left here).
        const n = controllers.length + 1;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const noAnswer = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`GET ${n} (session ${s.id.slice(0, 8)}, its #${i + 1}) got no answer within 15 s`)),
            15_000,
          );
        });
        const res = await Promise.race([
          fetch(server.mcpUrl, {
            method: "GET",
            signal: controller.signal,
            headers: { Accept: "text/event-stream", "Mcp-Session-Id": s.id, "MCP-Protocol-Version": VERSION },
          }),
          noAnswer,
        ]).finally(() => clearTimeout(timer));
        expect(res.status).toBe(200);
        controllers.push(controller);
        readers.push(new SseReader(res));
      }
    }
    figures.openStreamsHeld = readers.length;
    const answers = await Promise.all(
      sessions.map(async (s, i) => {
        figures.requests++;
        const res = await postJson({ jsonrpc: "2.0", id: i, method: "ping" }, s);
        return res.json();
      }),
    );
    answers.forEach((a, i) => expect(a).toEqual({ jsonrpc: "2.0", id: i, result: {} }));
    for (const c of controllers) c.abort();
    await Promise.allSettled(readers.map((r) => r.cancel()));
    report("open streams", started);
  });

  it("runs 100 interactive calls at once in one session, each on its own stream with its own response", { timeout: 120_000 }, async () => {
    const started = Date.now();
    const s = await initialize();
    const finals: SseEvent[] = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        figures.requests++;
        const res = await postJson(
          {
            jsonrpc: "2.0",
            id: i,
            method: "tools/call",
            params: { name: "test_tool_with_progress", arguments: {}, _meta: { progressToken: `t${i}` } },
          },
          s,
        );
        expect(res.status).toBe(200);
        const events = await new SseReader(res).all();
        figures.sseEvents += events.length;
        expect(
          events.every(
            (e) => e.json?.method !== "notifications/progress" || (e.json.params as { progressToken: string }).progressToken === `t${i}`,
          ),
        ).toBe(true);
        return events.at(-1) as SseEvent;
      }),
    );
    finals.forEach((e, i) =>
      expect(e.json).toMatchObject({ id: i, result: { content: [{ text: "Tool with progress executed successfully" }] } }),
    );
    report("concurrent calls in one session", started);
  });
});
