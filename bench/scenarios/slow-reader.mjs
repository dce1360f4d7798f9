// A listen client that stops reading (issue 20's budget: "a reader that stops reading for a
// minute while 25 MB are published: the hub's memory grows by at most the configured buffer,
// and the other streams keep receiving"). On the bench's listen Worker (bench/listen, one
// workerd process holding the Worker and every hub shard), opens `--readers` normal listen
// streams and one that never reads (its response and socket paused from the first byte), then
// publishes `--megabytes` of resourceUpdated events (URIs padded with `--pad` characters)
// evenly over `--seconds`, in batches every 250 ms (publish, handed off; the batch's last event
// with publishAndCount, which says whether the slow stream still got it). Every second it
// samples the workerd process's RSS, the slow connection's TCP queues on both ends
// (/proc/net/tcp: what the kernel absorbs before the hub's buffer fills) and its state on the
// server's side. At the end the slow stream reads again and the report says what it got (the
// listen request's `complete` result?) and how it ended. A control run without the slow reader
// comes first (`--no-control` skips it): publishing alone moves the RSS too (garbage, heap
// growth), so the slow reader's cost is the difference. Run alone: `npm run bench:slow-reader`
// (2 × 60 s); `-- --seconds 8 --megabytes 8 --no-control` is a short run.
import { readFileSync } from "node:fs";
import http from "node:http";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { workerdRss } from "../../scripts/footprint.mjs";
import { startWorker } from "../../scripts/worker-server.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const LISTEN_CONFIG = join(REPO_ROOT, "bench", "listen", "wrangler.toml");
const UPDATED = '"notifications/resources/updated"';
const ACK = "notifications/subscriptions/acknowledged";
const COMPLETE = '"resultType":"complete"';
/** The listen Worker's defaults (src/kernel/options.ts, durable-objects/hub/listeners.ts). */
const STREAM_BUFFER_BYTES = 1024 * 1024;
const SHARD_BUFFER_BYTES = 32 * 1024 * 1024;
const BATCH_MS = 250;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A normal reader: counts updates and bytes as they come. */
function openReader(url, client, pad, agent) {
  return new Promise((resolveOpen, reject) => {
    const req = http.request(`${url}/listen?client=${client}&pad=${pad}`, { method: "POST", agent }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`listen: HTTP ${res.statusCode}`));
      res.setEncoding("utf8");
      const reader = { req, res, updates: 0, bytes: 0, bytesAtAck: 0, acked: false };
      let tail = "";
      res.on("data", (chunk) => {
        reader.bytes += Buffer.byteLength(chunk);
        const text = tail + chunk;
        if (!reader.acked && text.includes(ACK)) {
          reader.acked = true;
          reader.bytesAtAck = reader.bytes;
          resolveOpen(reader);
        }
        for (let i = text.indexOf(UPDATED); i !== -1; i = text.indexOf(UPDATED, i + UPDATED.length)) {
          reader.updates++;
        }
        tail = text.slice(Math.max(0, text.length - UPDATED.length));
      });
      res.on("error", () => undefined);
    });
    req.on("error", reject);
    req.end();
  });
}

/** The slow reader: paused from its first byte; resolves once the server answered 200. */
function openSlow(url, client, pad, agent) {
  return new Promise((resolveOpen, reject) => {
    const req = http.request(`${url}/listen?client=${client}&pad=${pad}`, { method: "POST", agent }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`listen (slow): HTTP ${res.statusCode}`));
      res.pause();
      res.socket.pause();
      resolveOpen({ req, res, localPort: res.socket.localPort });
    });
    req.on("error", reject);
    req.end();
  });
}

/** Reads the paused stream to its end (or `ms`): update count, whether `complete` came, how it ended. */
function drainSlow(slow, ms) {
  return new Promise((done) => {
    let text = "";
    let updates = 0;
    const finish = (how) => {
      clearTimeout(timer);
      for (let i = text.indexOf(UPDATED); i !== -1; i = text.indexOf(UPDATED, i + UPDATED.length)) updates++;
      done({ updates, bytes: Buffer.byteLength(text), complete: text.includes(COMPLETE), ended: how });
    };
    const timer = setTimeout(() => finish("still open"), ms);
    slow.res.setEncoding("utf8");
    slow.res.on("data", (chunk) => (text += chunk));
    slow.res.on("end", () => finish("closed by the server"));
    slow.res.on("error", (err) => finish(`error (${err.code ?? err.message})`));
    slow.res.socket.resume();
    slow.res.resume();
  });
}

