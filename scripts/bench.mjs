// `npm run bench`: mcp-edge side by side with the platform's floor, in one run on 127.0.0.1.
// Starts two Workers in-process (scripts/worker-server.mjs; Miniflare alone unless --runner wrangler): the demo server built with
// bench limits (bench/demo) and a floor Worker that only parses the body and answers a fixed
// JSON-RPC result (bench/floor); beside them the same echo tool under the `agents` package's
// createMcpHandler (bench/agents, the 2026-07-28 reference) and the listen Worker (bench/listen:
// publish → hub → listen stream). Drives them with the same bounded closed-loop load
// (scripts/bench-load.mjs, undici) in short bursts that alternate floor and mcp-edge, each
// started once both servers are idle, and reports per scenario ops/s, p50/p99 latency, errors
// and the ratio to the floor (the median of adjacent-burst ratios), CPU per call (user + system
// time of each side's own workerd process over its bursts, from /proc), the Durable Object round
// trips per request kind (counted by the bench Worker), and bundle sizes. Prints Markdown tables
// and writes JSON (tables: scripts/bench-report.mjs). Both Workers run with wrangler's devtools
// inspector off and Durable Object storage on tmpfs unless told otherwise (--inspector,
// --storage disk): neither is part of the runtime or of the edge, and each costs the session
// lane more than the runtime does (docs/benchmarks.md "Benchmarks").
// Benchmarks print numbers: only errors fail a run, never a slow result.
// `--smoke` is a short run for CI that only asserts every scenario completed without errors.

import { execFileSync } from "node:child_process";
import { accessSync, constants as fsConstants, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, platform, release, tmpdir, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { measureBundle, measureSizeComparison } from "./bench-bundle.mjs";
import { createPool, processTicks, quantile, runLoad, send, waitForIdle } from "./bench-load.mjs";
import { fmt, median, renderReport, verdicts } from "./bench-report.mjs";
import { startWorker } from "./worker-server.mjs";
import { sqliteBytes, workerdRss } from "./footprint.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DEMO_CONFIG = join(REPO_ROOT, "bench", "demo", "wrangler.toml");
const FLOOR_CONFIG = join(REPO_ROOT, "bench", "floor", "wrangler.toml");
const RUNTIME_CONFIG = join(REPO_ROOT, "bench", "runtime", "wrangler.toml");
const AGENTS_CONFIG = join(REPO_ROOT, "bench", "agents", "wrangler.toml");
const LISTEN_CONFIG = join(REPO_ROOT, "bench", "listen", "wrangler.toml");
const DEMO_BUNDLE_CONFIG = join(REPO_ROOT, "wrangler.toml");

const PROTOCOL_VERSION = "2025-11-25";
const ACCEPT_BOTH = "application/json, text/event-stream";
/** Memory-backed folder for Durable Object storage (Linux); see `--storage`. */
const MEMORY_TMP = "/dev/shm";
/** The longest wait for the servers to go idle between bursts. */
const SETTLE_MAX_MS = 5_000;
/** Events the replay scenario resumes: the last REPLAY_TAIL of the stream. */
const REPLAY_TAIL = 100;
/** Milliseconds per /proc clock tick (CPU per call). */
const TICK_MS = (() => {
  try {
    return 1000 / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
  } catch {
    return 10;
  }
})();

/** Everything a run measures, in order; `--only` picks some. */
const PARTS = [
  "stateless",
  "modern",
  "mrtr",
  "tasks-create",
  "tasks-get",
  "simple",
  "interactive",
  "sessions",
  "notifications",
  "listen",
  "replay",
  "round-trips",
  "footprint",
  "bundle",
];

/** Full run and smoke run defaults; every one can be overridden on the command line. */
const DEFAULTS = {
  full: {
    connections: 10,
    requests: 4000,
    bursts: 10,
    settleMs: 100,
    notifications: 20_000,
    listenNotifications: 2_000,
    streams: 6,
    replayEvents: 100_000,
    footprintSessions: 1000,
  },
  smoke: {
    connections: 2,
    requests: 40,
    bursts: 2,
    settleMs: 0,
    notifications: 500,
    listenNotifications: 100,
    streams: 2,
    replayEvents: 2_000,
    footprintSessions: 20,
  },
};

const USAGE = `usage: npm run bench -- [options]

  --connections <n>     concurrent clients (default ${DEFAULTS.full.connections})
  --requests <n>        operations per side and scenario (default ${DEFAULTS.full.requests}; session creation runs a quarter as many)
  --duration <s>        time-bound each side of each scenario instead of counting operations
  --bursts <n>          split each side's operations into this many bursts, alternating floor and mcp-edge (default ${DEFAULTS.full.bursts})
  --settle <ms>         pause at least this long before each burst, and until both servers are idle (at most ${SETTLE_MAX_MS / 1000} s), so one side's leftover work is not billed to the next (default ${DEFAULTS.full.settleMs})
  --notifications <n>   progress notifications per SSE stream (default ${DEFAULTS.full.notifications})
  --listen-notifications <n>  resourceUpdated events published per burst to one 2026-07-28 listen stream (default ${DEFAULTS.full.listenNotifications})
  --streams <n>         SSE streams per side in the notification scenario, one per burst (default ${DEFAULTS.full.streams})
  --replay-events <n>   events stored in the large replay stream (default ${DEFAULTS.full.replayEvents})
  --footprint-sessions <n>  live sessions opened per side to measure memory and storage per session (default ${DEFAULTS.full.footprintSessions})
  --storage <where>     Durable Object storage of both Workers: "memory" (${MEMORY_TMP}, default where it exists) or "disk" (the OS temp folder)
  --runner <runner>     "miniflare" (default): both bundled as for deploy and served by Miniflare alone; "wrangler": both under wrangler dev in this process, whose proxy then shares the load generator's event loop (absolute figures drop several times, ratios stay close)
  --inspector           keep wrangler's devtools inspector proxy on (off by default: it turns every subrequest into devtools events)
  --only <parts>        comma-separated subset of: ${PARTS.join(", ")} (default: all)
  --json <file>         where to write the JSON results (default bench-results/bench-<time>.json; none in --smoke)
  --smoke               a short run that only asserts every scenario completed without errors
  -h, --help`;

function isWritableDir(path) {
  try {
    accessSync(path, fsConstants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      connections: { type: "string" },
      requests: { type: "string" },
      duration: { type: "string" },
      bursts: { type: "string" },
      settle: { type: "string" },
      notifications: { type: "string" },
      "listen-notifications": { type: "string" },
      streams: { type: "string" },
      "replay-events": { type: "string" },
      json: { type: "string" },
      storage: { type: "string" },
      only: { type: "string" },
      "footprint-sessions": { type: "string" },
      inspector: { type: "boolean" },
      runner: { type: "string" },
      smoke: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const base = values.smoke ? DEFAULTS.smoke : DEFAULTS.full;
  const nonNegative = (name, value) => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0) {
      console.error(`--${name} must be a number ≥ 0\n\n${USAGE}`);
      process.exit(2);
    }
    return n;
  };
  const int = (name, fallback) => {
    if (values[name] === undefined) return fallback;
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n <= 0) {
      console.error(`--${name} must be a positive integer\n\n${USAGE}`);
      process.exit(2);
    }
    return n;
  };
  const replayEvents = int("replay-events", base.replayEvents);
  if (replayEvents <= REPLAY_TAIL || replayEvents > 100_000) {
    console.error(`--replay-events must be between ${REPLAY_TAIL + 1} and 100000 (stream_progress sends at most 100,000)`);
    process.exit(2);
  }
  const storage = values.storage ?? (isWritableDir(MEMORY_TMP) ? "memory" : "disk");
  if (storage !== "memory" && storage !== "disk") {
    console.error(`--storage must be "memory" or "disk"`);
    process.exit(2);
  }
  if (storage === "memory" && !isWritableDir(MEMORY_TMP)) {
    console.error(`--storage memory needs a writable ${MEMORY_TMP}`);
    process.exit(2);
  }
  const runner = values.runner ?? "miniflare";
  if (runner !== "wrangler" && runner !== "miniflare") {
    console.error(`--runner must be "wrangler" or "miniflare"`);
    process.exit(2);
  }
  const only = new Set(values.only ? values.only.split(",").map((p) => p.trim()) : PARTS);
  for (const part of only) {
    if (!PARTS.includes(part)) {
      console.error(`--only: unknown part "${part}" (parts: ${PARTS.join(", ")})`);
      process.exit(2);
    }
  }
  return {
    smoke: values.smoke ?? false,
    only,
    storage,
    inspector: values.inspector ?? false,
    runner,
    connections: int("connections", base.connections),
    requests: int("requests", base.requests),
    durationMs: values.duration === undefined ? undefined : int("duration", 0) * 1000,
    bursts: int("bursts", base.bursts),
    settleMs: values.settle === undefined ? base.settleMs : nonNegative("settle", values.settle),
    notifications: int("notifications", base.notifications),
    listenNotifications: int("listen-notifications", base.listenNotifications),
    streams: int("streams", base.streams),
    replayEvents,
    footprintSessions: int("footprint-sessions", base.footprintSessions),
    json:
      values.json ??
      (values.smoke ? undefined : join(REPO_ROOT, "bench-results", `bench-${new Date().toISOString().replace(/[:.]/g, "-")}.json`)),
  };
}

