/**
 * Termination is a state every path respects (issue 16, defects 1 and 2). After DELETE or idle
 * expiry, before and after the alarm deleted the storage, every verb on every endpoint
 * (Streamable HTTP and the 2024-11-05 /messages endpoint) answers 404. And as a race, with
 * fast-check seeds: requests fired at a session while it is deleted either complete or get a
 * clean 404, never a 5xx; handlers that ignore their signal keep emitting after the end, and
 * what they emit is dropped without a log line.
 */
import { runInDurableObject } from "cloudflare:test";
import fc from "fast-check";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { SseReader } from "../helpers/sse";
import { makeIdle, runTerminationAlarm, sessionStub, type Session } from "../helpers/session";
import { BASE, deleteSession, getStream, post, request, startSession } from "./support/direct";
import { fuzzParameters, reportFigures } from "./support/settings";

const figures = { races: 0, requests: 0, served: 0, notFound: 0, status5xx: 0, logLines: 0, pathsChecked: 0 };
afterAll(() => reportFigures("hostile-termination", figures));

let consoleError: MockInstance;
beforeEach(() => {
  consoleError = vi.spyOn(console, "error");
});
afterEach(() => {
  consoleError.mockRestore();
});

/** A legacy (2024-11-05) session: its stream, the endpoint its POSTs go to, and its id. */
interface LegacySession extends Session {
  endpoint: string;
  stream: ReadableStreamDefaultReader<Uint8Array>;
}

