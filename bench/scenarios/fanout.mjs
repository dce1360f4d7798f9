// Fan-out to many 2026-07-28 listen streams (issue 20's budget): opens N listen streams on the
// bench's listen Worker (bench/listen), each as its own client so they spread over the hub's
// shards, waits until they are idle, then publishes one resourceUpdated and times its arrival on
// every stream. Reports p50/p99/max delivery latency (from the publish request's start), how long
// the publisher waited, and the workerd processes' memory per idle stream (RSS after opening the
// streams minus before, divided by N). Locally the Worker and the hub share one workerd process,
// so the same count of plain held-open SSE responses from the Worker alone (/hold, no hub) is
// measured too (the difference is the hub's share), and from a Durable Object that only holds
// them open behind the Worker (/hold-object: the difference is the hub's own state).
// Run alone: `npm run bench:fanout -- --streams 10000`.
// One workerd process holds fewer than `ulimit -n` / 2 connections (bench/harness/open-files.mjs);
// a run that needs more starts several servers (`--processes`, by default as many as needed),
// each a whole Worker with its own hub, gives each its share of the streams and publishes to
// all of them at once; latency counts from the first publish request's start.
// `--profile <file>` (one process, runner miniflare) writes a CPU profile of the Worker's isolate
// from the publish until the last stream had it (open it in Chrome DevTools) and prints the
// functions with the most self time (bench/harness/cpu-profile.mjs).
// runFanout and renderFanout are exported for a caller that has its own servers running.
import http from "node:http";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { workerdRss } from "../harness/footprint.mjs";
import { findFreePort, startWorker } from "../../scripts/worker-server.mjs";
import { startCpuProfile, topSelfTime } from "../harness/cpu-profile.mjs";
import { processTicks } from "../harness/load.mjs";
import { checkClientSockets, connectionsPerWorkerd } from "../harness/open-files.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const LISTEN_CONFIG = join(REPO_ROOT, "bench", "listen", "wrangler.toml");
const UPDATED = '"notifications/resources/updated"';
const ACK = "notifications/subscriptions/acknowledged";

function quantile(sorted, q) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** Opens one listen stream as client `client`; resolves once its acknowledgement arrived. */
function openStream(url, path, agent, client, shards) {
  return new Promise((resolveOpen, reject) => {
    const req = http.request(`${url}${path}?client=${encodeURIComponent(client)}&shards=${shards}`, { method: "POST", agent }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`listen: HTTP ${res.statusCode}`));
        return;
      }
      res.setEncoding("utf8");
      const stream = { res, req, acked: false, updates: 0, at: [] };
      let text = "";
      res.on("data", (chunk) => {
        const now = performance.now();
        text += chunk;
        if (!stream.acked && text.includes(ACK)) {
          stream.acked = true;
          resolveOpen(stream);
        }
        let i = text.indexOf(UPDATED);
        while (i !== -1) {
          stream.updates++;
          stream.at.push(now);
          i = text.indexOf(UPDATED, i + UPDATED.length);
        }
        // Keep only a tail that could hold the start of a split method name.
        text = text.slice(Math.max(0, text.length - UPDATED.length));
      });
      res.on("error", () => undefined);
    });
    req.on("error", reject);
    req.end();
  });
}

async function publishOnce(url, shards) {
  const started = performance.now();
  const res = await fetch(`${url}/publish?count=1&shards=${shards}`, { method: "POST" });
  const body = await res.json();
  return { started, returned: performance.now(), workerMs: body.publishMs };
}

/**
 * Runs the scenario against running listen Workers (`servers`: one per workerd process, each
 * with its own hub); stream i goes to server i mod count, and the publish goes to every server
 * at once. Returns the figures.
 */