// ---- MCP messages, serialised once ---------------------------------------------------------

const rpc = (id, method, params) =>
  JSON.stringify(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
const INITIALIZE = rpc(0, "initialize", {
  protocolVersion: PROTOCOL_VERSION,
  capabilities: {},
  clientInfo: { name: "mcp-edge-bench", version: "1.0.0" },
});
const INITIALIZED = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
const ECHO_CALL = rpc(1, "tools/call", { name: "echo", arguments: { text: "hello" } });
// 2026-07-28: the envelope travels in every request's _meta, the headers mirror the body.
const MODERN_ECHO_CALL = rpc(1, "tools/call", {
  name: "echo",
  arguments: { text: "hello" },
  _meta: {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "mcp-edge-bench", version: "1.0.0" },
  },
});
const MODERN_HEADERS = {
  "content-type": "application/json",
  accept: ACCEPT_BOTH,
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "mcp-name": "echo",
};
const MODERN_META = MODERN_ECHO_CALL && JSON.parse(MODERN_ECHO_CALL).params._meta;
const mrtrCall = (extra) =>
  rpc(3, "tools/call", {
    name: "test_input_required_result_elicitation",
    arguments: {},
    _meta: { ...MODERN_META, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } },
    ...extra,
  });
const MRTR_HEADERS = { ...MODERN_HEADERS, "mcp-name": "test_input_required_result_elicitation" };

