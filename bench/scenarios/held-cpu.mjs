// What a held stream costs the Worker invocation holding it (issue 44 defect 9): Workers limit CPU
// per request (30 s by default, `limits.cpu_ms` up to 5 min), and every event relayed on a held
// stream and every keep-alive written to it is CPU of the one request that opened it. On the
// bench's listen Worker (bench/listen: the Worker and every hub shard in one workerd process):
//   relay: `--streams` listen streams that read; `--events` resourceUpdated events published one
//     after another (URIs padded by `--pad` characters), against the same publishes to a URI nobody
//     follows; the difference in workerd CPU per relayed event (an upper bound of the Worker's share:
//     it includes the shard's socket send), at two padding sizes for the share of a KiB;
//   keep-alive: `--idle` idle listen streams with a keep-alive every `--tick` ms for `--seconds`,
//     against the same streams with a 60 s interval (no keep-alive in the window).
// src/platform/held-stream.ts estimates a stream's CPU from these (CPU_MS_PER_FRAME and the rest).
// Run alone: `npm run bench:held-cpu`; `-- --events 200 --idle 20 --seconds 3` is a short run.
import http from "node:http";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { processCpuMs, waitForIdle } from "../harness/load.mjs";
import { startWorker } from "../../scripts/worker-server.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const LISTEN_CONFIG = join(REPO_ROOT, "bench", "listen", "wrangler.toml");
const UPDATED = '"notifications/resources/updated"';
const ACK = "notifications/subscriptions/acknowledged";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Opens a listen stream that reads and counts updates; resolves once acknowledged. */
function openReader(url, query, agent) {
  return new Promise((resolveOpen, reject) => {
    const req = http.request(`${url}/listen?${query}`, { method: "POST", agent }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`listen: HTTP ${res.statusCode}`));
      res.setEncoding("utf8");
      const reader = { req, res, updates: 0, acked: false };
      let tail = "";
      res.on("data", (chunk) => {
        const text = tail + chunk;
        if (!reader.acked && text.includes(ACK)) {
          reader.acked = true;
          resolveOpen(reader);
        }
        for (let i = text.indexOf(UPDATED); i !== -1; i = text.indexOf(UPDATED, i + UPDATED.length)) reader.updates++;
        tail = text.slice(Math.max(0, text.length - UPDATED.length));
      });
      res.on("error", () => undefined);
    });
    req.on("error", reject);
    req.end();
  });
}

async function publish(url, count, pad) {
  const res = await fetch(`${url}/publish?count=${count}&mode=seq&pad=${pad}`, { method: "POST" });
  if (!res.ok) throw new Error(`publish: HTTP ${res.status}`);
}

/** workerd CPU (ms) of `work`, from idle to idle. */
async function cpuOf(pids, work) {
  await waitForIdle(pids, 300, 5_000);
  const before = processCpuMs(pids);
  await work();
  await waitForIdle(pids, 300, 5_000);
  return processCpuMs(pids) - before;
}

async function relay(url, pids, agent, { streams, events, pad }) {
  const readers = await Promise.all(Array.from({ length: streams }, (_, i) => openReader(url, `client=r${pad}-${i}&pad=${pad}`, agent)));
  await publish(url, 20, pad); // warm-up
  while (readers.some((r) => r.updates < 20)) await sleep(20);
  const followed = await cpuOf(pids, async () => {
    await publish(url, events, pad);
    while (readers.some((r) => r.updates < 20 + events)) await sleep(20);
  });
  // The same publishes to a URI nobody follows: the publisher's and the hub's own share.
  const unfollowed = await cpuOf(pids, () => publish(url, events, pad + 1));
  for (const r of readers) r.req.destroy();
  const frameBytes = 130 + pad;
  return { streams, events, pad, frameBytes, followed, unfollowed, perEventMs: (followed - unfollowed) / (events * streams) };
}

async function keepAlives(url, pids, agent, { idle, tick, seconds }) {
  const measure = async (keepAliveMs) => {
    const readers = await Promise.all(
      Array.from({ length: idle }, (_, i) => openReader(url, `client=k${keepAliveMs}-${i}&keepalive=${keepAliveMs}`, agent)),
    );
    const cpu = await cpuOf(pids, () => sleep(seconds * 1000));
    for (const r of readers) r.req.destroy();
    return cpu;
  };
  const ticking = await measure(tick);
  const quiet = await measure(60_000);
  // One keep-alive per stream per half interval (src/platform/live-streams.ts: the one timer's tick).
  const written = idle * Math.floor((seconds * 1000) / (tick / 2));
  return { idle, tick, seconds, ticking, quiet, written, perKeepAliveMs: (ticking - quiet) / written };
}

async function main() {
  const { values } = parseArgs({
    options: {
      streams: { type: "string", default: "20" },
      events: { type: "string", default: "1000" },
      pad: { type: "string", default: "2000" },
      idle: { type: "string", default: "100" },
      tick: { type: "string", default: "100" },
      seconds: { type: "string", default: "10" },
    },
  });
  const server = await startWorker({ configPath: LISTEN_CONFIG });
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  try {
    const pids = server.workerdPids;
    const streams = Number(values.streams);
    const events = Number(values.events);
    const small = await relay(server.url, pids, agent, { streams, events, pad: 0 });
    const large = await relay(server.url, pids, agent, { streams, events, pad: Number(values.pad) });
    const kib = ((large.perEventMs - small.perEventMs) / (large.frameBytes - small.frameBytes)) * 1024;
    const ka = await keepAlives(server.url, pids, agent, {
      idle: Number(values.idle),
      tick: Number(values.tick),
      seconds: Number(values.seconds),
    });
    const us = (ms) => `${(ms * 1000).toFixed(1)} µs`;
    console.log(
      [
        `held-stream CPU (workerd, Worker and hub in one process): ${streams} streams × ${events} events`,
        `  relayed event of ~${small.frameBytes} bytes: ${us(small.perEventMs)} (${small.followed.toFixed(0)} ms followed, ${small.unfollowed.toFixed(0)} ms unfollowed)`,
        `  relayed event of ~${large.frameBytes} bytes: ${us(large.perEventMs)} (${large.followed.toFixed(0)} ms followed, ${large.unfollowed.toFixed(0)} ms unfollowed)`,
        `  so per KiB of event: ${us(kib)}`,
        `  keep-alive: ${us(ka.perKeepAliveMs)} each (${ka.idle} streams, every ${ka.tick / 2} ms for ${ka.seconds} s: ${ka.ticking.toFixed(0)} ms against ${ka.quiet.toFixed(0)} ms quiet, ${ka.written} written)`,
      ].join("\n"),
    );
  } finally {
    agent.destroy();
    await server.stop();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(`bench-held-cpu: ${err?.stack ?? err}`);
    process.exitCode = 1;
  });
}
