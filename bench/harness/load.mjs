// The benchmark's load driver: a bounded, closed-loop load over undici connection pools.
// `connections` logical clients each run one operation after another (one operation may be
// several HTTP requests, e.g. a whole session's life) until `requests` operations have started
// or `durationMs` has passed. Owns: timing and counting. Does not know what an operation does.
// Invariant: every operation is timed from before its first byte is sent to after its last
// response byte is read; a failing operation is counted as an error and never timed.

import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { Pool } from "undici";
import { median } from "./report.mjs";

/** Generous per-request limits: a stuck request is an error, never a hang. */
const HEADERS_TIMEOUT_MS = 60_000;
const BODY_TIMEOUT_MS = 120_000;
/** The error messages kept per run, for the report. */
const ERRORS_KEPT = 5;
/** Idle means: the servers used at most IDLE_TICKS clock ticks (10 ms each) of CPU in IDLE_WINDOW_MS. */
const IDLE_WINDOW_MS = 200;
const IDLE_TICKS = 2;

/** A keep-alive connection pool to one origin, sized for `connections` concurrent operations. */
export function createPool(origin, connections) {
  return new Pool(origin, {
    connections,
    pipelining: 1,
    headersTimeout: HEADERS_TIMEOUT_MS,
    bodyTimeout: BODY_TIMEOUT_MS,
    keepAliveTimeout: 30_000,
  });
}

/**
 * One HTTP request whose whole body is read as text. Throws unless the status is `expect`.
 * @returns {Promise<{ status: number, headers: Record<string, string | string[] | undefined>, text: string }>}
 */
export async function send(pool, { method = "POST", path, headers, body, expect = 200 }) {
  const res = await pool.request({ method, path, headers, body });
  const text = await res.body.text();
  if (res.statusCode !== expect) {
    throw new Error(`${method} ${path}: HTTP ${res.statusCode} (expected ${expect}): ${text.slice(0, 200)}`);
  }
  return { status: res.statusCode, headers: res.headers, text };
}

/** The value at quantile q (0..1) of an ascending array, nearest rank. */
export function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/**
 * Runs `operation(client)` in a closed loop on `connections` logical clients.
 * `client` is the index of the logical client (0..connections-1): operations that belong to a
 * session use it to pick their session. Returns ops/s over the run's wall time, and the
 * latencies (ms, ascending) and percentiles of the operations that succeeded.
 */
export async function runLoad({ connections, requests, durationMs, operation }) {
  const latencies = [];
  const errors = [];
  let errorCount = 0;
  let started = 0;
  const t0 = performance.now();
  const deadline = durationMs ? t0 + durationMs : Infinity;
  const limit = durationMs ? Infinity : requests;

  const loop = async (client) => {
    while (started < limit && performance.now() < deadline) {
      started++;
      const begin = performance.now();
      try {
        await operation(client);
        latencies.push(performance.now() - begin);
      } catch (err) {
        errorCount++;
        if (errors.length < ERRORS_KEPT) errors.push(String(err?.message ?? err));
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, i) => loop(i)));
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    latencies,
    operations: started,
    completed: latencies.length,
    errors: errorCount,
    errorSamples: errors,
    seconds,
    perSecond: latencies.length / seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    mean: latencies.length ? latencies.reduce((a, b) => a + b, 0) / latencies.length : NaN,
  };
}

/** CPU clock ticks (user + system) used so far by the given processes (Linux /proc), or undefined where /proc is missing. */
export function processTicks(pids) {
  if (!existsSync("/proc/self")) return undefined;
  let ticks = 0;
  for (const pid of pids) {
    try {
      // /proc/<pid>/stat: "pid (comm) state ... utime(14) stime(15)"; comm may hold spaces.
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {} // the process has ended
  }
  return ticks;
}

/**
 * CPU milliseconds (user + system) used so far by the given processes, from every thread's
 * /proc/<pid>/task/<tid>/schedstat (nanoseconds); where that is missing, from the clock ticks of
 * /proc/<pid>/stat. A burst of the floor is about 10 ticks of CPU, so reading it in ticks alone
 * moved a CPU ratio by several per cent from one run to the next; nanoseconds do not.
 */
export function processCpuMs(pids) {
  if (!existsSync("/proc/self/task")) {
    const ticks = processTicks(pids);
    return ticks === undefined ? undefined : ticks * TICK_MS;
  }
  let ns = 0;
  for (const pid of pids) {
    let tids;
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // the process has ended
    }
    for (const tid of tids) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
      } catch {} // the thread has ended
    }
  }
  return ns / 1e6;
}