/** One MRTR round trip: the ask (input_required + requestState), then the retry with the answer. */
async function mrtrRound(demo) {
  const first = JSON.parse((await send(demo, { path: "/mcp", headers: MRTR_HEADERS, body: mrtrCall({}) })).text).result;
  if (first?.resultType !== "input_required") throw new Error(`MRTR: expected input_required, got ${JSON.stringify(first).slice(0, 200)}`);
  const retry = mrtrCall({
    inputResponses: { user_name: { action: "accept", content: { name: "Alice" } } },
    requestState: first.requestState,
  });
  const done = JSON.parse((await send(demo, { path: "/mcp", headers: MRTR_HEADERS, body: retry })).text).result;
  if (done?.content?.[0]?.text !== "Hello, Alice!") throw new Error(`MRTR: unexpected final answer ${JSON.stringify(done).slice(0, 200)}`);
}

// Tasks extension: a task tool called by a client that declared the extension becomes a task.
const TASKS_META = {
  ...MODERN_META,
  "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
};
const TASK_CALL = rpc(4, "tools/call", { name: "slow_compute", arguments: { seconds: 0 }, _meta: TASKS_META });
const TASK_HEADERS = { ...MODERN_HEADERS, "mcp-name": "slow_compute" };

/** Creates one task (answered only once its object stored it) and returns its id. */
async function createBenchTask(demo) {
  const result = JSON.parse((await send(demo, { path: "/mcp", headers: TASK_HEADERS, body: TASK_CALL })).text).result;
  if (result?.resultType !== "task" || typeof result.taskId !== "string")
    throw new Error(`tasks: expected a CreateTaskResult, got ${JSON.stringify(result).slice(0, 200)}`);
  return result.taskId;
}

/** tasks/get of one task; returns its status. */
async function getBenchTask(demo, taskId) {
  const headers = { ...MODERN_HEADERS, "mcp-method": "tasks/get", "mcp-name": taskId };
  const result = JSON.parse(
    (await send(demo, { path: "/mcp", headers, body: rpc(5, "tasks/get", { taskId, _meta: TASKS_META }) })).text,
  ).result;
  if (typeof result?.status !== "string") throw new Error(`tasks/get: unexpected answer ${JSON.stringify(result).slice(0, 200)}`);
  return result.status;
}

const progressCall = (count) => rpc(2, "tools/call", { name: "stream_progress", arguments: { count }, _meta: { progressToken: 1 } });

const POST_HEADERS = { "content-type": "application/json", accept: ACCEPT_BOTH };
const sessionHeaders = (sessionId) => ({ ...POST_HEADERS, "mcp-session-id": sessionId, "mcp-protocol-version": PROTOCOL_VERSION });