const TCP_STATES = {
  "01": "ESTABLISHED",
  "04": "FIN_WAIT1",
  "05": "FIN_WAIT2",
  "06": "TIME_WAIT",
  "07": "CLOSE",
  "08": "CLOSE_WAIT",
  "0B": "CLOSING",
};

/**
 * The slow connection's kernel queues (bytes) and the server side's TCP state, from
 * /proc/net/tcp (what `ss -tan` shows as Send-Q and Recv-Q): undefined where it is missing.
 */
function tcpQueues(serverPort, clientPort) {
  let text;
  try {
    text = readFileSync("/proc/net/tcp", "utf8");
  } catch {
    return undefined;
  }
  const out = { clientRecvQ: 0, serverSendQ: 0, serverState: "gone" };
  const port = (address) => Number.parseInt(address.split(":")[1], 16);
  for (const line of text.split("\n").slice(1)) {
    const [, local, remote, state, queues] = line.trim().split(/\s+/);
    if (!queues) continue;
    const [tx, rx] = queues.split(":").map((hex) => Number.parseInt(hex, 16));
    if (port(local) === clientPort && port(remote) === serverPort) out.clientRecvQ = rx;
    if (port(local) === serverPort && port(remote) === clientPort) {
      out.serverSendQ = tx;
      out.serverState = TCP_STATES[state] ?? state;
    }
  }
  return out;
}

/** One run: opens the readers (and the slow one), publishes, samples; returns what happened. */
async function runOnce({ seconds, megabytes, pad, readers, withSlow }) {
  const server = await startWorker({ configPath: LISTEN_CONFIG, runner: "miniflare" });
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  try {
    const pids = server.workerdPids;
    const port = Number(new URL(server.url).port);
    const rssStart = workerdRss(pids);
    const normal = [];
    for (let i = 0; i < readers; i++) normal.push(await openReader(server.url, `ip:10.1.0.${i + 1}`, pad, agent));
    const slow = withSlow ? await openSlow(server.url, "ip:10.2.0.1", pad, agent) : undefined;
    // One event to learn a frame's size on the wire.
    await (await fetch(`${server.url}/publish?count=1&pad=${pad}`, { method: "POST" })).json();
    await sleep(500);
    const frameBytes = normal[0].bytes - normal[0].bytesAtAck;
    await sleep(1500);
    const rssIdle = workerdRss(pids);

    const totalEvents = Math.ceil((megabytes * 1e6) / frameBytes);
    const batches = Math.max(1, Math.round((seconds * 1000) / BATCH_MS));
    const samples = [];
    const batchLog = [];
    const t0 = performance.now();
    const sampler = setInterval(() => {
      samples.push({ at: (performance.now() - t0) / 1000, rss: workerdRss(pids), tcp: slow ? tcpQueues(port, slow.localPort) : undefined });
    }, 1000);
    let published = 0;
    for (let b = 0; b < batches; b++) {
      const count = Math.round(((b + 1) * totalEvents) / batches) - published;
      if (count > 0) {
        // publish (handed off, batched) for all but the batch's last event; that one waits for its
        // delivery and counts the streams that got it (publishAndCount): the slow one, until ended.
        if (count > 1) await (await fetch(`${server.url}/publish?count=${count - 1}&pad=${pad}`, { method: "POST" })).json();
        const res = await fetch(`${server.url}/publish?count=1&mode=count&pad=${pad}`, { method: "POST" });
        const body = await res.json();
        batchLog.push({ at: (performance.now() - t0) / 1000, count, delivered: body.delivered });
        published += count;
      }
      const wait = t0 + (b + 1) * BATCH_MS - performance.now();
      if (wait > 0) await sleep(wait);
    }
    const publishSeconds = (performance.now() - t0) / 1000;
    // Let the normal readers catch up (bounded), then the slow one reads again.
    const expected = published + 1; // and the probe
    const deadline = performance.now() + 30_000;
    while (normal.some((r) => r.updates < expected) && performance.now() < deadline) await sleep(50);
    const caughtUpSeconds = (performance.now() - t0) / 1000;
    await sleep(2000);
    clearInterval(sampler);
    const rssEnd = workerdRss(pids);
    const slowResult = slow ? await drainSlow(slow, 5000) : undefined;
    // The first batch whose counted event reached fewer streams than it would have with the slow one.
    const endedBatch = batchLog.find((b) => slow && b.delivered < readers + 1);
    const readerFell = normal.filter((r) => r.updates !== expected).length;
    return {
      withSlow,
      frameBytes,
      published,
      publishedBytes: published * frameBytes,
      publishSeconds,
      caughtUpSeconds,
      readers,
      readersComplete: readers - readerFell,
      readerUpdates: normal.map((r) => r.updates),
      expectedPerReader: expected,
      rssStart,
      rssIdle,
      rssMax: Math.max(...samples.map((s) => s.rss)),
      rssEnd,
      maxClientRecvQ: Math.max(0, ...samples.map((s) => s.tcp?.clientRecvQ ?? 0)),
      maxServerSendQ: Math.max(0, ...samples.map((s) => s.tcp?.serverSendQ ?? 0)),
      serverStates: [...new Set(samples.map((s) => s.tcp?.serverState).filter(Boolean))],
      slowEndedAtSeconds: endedBatch?.at,
      slowEndedAfterEvents: endedBatch ? batchLog.filter((b) => b.at < endedBatch.at).reduce((n, b) => n + b.count, 0) : undefined,
      slow: slowResult,
      samples,
    };
  } finally {
    agent.destroy();
    await server.stop();
  }
}