/**
 * Waits until the servers' workerd processes are idle (work a burst left behind is done), at least
 * `minMs` and at most `maxMs`. Where /proc is missing it just waits `minMs`.
 */
export async function waitForIdle(pids, minMs, maxMs) {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const deadline = performance.now() + maxMs;
  await sleep(minMs);
  let before = processTicks(pids);
  if (before === undefined) return;
  while (performance.now() < deadline) {
    await sleep(IDLE_WINDOW_MS);
    const now = processTicks(pids);
    if (now - before <= IDLE_TICKS) return;
    before = now;
  }
}

// ---- bursts: sides measured in alternation, and their summaries ----------------------------------

/** The longest wait for the servers to go idle between bursts. */
export const SETTLE_MAX_MS = 5_000;
/** Milliseconds per /proc clock tick (CPU per call). */
const TICK_MS = (() => {
  try {
    return 1000 / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
  } catch {
    return 10;
  }
})();

/**
 * Per side: ops/s is the median over bursts, p50/p99 are over every operation of every burst,
 * errors are summed. `perOperation` turns ops/s into e.g. notifications/s.
 */
export function summarise(bursts, perOperation = 1) {
  const latencies = bursts.flatMap((b) => b.latencies).sort((a, b) => a - b);
  const cpuMs = bursts.reduce((n, b) => n + (b.cpuMs ?? NaN), 0);
  const completed = bursts.reduce((n, b) => n + b.completed, 0);
  return {
    // User + system CPU of the side's workerd processes over its bursts, per call (per notification).
    cpuMsPerOperation: cpuMs / (completed * perOperation),
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
export function pairedRatio(top, bottom) {
  return median(top.map((b, i) => b.perSecond / (bottom[i]?.perSecond ?? NaN)));
}

/**
 * Runs each side's operation in alternating short bursts (the order rotates every burst), so a
 * slow minute on a shared machine hits every side alike; a ratio is the median of the ratios
 * of adjacent bursts. Each side is warmed up first. Returns the bursts per side.
 */
export async function runBursts(opts, scenario, sides) {
  const connections = scenario.connections ?? opts.connections;
  const operations = scenario.operations ?? opts.requests * (scenario.scale ?? 1);
  const count = scenario.countOnly ? operations : Math.min(opts.bursts, operations);
  const perBurst = scenario.countOnly ? 1 : Math.ceil(operations / count);
  const durationMs = !scenario.countOnly && opts.durationMs ? opts.durationMs / count : undefined;
  const warmup = scenario.warmupOperations ?? Math.max(connections * 10, Math.ceil(operations / 4));
  for (const side of sides) await runLoad({ connections, requests: warmup, operation: side.operation });
  const bursts = sides.map(() => []);
  for (let b = 0; b < count; b++) {
    // Every side takes every place in the order equally often, before and after every other side:
    // rotations, then the same reversed. (Flipping only start and end kept a middle side in the
    // middle, and where a side runs moves its CPU figure by several per cent.)
    const rotation = sides.map((_, i) => (i + b) % sides.length);
    const order = Math.floor(b / sides.length) % 2 === 0 ? rotation : rotation.reverse();
    for (const i of order) {
      // Work a burst leaves behind (wrangler's Node process hears of every SSE response, the
      // runtime collects garbage) must not be billed to the next side.
      await waitForIdle(opts.serverPids, opts.settleMs, SETTLE_MAX_MS);
      const pids = sides[i].pids ?? [];
      const before = processCpuMs(pids);
      const burst = await runLoad({ connections, requests: perBurst, durationMs, operation: sides[i].operation });
      // CPU per call: this side's processes from the burst's start until they are idle again, so
      // work the burst left behind (garbage collection) is billed to it (not waited for with
      // --settle 0, e.g. --smoke, whose CPU figures are too short to read anyway).
      if (opts.settleMs > 0 && pids.length > 0) await waitForIdle(pids, 0, SETTLE_MAX_MS);
      const after = processCpuMs(pids);
      bursts[i].push({ ...burst, cpuMs: before === undefined || pids.length === 0 ? NaN : after - before });
    }
    process.stderr.write(".");
  }
  process.stderr.write("\n");
  return bursts;
}

export async function runRequestScenario(opts, scenario, pids) {
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