function countOf(text, needle) {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

function expectEcho(text) {
  if (JSON.parse(text).result?.content?.[0]?.text !== "hello") throw new Error(`unexpected echo answer: ${text.slice(0, 200)}`);
}

/** An SSE body must hold `count` progress notifications and end with the tool's `done <count>`. */
function expectProgressStream(text, count) {
  const progress = countOf(text, '"notifications/progress"');
  if (progress !== count || !text.includes(`done ${count}`)) {
    throw new Error(
      `SSE stream had ${progress} of ${count} progress notifications${text.includes(`done ${count}`) ? "" : " and no result"}`,
    );
  }
}

async function openSession(pool) {
  const init = await send(pool, { path: "/mcp", headers: POST_HEADERS, body: INITIALIZE });
  const sessionId = init.headers["mcp-session-id"];
  if (typeof sessionId !== "string") throw new Error("initialize answered without Mcp-Session-Id");
  await send(pool, { path: "/mcp", headers: sessionHeaders(sessionId), body: INITIALIZED, expect: 202 });
  return sessionId;
}

async function closeSession(pool, sessionId) {
  await send(pool, { method: "DELETE", path: "/mcp", headers: sessionHeaders(sessionId), expect: 204 });
}

// ---- scenarios -------------------------------------------------------------------------------

/**
 * Each scenario: what a floor operation and an mcp-edge operation are, and how many to run.
 * `pids` names the workerd processes of each server, so CPU per call is billed to the side that
 * spent it (a reference runs on the floor's server unless it names its own).
 */
function requestScenarios(opts, { demo, floor, agents, pids }) {
  const sessionsOf = async () => Promise.all(Array.from({ length: opts.connections }, () => openSession(demo)));
  const floorEcho = async () => expectEcho((await send(floor, { path: "/mcp", headers: POST_HEADERS, body: ECHO_CALL })).text);
  return [
    {
      key: "stateless",
      name: "stateless tools/call (echo)",
      unit: "req/s",
      floor: floorEcho,
      ours: async () =>
        expectEcho(
          (
            await send(demo, {
              path: "/stateless/mcp",
              headers: { ...POST_HEADERS, "mcp-protocol-version": PROTOCOL_VERSION },
              body: ECHO_CALL,
            })
          ).text,
        ),
    },
    {
      key: "modern",
      name: "2026-07-28 tools/call (echo, stateless by the protocol)",
      unit: "req/s",
      // The floor parses the same body (with its _meta envelope) and headers.
      floor: async () => expectEcho((await send(floor, { path: "/mcp", headers: MODERN_HEADERS, body: MODERN_ECHO_CALL })).text),
      ours: async () => expectEcho((await send(demo, { path: "/mcp", headers: MODERN_HEADERS, body: MODERN_ECHO_CALL })).text),
      // The same request to the same tool under `agents`' createMcpHandler (its own Worker, with
      // nodejs_compat, its own workerd process): the budget is mcp-edge ≥ 1.5 × its throughput.
      references: agents
        ? [
            {
              key: "agents",
              name: `agents ${versionOf("agents")} createMcpHandler (stateless, same echo tool)`,
              pids: pids.agents,
              operation: async () =>
                expectEcho((await send(agents, { path: "/mcp", headers: MODERN_HEADERS, body: MODERN_ECHO_CALL })).text),
            },
          ]
        : [],
    },
    {
      key: "mrtr",
      name: "2026-07-28 MRTR round (ask + retry with the answer), vs one floor call",
      unit: "rounds/s",
      floor: floorEcho,
      ours: async () => mrtrRound(demo),
    },
    {
      key: "tasks-create",
      name: "tasks: tools/call creating a task (stored by its own object before the answer), vs one floor call",
      unit: "tasks/s",
      floor: floorEcho,
      ours: async () => createBenchTask(demo),
    },
    {
      key: "tasks-get",
      name: "tasks: tasks/get of a completed task (its object answers from storage), vs one floor call",
      unit: "req/s",
      setup: async () => {
        const taskId = await createBenchTask(demo);
        for (let i = 0; i < 200 && (await getBenchTask(demo, taskId)) === "working"; i++) await new Promise((r) => setTimeout(r, 10));
        return taskId;
      },
      floor: floorEcho,
      ours: async (_client, taskId) => {
        if ((await getBenchTask(demo, taskId)) !== "completed") throw new Error("tasks/get: the task is not completed");
      },
      // tasks/get against a plain 2026-07-28 call to the same Worker: the cost of the object hop.
      references: [
        {
          key: "plain",
          name: "mcp-edge 2026-07-28 tools/call (echo), the plain call tasks/get is compared with",
          pids: pids.demo,
          operation: async () => expectEcho((await send(demo, { path: "/mcp", headers: MODERN_HEADERS, body: MODERN_ECHO_CALL })).text),
        },
      ],
    },
    {
      key: "simple",
      name: "session tools/call, simple (Worker lane + confirm)",
      unit: "req/s",
      setup: sessionsOf,
      floor: floorEcho,
      ours: async (client, sessions) =>
        expectEcho((await send(demo, { path: "/mcp", headers: sessionHeaders(sessions[client]), body: ECHO_CALL })).text),
    },
    {
      key: "interactive",
      name: "session tools/call, interactive (DO lane, SSE)",
      unit: "req/s",
      setup: sessionsOf,
      floor: floorEcho,
      ours: async (client, sessions) => {
        const res = await send(demo, { path: "/mcp", headers: sessionHeaders(sessions[client]), body: progressCall(1) });
        expectProgressStream(res.text, 1);
      },
      // Not budgets: what the platform alone costs for an SSE answer, from the Worker and from a
      // Durable Object (under wrangler dev, every SSE response also costs a message to wrangler's
      // Node process).
      references: [
        {
          name: "floor Worker answering with SSE (1 notification + result)",
          operation: async () =>
            expectProgressStream((await send(floor, { path: "/sse?count=1", headers: POST_HEADERS, body: progressCall(1) })).text, 1),
        },
        {
          name: "floor Worker → Durable Object answering with SSE, no storage",
          operation: async (client) =>
            expectProgressStream(
              (await send(floor, { path: `/do-sse?count=1&object=${client}`, headers: POST_HEADERS, body: progressCall(1) })).text,
              1,
            ),
        },
      ],
    },
    {
      key: "sessions",
      name: "session creation (initialize + initialized + call + DELETE)",
      unit: "sessions/s",
      operations: Math.max(1, Math.ceil(opts.requests / 4)),
      floor: async () => {
        await send(floor, { path: "/mcp", headers: POST_HEADERS, body: INITIALIZE });
        await send(floor, { path: "/mcp", headers: POST_HEADERS, body: INITIALIZED });
        await floorEcho();
        await send(floor, { method: "DELETE", path: "/mcp", headers: POST_HEADERS, expect: 204 });
      },
      ours: async () => {
        const sessionId = await openSession(demo);
        expectEcho((await send(demo, { path: "/mcp", headers: sessionHeaders(sessionId), body: ECHO_CALL })).text);
        await closeSession(demo, sessionId);
      },
      // Not a budget: the same four requests where the first creates a Durable Object and stores
      // one row, and DELETE deletes its storage; the platform's cost of a session's life.
      references: [
        {
          name: "floor with a new Durable Object per session (1 row stored, deleted at DELETE)",
          operation: async () => {
            const init = await send(floor, { path: "/do-init", headers: POST_HEADERS, body: INITIALIZE });
            const sessionId = String(init.headers["mcp-session-id"]);
            await send(floor, { path: "/mcp", headers: POST_HEADERS, body: INITIALIZED });
            await floorEcho();
            await send(floor, { method: "DELETE", path: "/mcp", headers: { ...POST_HEADERS, "mcp-session-id": sessionId }, expect: 204 });
          },
        },
      ],
    },
    {
      key: "notifications",
      name: `notifications on one SSE stream (${opts.notifications.toLocaleString("en-US")} per stream)`,
      unit: "notifications/s",
      connections: 1,
      operations: opts.streams,
      countOnly: true,
      warmupOperations: 1,
      perOperation: opts.notifications,
      setup: async () => [await openSession(demo)],
      floor: async () =>
        expectProgressStream(
          (await send(floor, { path: `/sse?count=${opts.notifications}`, headers: POST_HEADERS, body: progressCall(opts.notifications) }))
            .text,
          opts.notifications,
        ),
      ours: async (_client, sessions) => {
        const res = await send(demo, { path: "/mcp", headers: sessionHeaders(sessions[0]), body: progressCall(opts.notifications) });
        expectProgressStream(res.text, opts.notifications);
      },
    },
  ];
}

const UPDATED = '"notifications/resources/updated"';
/** The longest a listen stream may take to carry what was published to it. */
const LISTEN_WAIT_MS = 60_000;

/** Counts the resourceUpdated notifications an open SSE body has carried; `until(n)` resolves once it has carried n in all. */
function notificationCounter(body) {
  let seen = 0;
  let tail = "";
  let waiter;
  let ended;
  body.setEncoding("utf8");
  body.on("data", (chunk) => {
    const text = tail + chunk;
    seen += countOf(text, UPDATED);
    // Keep what could be the start of a method name cut by the chunk boundary.
    const last = text.lastIndexOf(UPDATED);
    tail = text.slice(Math.max(last === -1 ? 0 : last + UPDATED.length, text.length - UPDATED.length + 1));
    if (waiter && seen >= waiter.want) waiter.resolve();
  });
  const end = (err) => {
    ended ??= err ?? new Error("the listen stream ended");
    waiter?.reject(ended);
  };
  body.on("error", end);
  body.on("end", () => end());
  return {
    until(want) {
      if (seen >= want) return Promise.resolve();
      if (ended) return Promise.reject(ended);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`the listen stream carried ${seen} of ${want} notifications in ${LISTEN_WAIT_MS / 1000} s`)),
          LISTEN_WAIT_MS,
        );
        const settle = (fn) => (value) => {
          clearTimeout(timer);
          waiter = undefined;
          fn(value);
        };
        waiter = { want, resolve: settle(resolve), reject: settle(reject) };
      });
    },
    close: () => body.destroy(),
  };
}

