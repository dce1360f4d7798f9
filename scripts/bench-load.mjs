// The benchmark's load driver: a bounded, closed-loop load over undici connection pools.
// `connections` logical clients each run one operation after another (one operation may be
// several HTTP requests, e.g. a whole session's life) until `requests` operations have started
// or `durationMs` has passed. Owns: timing and counting. Does not know what an operation does.
// Invariant: every operation is timed from before its first byte is sent to after its last
// response byte is read; a failing operation is counted as an error and never timed.

import { existsSync, readFileSync } from "node:fs";
import { Pool } from "undici";

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
