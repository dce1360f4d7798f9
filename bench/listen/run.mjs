// Listen notifications/s: node bench/listen/run.mjs [--count N] [--rounds R]
// Starts bench/listen (Miniflare, no wrangler proxy), opens one listen stream, publishes N
// resourceUpdated events from one Worker invocation (sequential and concurrent), and times
// until the stream has carried all N; then the floor: N hand-formatted events from a Worker.
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { startDevServer } from "../../scripts/dev-server.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({ options: { count: { type: "string", default: "2000" }, rounds: { type: "string", default: "3" } } });
const COUNT = Number(values.count);
const ROUNDS = Number(values.rounds);

/** Reads SSE events from a response body, resolving when `want` events with data were seen. */
function counter(body) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let seen = 0;
  let waiter;
  (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true }));
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      for (let cut = buffer.indexOf("\n\n"); cut !== -1; cut = buffer.indexOf("\n\n")) {
        if (buffer.slice(0, cut).includes("\ndata: ") || buffer.startsWith("event:") || buffer.startsWith("data:")) seen++;
        buffer = buffer.slice(cut + 2);
      }
      if (waiter && seen >= waiter.want) waiter.resolve();
    }
    if (waiter) waiter.resolve();
  })();
  return {
    until(want) {
      return seen >= want ? Promise.resolve() : new Promise((resolve) => (waiter = { want, resolve }));
    },
    seen: () => seen,
    cancel: () => reader.cancel().catch(() => undefined),
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = await startDevServer({ runner: "miniflare", configPath: join(here, "wrangler.toml") });
try {
  const listen = await fetch(`${server.url}/listen`, { method: "POST" });
  if (listen.status !== 200) throw new Error(`listen: ${listen.status} ${await listen.text()}`);
  const stream = counter(listen.body);
  await stream.until(1); // the acknowledgement
  let expected = 1;
  const results = {};
  for (const mode of ["seq", "par"]) {
    const rates = [];
    for (let r = 0; r < ROUNDS; r++) {
      const start = performance.now();
      const res = await fetch(`${server.url}/publish?count=${COUNT}&mode=${mode}`, { method: "POST" });
      const { delivered } = await res.json();
      if (delivered !== COUNT) throw new Error(`delivered ${delivered} of ${COUNT}`);
      expected += COUNT;
      await stream.until(expected);
      rates.push(COUNT / ((performance.now() - start) / 1000));
    }
    results[mode] = median(rates);
  }
  await stream.cancel();
  const floor = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = performance.now();
    const res = await fetch(`${server.url}/sse?count=${COUNT}`, { method: "POST" });
    const s = counter(res.body);
    await s.until(COUNT);
    floor.push(COUNT / ((performance.now() - start) / 1000));
  }
  results.floor = median(floor);
  const fmt = (x) => Math.round(x).toLocaleString("en-US");
  console.log(`listen stream, ${COUNT} notifications, median of ${ROUNDS} (Miniflare, this machine):`);
  console.log(`  publish one after another (1 Worker→hub RPC each): ${fmt(results.seq)} notifications/s`);
  console.log(`  publish all at once (concurrent RPCs):             ${fmt(results.par)} notifications/s`);
  console.log(`  floor: hand-formatted SSE written by a Worker:     ${fmt(results.floor)} notifications/s`);
  console.log(`  ratios to the floor: ${(results.seq / results.floor).toFixed(2)} (sequential), ${(results.par / results.floor).toFixed(2)} (concurrent)`);
} finally {
  await server.stop();
}