/**
 * 2026-07-28 listen stream (bench/listen): one stream open on the hub; each operation publishes
 * `listenNotifications` resourceUpdated events from one Worker invocation (one publish RPC each,
 * one after another) and ends when the stream has carried them all. The floor: the same Worker
 * writes as many hand-formatted notifications on a fresh SSE response. Reference: the same
 * events published all at once (concurrent RPCs).
 */
function listenScenario(opts, listen) {
  const n = opts.listenNotifications;
  const published = (mode) => async (_client, stream) => {
    const { delivered } = JSON.parse(
      (await send(listen, { path: `/publish?count=${n}&mode=${mode}`, headers: POST_HEADERS, body: "" })).text,
    );
    if (delivered !== n) throw new Error(`publish reached ${delivered} of ${n} listen streams × events`);
    stream.expected += n;
    await stream.counter.until(stream.expected);
  };
  let state;
  return {
    key: "listen",
    name: `2026-07-28 listen stream: publish → hub → stream (${n.toLocaleString("en-US")} per burst), vs hand-formatted SSE`,
    unit: "notifications/s",
    connections: 1,
    operations: opts.streams,
    countOnly: true,
    warmupOperations: 1,
    perOperation: n,
    setup: async () => {
      const res = await listen.request({ method: "POST", path: "/listen", headers: POST_HEADERS, body: "" });
      if (res.statusCode !== 200) throw new Error(`listen: HTTP ${res.statusCode}: ${(await res.body.text()).slice(0, 200)}`);
      state = { counter: notificationCounter(res.body), expected: 0 };
      return state;
    },
    teardown: () => state?.counter.close(),
    floor: async () => {
      const text = (await send(listen, { path: `/sse?count=${n}`, headers: POST_HEADERS, body: "" })).text;
      if (countOf(text, UPDATED) !== n) throw new Error(`the floor stream carried ${countOf(text, UPDATED)} of ${n} notifications`);
    },
    ours: published("seq"),
    references: [
      { name: "the same events published all at once (concurrent publish RPCs)", operation: (client) => published("par")(client, state) },
    ],
  };
}

/**
 * Per side: ops/s is the median over bursts, p50/p99 are over every operation of every burst,
 * errors are summed. `perOperation` turns ops/s into e.g. notifications/s.
 */
function summarise(bursts, perOperation = 1) {
  const latencies = bursts.flatMap((b) => b.latencies).sort((a, b) => a - b);
  const cpuTicks = bursts.reduce((n, b) => n + (b.cpuTicks ?? NaN), 0);
  const completed = bursts.reduce((n, b) => n + b.completed, 0);
  return {
    // User + system CPU of the side's workerd processes over its bursts, per call (per notification).
    cpuMsPerOperation: (cpuTicks * TICK_MS) / (completed * perOperation),
    perSecond: median(bursts.map((b) => b.perSecond * perOperation)),
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    errors: bursts.reduce((n, b) => n + b.errors, 0),
    operations: bursts.reduce((n, b) => n + b.operations, 0),
    completed: bursts.reduce((n, b) => n + b.completed, 0),
    errorSamples: bursts.flatMap((b) => b.errorSamples).slice(0, 5),
    bursts: bursts.map(({ latencies: _, ...burst }) => burst),
  };
}

/** The median over bursts of one side's ops/s divided by the other's in the same burst pair. */
function pairedRatio(top, bottom) {
  return median(top.map((b, i) => b.perSecond / (bottom[i]?.perSecond ?? NaN)));
}

/**
 * Runs each side's operation in alternating short bursts (the order flips every burst), so a
 * slow minute on a shared machine hits every side alike; a ratio is the median of the ratios
 * of adjacent bursts. Each side is warmed up first. Returns the bursts per side.
 */