async function openLegacySession(): Promise<LegacySession> {
  const res = await request(`${BASE}/sse`, { method: "GET", headers: { Accept: "text/event-stream" } });
  expect(res.status).toBe(200);
  const stream = (res.body as ReadableStream<Uint8Array>).getReader();
  let text = "";
  while (!text.includes("\n\n")) text += new TextDecoder().decode((await stream.read()).value);
  const endpoint = /data: (.*)\n/.exec(text)?.[1] ?? "";
  const sessionId = new URL(endpoint, BASE).searchParams.get("sessionId") as string;
  const legacy = { sessionId, version: "2024-11-05", endpoint, stream };
  // A client reads its stream: a POST's probe of the stream waits for the read.
  void (async () => {
    while (!(await stream.read().catch(() => ({ done: true }))).done);
  })();
  const init = {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  };
  expect((await postLegacy(legacy, init)).status).toBe(202);
  expect((await postLegacy(legacy, { jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);
  return legacy;
}

function postLegacy(s: { endpoint: string }, body: unknown): Promise<Response> {
  return request(`${BASE}${s.endpoint}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}

const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args, _meta: { progressToken: id } },
});

/** Every way a client can address a session; each returns the HTTP response. */
const verbs: [string, (s: Session) => Promise<Response>][] = [
  ["POST ping (answered in the Worker after confirm)", (s) => post({ jsonrpc: "2.0", id: 1, method: "ping" }, s)],
  ["POST an interactive call (the object's stream lane)", (s) => post(call(1, "stream_progress", { count: 1 }), s)],
  [
    "POST logging/setLevel (the object's JSON lane)",
    (s) => post({ jsonrpc: "2.0", id: 1, method: "logging/setLevel", params: { level: "info" } }, s),
  ],
  ["POST a notification", (s) => post({ jsonrpc: "2.0", method: "notifications/roots/list_changed" }, s)],
  ["POST a client response", (s) => post({ jsonrpc: "2.0", id: "s-x-1", result: {} }, s)],
  ["GET the standalone stream", (s) => getStream(s)],
  ["GET with Last-Event-ID", (s) => getStream(s, "1_1")],
  ["DELETE", (s) => deleteSession(s)],
  [
    "POST to the legacy /messages endpoint",
    (s) => postLegacy({ endpoint: `/messages?sessionId=${s.sessionId}` }, { jsonrpc: "2.0", id: 1, method: "ping" }),
  ],
];

async function expectNotFound(res: Response, what: string): Promise<void> {
  expect(res.status, what).toBe(404);
  expect(((await res.json()) as { error: { code: number } }).error.code, what).toBe(-32001);
  figures.pathsChecked++;
}

const endings: [string, (s: Session) => Promise<void>][] = [
  ["DELETE, before its alarm ran", async (s) => void expect((await deleteSession(s)).status).toBe(204)],
  [
    "DELETE, after its alarm deleted the storage",
    async (s) => {
      expect((await deleteSession(s)).status).toBe(204);
      await runTerminationAlarm(s);
    },
  ],
  [
    "idle expiry",
    async (s) => {
      await makeIdle(s);
      await runTerminationAlarm(s);
    },
  ],
];

const loggedInternals = () =>
  consoleError.mock.calls
    .map((c) => c.map(String).join(" "))
    .filter((line) => /no such table|storing an event failed|failed unexpectedly/i.test(line));

describe("after the session ended, every verb on every endpoint answers 404", () => {
  for (const [ending, end] of endings) {
    it(`a Streamable HTTP session, after ${ending}`, async () => {
      const s = await startSession("2025-06-18");
      await end(s);
      for (const [what, send] of verbs) await expectNotFound(await send(s), what);
      expect(loggedInternals()).toEqual([]);
    });

    it(`a 2024-11-05 session, after ${ending}`, async () => {
      const legacy = await openLegacySession();
      if (ending === "idle expiry") {
        // An open stream keeps a session alive: the client leaves, and its next POST finds out.
        await legacy.stream.cancel();
        await expectNotFound(await postLegacy(legacy, { jsonrpc: "2.0", id: 1, method: "ping" }), "a POST after the stream was lost");
      }
      await end(legacy);
      for (const [what, send] of verbs) await expectNotFound(await send(legacy), what);
      expect(loggedInternals()).toEqual([]);
    });
  }
});

/** One request of a race: what it sends and how its answer is checked. */
type Shot = "ping" | "progress" | "logging" | "slow" | "setLevel" | "subscribe" | "unsubscribe" | "get" | "batch";

function fire(shot: Shot, s: Session, id: number): Promise<Response> {
  switch (shot) {
    case "ping":
      return post({ jsonrpc: "2.0", id, method: "ping" }, s);
    case "progress": // reports progress, ignoring its signal between steps
      return post(call(id, "test_tool_with_progress"), s);
    case "logging": // logs, ignoring its signal
      return post(call(id, "test_tool_with_logging"), s);
    case "slow": // honours its signal
      return post(call(id, "slow_countdown", { seconds: 5 }), s);
    case "setLevel":
      return post({ jsonrpc: "2.0", id, method: "logging/setLevel", params: { level: "debug" } }, s);
    case "subscribe":
      return post({ jsonrpc: "2.0", id, method: "resources/subscribe", params: { uri: "test://watched-resource" } }, s);
    case "unsubscribe":
      return post({ jsonrpc: "2.0", id, method: "resources/unsubscribe", params: { uri: "test://watched-resource" } }, s);
    case "get":
      return getStream(s);
    case "batch":
      return post([{ jsonrpc: "2.0", id, method: "ping" }, call(id + 1, "test_tool_with_logging")], { ...s, version: "2025-03-26" });
  }
}

/** Reads an answer to its end: a 5xx, an unreadable body or a leaked internal text fails the race. */
async function settle(res: Response, what: string): Promise<void> {
  figures.requests++;
  if (res.status >= 500) figures.status5xx++;
  expect(res.status, `${what}: ${res.status}`).toBeLessThan(500);
  if (res.status === 404) {
    figures.notFound++;
    expect(((await res.json()) as { error: { code: number } }).error.code, what).toBe(-32001);
    return;
  }
  figures.served++;
  expect([200, 202], what).toContain(res.status);
  const type = res.headers.get("Content-Type") ?? "";
  const text = type.includes("text/event-stream") ? (await new SseReader(res).all()).map((e) => e.data).join("\n") : await res.text();
  expect(text, what).not.toMatch(/no such table|Cannot read properties|protocolVersion'\)|"code":-32603/);
}

describe("requests racing the end of their session", () => {
  it("complete or get a clean 404, never a 5xx; emits after the end are dropped without a log line", { timeout: 60_000 }, async () => {
    const shots = fc.constantFrom<Shot>("ping", "progress", "logging", "slow", "setLevel", "subscribe", "unsubscribe", "get", "batch");
    await fc.assert(
      fc.asyncProperty(
        fc.array(shots, { minLength: 2, maxLength: 8 }),
        fc.nat({ max: 8 }),
        fc.boolean(),
        fc.boolean(),
        async (plan, deleteAt, afterHeaders, runAlarmToo) => {
          figures.races++;
          consoleError.mockClear();
          const s = await startSession("2025-03-26");
          const responses = plan.map((shot, i) => fire(shot, s, 10 + i * 2));
          // The DELETE goes out with the others, or once the first `deleteAt` have their headers:
          // then their handlers are running (streams open, progress flowing) when the session ends.
          const before = afterHeaders ? Promise.allSettled(responses.slice(0, deleteAt)) : Promise.resolve();
          const ended = before
            .then(() => deleteSession(s))
            .then(async (res) => {
              expect([204, 404]).toContain(res.status);
              if (runAlarmToo) await runTerminationAlarm(s);
            });
          const answers = responses.map((response, i) => response.then((res) => settle(res, plan[i] as Shot)));
          await ended;
          await Promise.all(answers);
          // Handlers that ignored their signal may still run: wait for them, then look at the log.
          await runInDurableObject(sessionStub(s.sessionId), (instance) => instance.settled());
          await expectNotFound(await post({ jsonrpc: "2.0", id: 99, method: "ping" }, s), "ping after the race");
          const lines = loggedInternals();
          figures.logLines += lines.length;
          expect(lines).toEqual([]);
        },
      ),
      fuzzParameters(40, 16),
    );
  });

  it("a legacy session's POSTs racing its DELETE get 202 or 404, never a 5xx", { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: 5 }), async (deleteAt) => {
        figures.races++;
        consoleError.mockClear();
        const legacy = await openLegacySession();
        const statuses: Promise<number>[] = [];
        let ended: Promise<unknown> = Promise.resolve();
        for (let i = 0; i < 6; i++) {
          if (i === deleteAt) ended = deleteSession(legacy);
          statuses.push(
            postLegacy(legacy, call(i + 1, i % 2 ? "test_tool_with_logging" : "echo", i % 2 ? {} : { text: "x" })).then((r) => r.status),
          );
        }
        await ended;
        for (const status of await Promise.all(statuses)) {
          figures.requests++;
          if (status >= 500) figures.status5xx++;
          expect([202, 404]).toContain(status);
        }
        await runInDurableObject(sessionStub(legacy.sessionId), (instance) => instance.settled());
        await expectNotFound(await postLegacy(legacy, { jsonrpc: "2.0", id: 1, method: "ping" }), "legacy POST after the race");
        expect(loggedInternals()).toEqual([]);
      }),
      fuzzParameters(10, 17),
    );
  });
});