function render(run, control) {
  const mib = (b) => (b / 1024 / 1024).toFixed(1);
  const kib = (b) => (b / 1024).toFixed(0);
  const growth = run.rssMax - run.rssIdle;
  const lines = [
    `slow reader: ${run.readers} readers${run.withSlow ? " + 1 that never reads" : ""}; ${run.published.toLocaleString("en-US")} events of ${run.frameBytes} bytes (${(run.publishedBytes / 1e6).toFixed(1)} MB) published over ${run.publishSeconds.toFixed(1)} s`,
    `  normal readers: ${run.readersComplete} of ${run.readers} got all ${run.expectedPerReader} events (${run.readerUpdates.join(", ")}), caught up ${(run.caughtUpSeconds - run.publishSeconds).toFixed(1)} s after the last publish`,
    `  workerd RSS: ${mib(run.rssStart)} MiB at start, ${mib(run.rssIdle)} MiB with the streams open, max ${mib(run.rssMax)} MiB while publishing (+${mib(growth)} MiB), ${mib(run.rssEnd)} MiB after`,
  ];
  if (control) {
    const controlGrowth = control.rssMax - control.rssIdle;
    lines.push(
      `  control run without the slow reader: max +${mib(controlGrowth)} MiB; so the slow reader cost ${mib(growth - controlGrowth)} MiB against a buffer of ${mib(STREAM_BUFFER_BYTES)} MiB per stream (${mib(SHARD_BUFFER_BYTES)} MiB per shard)`,
    );
  }
  if (run.withSlow) {
    lines.push(
      run.slowEndedAtSeconds !== undefined
        ? `  the slow stream was ended (and its slot freed) at ${run.slowEndedAtSeconds.toFixed(1)} s, after ${run.slowEndedAfterEvents} events (${kib(run.slowEndedAfterEvents * run.frameBytes)} KiB) were sent to it`
        : "  the slow stream was never ended by the hub",
      `  kernel queues of the slow connection (max): ${kib(run.maxServerSendQ)} KiB unsent on the server's side, ${kib(run.maxClientRecvQ)} KiB unread on the client's; server-side TCP states seen: ${run.serverStates.join(" → ")}`,
      `  reading again afterwards it got ${run.slow.updates} events (${kib(run.slow.bytes)} KiB), ${run.slow.complete ? "then the listen request's complete result" : "no complete result"}; the stream was ${run.slow.ended}`,
    );
  }
  return lines.join("\n");
}

async function main() {
  const { values } = parseArgs({
    options: {
      seconds: { type: "string", default: "60" },
      megabytes: { type: "string", default: "25" },
      pad: { type: "string", default: "4000" },
      readers: { type: "string", default: "4" },
      "no-control": { type: "boolean", default: false },
      json: { type: "string" },
    },
  });
  const opts = {
    seconds: Number(values.seconds),
    megabytes: Number(values.megabytes),
    pad: Number(values.pad),
    readers: Number(values.readers),
  };
  const control = values["no-control"] ? undefined : await runOnce({ ...opts, withSlow: false });
  const run = await runOnce({ ...opts, withSlow: true });
  console.log(render(run, control));
  if (values.json) {
    const { writeFileSync } = await import("node:fs");
    writeFileSync(values.json, JSON.stringify({ run, control }, null, 2) + "\n");
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(`bench-slow-reader: ${err?.stack ?? err}`);
    process.exitCode = 1;
  });
}