async function runBursts(opts, scenario, sides) {
  const connections = scenario.connections ?? opts.connections;
  const operations = scenario.operations ?? opts.requests;
  const count = scenario.countOnly ? operations : Math.min(opts.bursts, operations);
  const perBurst = scenario.countOnly ? 1 : Math.ceil(operations / count);
  const durationMs = !scenario.countOnly && opts.durationMs ? opts.durationMs / count : undefined;
  const warmup = scenario.warmupOperations ?? Math.max(connections * 10, Math.ceil(operations / 4));
  for (const side of sides) await runLoad({ connections, requests: warmup, operation: side.operation });
  const bursts = sides.map(() => []);
  for (let b = 0; b < count; b++) {
    const order = b % 2 === 0 ? sides.map((_, i) => i) : sides.map((_, i) => sides.length - 1 - i);
    for (const i of order) {
      // Work a burst leaves behind (wrangler's Node process hears of every SSE response, the
      // runtime collects garbage) must not be billed to the next side.
      await waitForIdle(opts.serverPids, opts.settleMs, SETTLE_MAX_MS);
      const pids = sides[i].pids ?? [];
      const before = processTicks(pids);
      const burst = await runLoad({ connections, requests: perBurst, durationMs, operation: sides[i].operation });
      // CPU per call: this side's processes from the burst's start until they are idle again, so
      // work the burst left behind (garbage collection) is billed to it (not waited for with
      // --settle 0, e.g. --smoke, whose CPU figures are too short to read anyway).
      if (opts.settleMs > 0 && pids.length > 0) await waitForIdle(pids, 0, SETTLE_MAX_MS);
      const after = processTicks(pids);
      bursts[i].push({ ...burst, cpuTicks: before === undefined || pids.length === 0 ? NaN : after - before });
    }
    process.stderr.write(".");
  }
  process.stderr.write("\n");
  return bursts;
}

async function runRequestScenario(opts, scenario, pids) {
  process.stderr.write(`bench: ${scenario.name} …`);
  const state = scenario.setup ? await scenario.setup() : undefined;
  const references = scenario.references ?? [];
  let sideBursts;
  try {
    sideBursts = await runBursts(opts, scenario, [
      { pids: pids.floor, operation: (c) => scenario.floor(c) },
      { pids: pids.ours, operation: (c) => scenario.ours(c, state) },
      ...references.map((ref) => ({ pids: ref.pids ?? pids.floor, operation: (c) => ref.operation(c) })),
    ]);
  } finally {
    scenario.teardown?.();
  }
  const [floorBursts, ourBursts, ...referenceBursts] = sideBursts;
  const floor = summarise(floorBursts, scenario.perOperation);
  const ours = summarise(ourBursts, scenario.perOperation);
  const referenceSummaries = references.map((ref, i) => ({
    key: ref.key,
    name: ref.name,
    ...summarise(referenceBursts[i], scenario.perOperation),
    oursRatio: pairedRatio(ourBursts, referenceBursts[i]),
    floorRatio: pairedRatio(referenceBursts[i], floorBursts),
  }));
  return {
    key: scenario.key,
    name: scenario.name,
    unit: scenario.unit,
    ours,
    floor,
    references: referenceSummaries,
    ratio: pairedRatio(ourBursts, floorBursts),
  };
}

/** Stores a stream of `events` events (count-1 progress notifications + the response) and returns the replay cursor for its last REPLAY_TAIL. */
async function storeStream(demo, events) {
  const sessionId = await openSession(demo);
  const res = await send(demo, { path: "/mcp", headers: sessionHeaders(sessionId), body: progressCall(events - 1) });
  expectProgressStream(res.text, events - 1);
  const last = /id: (\d+)_(\d+)\n(?![\s\S]*id: )/.exec(res.text);
  if (!last) throw new Error("the stored stream carried no event ids");
  const [stream, seq] = [Number(last[1]), Number(last[2])];
  return { sessionId, lastEventId: `${stream}_${seq - REPLAY_TAIL}`, stored: seq };
}

async function runReplayScenario(opts, demo) {
  process.stderr.write(`bench: replay (storing ${opts.replayEvents.toLocaleString("en-US")} events) …`);
  const small = await storeStream(demo, REPLAY_TAIL);
  const large = await storeStream(demo, opts.replayEvents);
  const replay = (target) => async () => {
    const res = await send(demo, {
      method: "GET",
      path: "/mcp",
      headers: {
        accept: "text/event-stream",
        "mcp-session-id": target.sessionId,
        "mcp-protocol-version": PROTOCOL_VERSION,
        "last-event-id": target.lastEventId,
      },
    });
    const events = countOf(res.text, "\nid: ") + (res.text.startsWith("id: ") ? 1 : 0);
    if (events !== REPLAY_TAIL || !res.text.includes("done "))
      throw new Error(`replay sent ${events} events, expected ${REPLAY_TAIL} ending with the response`);
  };
  const [smallBursts, largeBursts] = await runBursts(opts, {}, [{ operation: replay(small) }, { operation: replay(large) }]);
  const smallSummary = summarise(smallBursts);
  const largeSummary = summarise(largeBursts);
  return {
    key: "replay",
    name: `replay of the last ${REPLAY_TAIL} events`,
    unit: "req/s",
    small: { stored: small.stored, ...smallSummary },
    large: { stored: large.stored, ...largeSummary },
    // Cost ratio: how much slower a replay from the large stream is (1 = the same).
    ratio: pairedRatio(smallBursts, largeBursts),
    p50Ratio: largeSummary.p50 / smallSummary.p50,
  };
}