export async function runFanout({ servers, streams, shards, width = 200, path = "/listen", profile }) {
  const pids = servers.flatMap((s) => s.pids);
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const rssBefore = workerdRss(pids);
  const opened = [];
  let next = 0;
  const openStarted = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(width, streams) }, async () => {
      while (next < streams) {
        const i = next++;
        const { url } = servers[i % servers.length];
        opened.push(
          await openStream(url, path, agent, `ip:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, shards).catch((err) => {
            throw new Error(`${path}: stream ${i + 1} of ${streams}: ${err.message}`);
          }),
        );
      }
    }),
  );
  const openSeconds = (performance.now() - openStarted) / 1000;
  // Idle: let the runtime settle before reading memory.
  await new Promise((r) => setTimeout(r, 2000));
  const rssIdle = workerdRss(pids);

  // Node loads its fetch (undici) at the first call, which took 100 ms and more here: not in the timing.
  await Promise.all(servers.map(async (s) => (await fetch(`${s.url}/warm-up`)).arrayBuffer()));
  const stopProfile = profile ? await profile() : undefined;
  const ticksBefore = { workerd: processTicks(pids), client: processTicks([process.pid]) };
  const pubs = await Promise.all(servers.map((s) => publishOnce(s.url, shards)));
  const started = Math.min(...pubs.map((p) => p.started));
  const deadline = Date.now() + 60_000;
  while (opened.some((s) => s.updates < 1) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const deliveredAt = performance.now();
  const cpuProfile = await stopProfile?.();
  // CPU seconds each side spent from the publish until the last stream had the event (ticks of 10 ms).
  const cpu = {
    workerdSeconds: (processTicks(pids) - ticksBefore.workerd) / 100,
    clientSeconds: (processTicks([process.pid]) - ticksBefore.client) / 100,
    wallSeconds: (deliveredAt - started) / 1000,
  };
  const latencies = opened
    .filter((s) => s.updates >= 1)
    .map((s) => s.at[0] - started)
    .sort((a, b) => a - b);
  const duplicates = opened.filter((s) => s.updates > 1).length;
  for (const s of opened) s.req.destroy();
  agent.destroy();
  return {
    streams,
    shards,
    processes: servers.length,
    openSeconds,
    received: latencies.length,
    duplicates,
    publisherMs: Math.max(...pubs.map((p) => p.returned - p.started)),
    publisherWorkerMs: Math.max(...pubs.map((p) => p.workerMs)),
    cpu,
    firstMs: latencies[0],
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    maxMs: latencies.at(-1),
    rssBeforeBytes: rssBefore,
    rssIdleBytes: rssIdle,
    bytesPerIdleStream: (rssIdle - rssBefore) / streams,
    cpuProfile,
  };
}

export function renderFanout(f, baseline, objectBaseline) {
  const mb = (b) => (b / 1024 / 1024).toFixed(1);
  return [
    `listen fan-out: ${f.streams.toLocaleString("en-US")} listen streams over ${f.shards} hub shards, one publish` +
      (f.processes > 1 ? ` (${f.processes} workerd processes, each a Worker + its own hub, one publish to each at once)` : ""),
    `  opened in ${f.openSeconds.toFixed(1)} s; the publish was received on ${f.received} streams (${f.duplicates} twice)`,
    `  delivery latency from the publish request: first ${f.firstMs?.toFixed(1)} ms, p50 ${f.p50Ms.toFixed(1)} ms, p99 ${f.p99Ms.toFixed(1)} ms, max ${f.maxMs?.toFixed(1)} ms; the publish request took ${f.publisherMs.toFixed(1)} ms (${f.publisherWorkerMs} ms inside the Worker: the publish call, which returns once handed off)`,
    `  CPU from the publish until the last stream had it (${f.cpu.wallSeconds.toFixed(1)} s): workerd ${f.cpu.workerdSeconds.toFixed(2)} s, this client ${f.cpu.clientSeconds.toFixed(2)} s`,
    `  workerd RSS ${mb(f.rssBeforeBytes)} MB → ${mb(f.rssIdleBytes)} MB idle: ${(f.bytesPerIdleStream / 1024).toFixed(1)} KiB per idle stream (Worker + hub in ${f.processes > 1 ? "each" : "one"} process locally)`,
    ...(baseline
      ? [
          `  the Worker alone holding as many SSE responses open: ${(baseline.bytesPerIdleStream / 1024).toFixed(1)} KiB each, so the hub's share is about ${((f.bytesPerIdleStream - baseline.bytesPerIdleStream) / 1024).toFixed(1)} KiB per idle stream`,
        ]
      : []),
    ...(objectBaseline
      ? [
          `  a Durable Object holding them behind the Worker (the hub's path without its code): ${(objectBaseline.bytesPerIdleStream / 1024).toFixed(1)} KiB each, so the hub's own state is about ${((f.bytesPerIdleStream - objectBaseline.bytesPerIdleStream) / 1024).toFixed(1)} KiB per idle stream`,
        ]
      : []),
  ].join("\n");
}

async function main() {
  const { values } = parseArgs({
    options: {
      streams: { type: "string", default: "10000" },
      shards: { type: "string", default: "16" },
      processes: { type: "string" },
      runner: { type: "string", default: "miniflare" },
      json: { type: "string" },
      profile: { type: "string" },
    },
  });
  const streams = Number(values.streams);
  // One workerd holds fewer than `ulimit -n` / 2 connections (harness/open-files.mjs): past
  // that, the streams go to several servers, each a whole Worker + hub in its own process.
  const processes = Number(values.processes ?? Math.ceil(streams / connectionsPerWorkerd()));
  // This client holds one descriptor per stream; wrangler's dev proxy (runner "wrangler", in this process) two more.
  checkClientSockets((values.runner === "wrangler" ? 3 : 1) * streams);
  if (values.profile && (processes !== 1 || values.runner !== "miniflare"))
    throw new Error("--profile needs one process and runner miniflare");
  const run = async (path) => {
    const servers = [];
    const inspectorPort = values.profile ? await findFreePort() : undefined;
    try {
      for (let i = 0; i < processes; i++)
        servers.push(await startWorker({ configPath: LISTEN_CONFIG, runner: values.runner, inspectorPort }));
      return await runFanout({
        servers: servers.map((s) => ({ url: s.url, pids: s.workerdPids })),
        streams,
        shards: Number(values.shards),
        path,
        profile: path === "/listen" && inspectorPort ? () => startCpuProfile(inspectorPort) : undefined,
      });
    } catch (err) {
      for (const server of servers) console.error(server.logs().split("\n").slice(-15).join("\n"));
      throw err;
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  };
  // Each on fresh servers: memory a run leaves behind must not count in the other.
  const baseline = process.env.FANOUT_NO_BASELINE ? undefined : await run("/hold");
  const objectBaseline = process.env.FANOUT_NO_BASELINE ? undefined : await run("/hold-object");
  const figures = await run("/listen");
  console.log(renderFanout(figures, baseline, objectBaseline));
  const { cpuProfile, ...listen } = figures;
  if (cpuProfile) {
    const { writeFileSync } = await import("node:fs");
    writeFileSync(values.profile, JSON.stringify(cpuProfile));
    console.log(`CPU profile of the publish written to ${values.profile}; most self time (native calls count in their caller):`);
    console.log(topSelfTime(cpuProfile).join("\n"));
  }
  if (values.json) {
    const { writeFileSync } = await import("node:fs");
    writeFileSync(values.json, JSON.stringify({ figures: listen, baseline, objectBaseline }, null, 2) + "\n");
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(`bench-fanout: ${err?.stack ?? err}`);
    process.exitCode = 1;
  });
}