/** docs/sessions.md "How requests are served": the calls each request kind makes to the session object. */
async function countRoundTrips(demo) {
  const counted = async ({ method = "POST", path = "/mcp", headers = {}, body, expect = 200, stream = false }) => {
    const res = await demo.request({ method, path, headers: { ...headers, "x-bench-count-round-trips": "1" }, body });
    // An open standalone stream never ends by itself: take the headers and hang up.
    let text = "";
    if (stream) res.body.destroy();
    else text = await res.body.text();
    if (res.statusCode !== expect) throw new Error(`${method} ${path}: HTTP ${res.statusCode}, expected ${expect}: ${text.slice(0, 200)}`);
    const calls = String(res.headers["x-bench-round-trips"]);
    return { calls: calls === "none" ? [] : calls.split(","), headers: res.headers, text };
  };
  const rows = [];
  const add = async (request, expected, spec) => {
    const answer = await counted(spec);
    rows.push({ request, calls: answer.calls, expected });
    return answer;
  };
  const init = await add("initialize", ["init"], { headers: POST_HEADERS, body: INITIALIZE });
  const h = sessionHeaders(String(init.headers["mcp-session-id"]));
  await add("notifications/initialized", ["fetch"], { headers: h, body: INITIALIZED, expect: 202 });
  await add("ping", ["confirm"], { headers: h, body: rpc(3, "ping") });
  await add("tools/list", ["confirm"], { headers: h, body: rpc(4, "tools/list") });
  await add("tools/call, simple tool (echo)", ["confirm"], { headers: h, body: ECHO_CALL });
  await add("resources/read", ["confirm"], { headers: h, body: rpc(5, "resources/read", { uri: "test://static-text" }) });
  const interactive = await add("tools/call, interactive tool (stream_progress, SSE)", ["fetch"], { headers: h, body: progressCall(2) });
  await add("logging/setLevel", ["fetch"], { headers: h, body: rpc(6, "logging/setLevel", { level: "info" }) });
  await add("GET (standalone stream)", ["fetch"], { method: "GET", headers: { ...h, accept: "text/event-stream" }, stream: true });
  const firstId = /id: (\d+_[1-9]\d*)\n/.exec(interactive.text)?.[1];
  if (!firstId) throw new Error("the interactive call's stream carried no event id");
  await add("GET with Last-Event-ID (replay)", ["fetch"], {
    method: "GET",
    headers: { ...h, accept: "text/event-stream", "last-event-id": firstId },
  });
  await add("DELETE", ["fetch"], { method: "DELETE", headers: h, expect: 204 });
  await add("forged Mcp-Session-Id", [], { headers: sessionHeaders("a".repeat(64)), body: rpc(7, "ping"), expect: 404 });
  await add("stateless tools/call", [], { path: "/stateless/mcp", headers: POST_HEADERS, body: ECHO_CALL });
  return rows.map((r) => ({ ...r, ok: r.calls.join(",") === r.expected.join(",") }));
}

/**
 * Memory and local storage per live session, each side measured on its own server: the growth of
 * the server's workerd resident memory and of its SQLite files while `footprintSessions` sessions
 * are opened and kept (mcp-edge: initialize + initialized; floor: a new Durable Object storing one
 * row). Figures, not budgets: resident memory moves with the allocator and GC.
 */
async function runFootprint(opts, demo, floor, demoServer, floorServer) {
  const n = opts.footprintSessions;
  const measure = async (server, open) => {
    await waitForIdle(opts.serverPids, 200, 5_000);
    const rss = workerdRss(server.workerdPids);
    const stored = sqliteBytes(server.persistDir);
    let started = 0;
    let errors = 0;
    await Promise.all(
      Array.from({ length: opts.connections }, async () => {
        while (started < n) {
          started++;
          await open().catch(() => errors++);
        }
      }),
    );
    await waitForIdle(opts.serverPids, 200, 5_000);
    return {
      sessions: n,
      errors,
      memoryPerSession: (workerdRss(server.workerdPids) - rss) / n,
      storagePerSession: (sqliteBytes(server.persistDir) - stored) / n,
    };
  };
  process.stderr.write(`bench: memory and storage of ${n} live sessions per side …\n`);
  const ours = await measure(demoServer, () => openSession(demo));
  const base = await measure(floorServer, () => send(floor, { path: "/do-init", headers: POST_HEADERS, body: INITIALIZE }));
  return { ours, floor: base };
}

function versionOf(pkg) {
  try {
    return JSON.parse(readFileSync(join(REPO_ROOT, "node_modules", pkg, "package.json"), "utf8")).version;
  } catch {
    return "?";
  }
}

function machineInfo() {
  const cpu = cpus();
  return {
    date: new Date().toISOString().slice(0, 16).replace("T", " ") + " UTC",
    cpu: cpu[0]?.model.trim() ?? "unknown CPU",
    cores: cpu.length,
    memory: `${Math.round(totalmem() / 2 ** 30)} GiB`,
    os: `${platform()} ${release()}`,
    node: process.versions.node,
    wrangler: versionOf("wrangler"),
    workerd: versionOf("workerd"),
    loadBefore: loadavg()[0].toFixed(2),
  };
}

// ---- main ------------------------------------------------------------------------------------

/** Thrown when the parts asked for need no Worker running (bundle sizes only). */
class SkipServers extends Error {}

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  const machine = machineInfo();
  const started = performance.now();
  const servers = [];
  const pools = [];
  const results = [];
  let roundTrips;
  let footprint;
  let agentsUnavailable;
  const bundles = {};
  try {
    if ([...opts.only].every((part) => part === "bundle")) throw new SkipServers();
    process.stderr.write(`bench: starting the demo and floor Workers (${opts.runner}) …\n`);
    const serverOptions = { tmpDir: opts.storage === "memory" ? MEMORY_TMP : tmpdir(), inspector: opts.inspector, runner: opts.runner };
    // One after the other: each server's workerd processes are told apart by when they appeared.
    const demoServer = await startWorker({ ...serverOptions, configPath: DEMO_CONFIG });
    servers.push(demoServer);
    const floorServer = await startWorker({ ...serverOptions, configPath: FLOOR_CONFIG });
    servers.push(floorServer);
    // The reference and the listen Worker, each in its own workerd process (CPU per call is
    // read per process). `agents` needs nodejs_compat; if it cannot start, the run says why.
    let agentsServer;
    if (opts.only.has("modern")) {
      try {
        agentsServer = await startWorker({ ...serverOptions, configPath: AGENTS_CONFIG });
        servers.push(agentsServer);
      } catch (err) {
        agentsUnavailable = String(err?.message ?? err).split("\n")[0];
        process.stderr.write(`bench: the agents createMcpHandler Worker did not start, its rows are left out: ${agentsUnavailable}\n`);
      }
    }
    let listenServer;
    if (opts.only.has("listen")) {
      listenServer = await startWorker({ ...serverOptions, configPath: LISTEN_CONFIG });
      servers.push(listenServer);
    }
    opts.serverPids = servers.flatMap((s) => s.workerdPids);
    const demo = createPool(demoServer.url, opts.connections);
    const floor = createPool(floorServer.url, opts.connections);
    pools.push(demo, floor);
    const agents = agentsServer && createPool(agentsServer.url, opts.connections);
    if (agents) pools.push(agents);
    const pids = { demo: demoServer.workerdPids, floor: floorServer.workerdPids, agents: agentsServer?.workerdPids };

    for (const scenario of requestScenarios(opts, { demo, floor, agents, pids })) {
      if (opts.only.has(scenario.key)) results.push(await runRequestScenario(opts, scenario, { floor: pids.floor, ours: pids.demo }));
    }
    if (listenServer) {
      // Its own pool: the listen stream holds one connection for the whole scenario.
      const listen = createPool(listenServer.url, 2);
      pools.push(listen);
      results.push(
        await runRequestScenario(opts, listenScenario(opts, listen), { floor: listenServer.workerdPids, ours: listenServer.workerdPids }),
      );
    }
    if (opts.only.has("replay")) results.push(await runReplayScenario(opts, demo));
    if (opts.only.has("round-trips")) {
      process.stderr.write("bench: counting Durable Object round trips …\n");
      roundTrips = await countRoundTrips(demo);
    }
    // Last: the sessions it opens stay live, and would weigh on the scenarios above.
    if (opts.only.has("footprint")) footprint = await runFootprint(opts, demo, floor, demoServer, floorServer);
  } catch (err) {
    if (!(err instanceof SkipServers)) throw err;
  } finally {
    await Promise.allSettled(pools.map((p) => p.close()));
    await Promise.allSettled(servers.map((s) => s.stop()));
  }
  if (opts.only.has("bundle")) {
    process.stderr.write("bench: measuring bundles (wrangler deploy --dry-run) …\n");
    bundles.runtime = await measureBundle({ repoRoot: REPO_ROOT, configPath: RUNTIME_CONFIG });
    bundles.demo = await measureBundle({ repoRoot: REPO_ROOT, configPath: DEMO_BUNDLE_CONFIG });
    // The comparison installs the alternatives once (bench/size); a smoke run skips it.
    if (!opts.smoke) bundles.comparison = await measureSizeComparison({ repoRoot: REPO_ROOT });
  }

  machine.loadAfter = loadavg()[0].toFixed(2);
  const budgets = verdicts(results, bundles, { agentsUnavailable });
  const command = `npm run bench --${process.argv
    .slice(2)
    .map((a) => ` ${a}`)
    .join("")}`.replace(/ --$/, "");
  const report = {
    machine,
    command,
    agentsUnavailable,
    options: { ...opts, only: [...opts.only], serverPids: undefined },
    results,
    roundTrips,
    footprint,
    bundles,
    budgets,
    seconds: (performance.now() - started) / 1000,
  };
  console.log(renderReport(report));

  const failures = [
    ...results
      .flatMap((r) =>
        r.key === "replay"
          ? [
              ["replay (100)", r.small],
              ["replay (large)", r.large],
            ]
          : [
              [`${r.name} (mcp-edge)`, r.ours],
              [`${r.name} (floor)`, r.floor],
            ],
      )
      .concat(results.flatMap((r) => (r.references ?? []).map((ref) => [ref.name, ref])))
      .filter(([, side]) => side.errors > 0 || side.completed === 0)
      .map(
        ([name, side]) =>
          `${name}: ${side.errors} errors of ${side.operations} operations${side.errorSamples.length ? ` (${side.errorSamples[0]})` : ""}`,
      ),
    ...(roundTrips ?? [])
      .filter((r) => !r.ok)
      .map((r) => `round trips of ${r.request}: ${r.calls.length}, docs/sessions.md says ${r.expected.length}`),
    ...(footprint
      ? [
          ["mcp-edge", footprint.ours],
          ["floor", footprint.floor],
        ]
      : []
    )
      .filter(([, side]) => side.errors > 0)
      .map(([name, side]) => `footprint (${name}): ${side.errors} of ${side.sessions} sessions failed to open`),
  ];
  if (opts.json) {
    mkdirSync(dirname(resolve(opts.json)), { recursive: true });
    writeFileSync(resolve(opts.json), JSON.stringify(report, null, 2) + "\n");
    console.error(`bench: results written to ${opts.json}`);
  }
  console.error(`bench: ${fmt(report.seconds, 0)} s`);
  if (failures.length > 0) {
    console.error(`bench: ${failures.length} scenario(s) did not complete cleanly:\n  ${failures.join("\n  ")}`);
    process.exitCode = 1;
  } else if (opts.smoke) {
    console.error("bench --smoke: every scenario completed without errors");
  }
}

main().catch((err) => {
  console.error(`bench: ${err?.stack ?? err}`);
  process.exitCode = 1;
});
