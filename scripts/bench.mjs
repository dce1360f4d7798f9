// `npm run bench`: mcp-edge side by side with the platform's floor, in one run on 127.0.0.1.
// Starts two Workers in-process (scripts/worker-server.mjs; Miniflare alone unless --runner wrangler): the demo server built with
// bench limits (bench/demo) and a floor Worker that only parses the body and answers a fixed
// JSON-RPC result (bench/floor); beside them the same echo tool under the `agents` package's
// createMcpHandler (bench/agents, the 2026-07-28 reference), the listen Worker (bench/listen:
// publish → hub → listen stream) and the operate Worker (bench/operate: one echo server bare, and
// with one middleware and tracing). Drives them with the same bounded closed-loop load
// (bench/harness/load.mjs, undici) in short bursts that alternate floor and mcp-edge, each
// started once both servers are idle, and reports per scenario ops/s, p50/p99 latency, errors
// and the ratio to the floor (the median of adjacent-burst ratios), CPU per call (user + system
// time of each side's own workerd process over its bursts, from /proc), the Durable Object round
// trips per request kind (counted by the bench Worker), and bundle sizes. Prints Markdown tables
// and writes JSON (tables: bench/harness/report.mjs). Both Workers run with wrangler's devtools
// inspector off and Durable Object storage on tmpfs unless told otherwise (--inspector,
// --storage disk): neither is part of the runtime or of the edge, and each costs the session
// lane more than the runtime does (docs/benchmarks.md "Benchmarks").
// Benchmarks print numbers: only errors fail a run, never a slow result.
// `--smoke` is a short run for CI that only asserts every scenario completed without errors.

import { accessSync, constants as fsConstants, mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, platform, release, tmpdir, totalmem } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { footprintScenario } from "../bench/scenarios/footprint.mjs";
import { idleAwakeScenario, renderIdleAwake, renderIdleAwakeComparison } from "../bench/scenarios/idle-awake.mjs";
import { listenScenario } from "../bench/scenarios/listen.mjs";
import { operateScenario } from "../bench/scenarios/operate.mjs";
import { runReplayScenario } from "../bench/scenarios/replay.mjs";
import { countRoundTrips } from "../bench/scenarios/round-trips.mjs";
import { costScenario } from "../bench/scenarios/cost.mjs";
import { eventsScenario, renderEvents } from "../bench/scenarios/events.mjs";
import { renderWebhooks, webhooksBudgetFailures, webhooksScenario } from "../bench/scenarios/webhooks.mjs";
import { sessionLaneScenarios } from "../bench/scenarios/session-lane.mjs";
import { taskScenarios } from "../bench/scenarios/tasks.mjs";
import { workerLaneScenarios } from "../bench/scenarios/worker-lane.mjs";
import { measureBundle, measureSizeComparison } from "../bench/harness/bundle.mjs";
import { createPool, runRequestScenario, SETTLE_MAX_MS } from "../bench/harness/load.mjs";
import { fmt, renderReport, verdicts, versionOf } from "../bench/harness/report.mjs";
import { startWorker } from "./worker-server.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DEMO_CONFIG = join(REPO_ROOT, "bench", "demo", "wrangler.toml");
const FLOOR_CONFIG = join(REPO_ROOT, "bench", "floor", "wrangler.toml");
const RUNTIME_CONFIG = join(REPO_ROOT, "bench", "runtime", "wrangler.toml");
const AGENTS_CONFIG = join(REPO_ROOT, "bench", "agents", "wrangler.toml");
const LISTEN_CONFIG = join(REPO_ROOT, "bench", "listen", "wrangler.toml");
const OPERATE_CONFIG = join(REPO_ROOT, "bench", "operate", "wrangler.toml");
const COST_CONFIG = join(REPO_ROOT, "bench", "cost", "wrangler.toml");
const COST16_CONFIG = join(REPO_ROOT, "bench", "cost", "wrangler.shards16.toml");
const WEBHOOKS_CONFIG = join(REPO_ROOT, "bench", "webhooks", "wrangler.toml");
const DEMO_BUNDLE_CONFIG = join(REPO_ROOT, "wrangler.toml");

/** Memory-backed folder for Durable Object storage (Linux); see `--storage`. */
const MEMORY_TMP = "/dev/shm";
/** Events the replay scenario resumes: the last REPLAY_TAIL of the stream. */
const REPLAY_TAIL = 100;

/** Everything a run measures, in order; `--only` picks some. */
const PARTS = [
  "stateless",
  "modern",
  "mrtr",
  "operate",
  "tasks-create",
  "tasks-get",
  "simple",
  "interactive",
  "sessions",
  "notifications",
  "listen",
  "replay",
  "round-trips",
  "cost",
  "webhooks",
  "footprint",
  "idle-awake",
  "events",
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
    webhookSubscriptions: 1000,
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
    webhookSubscriptions: 20,
  },
};

const USAGE = `usage: npm run bench -- [options]

  --connections <n>     concurrent clients (default ${DEFAULTS.full.connections})
  --requests <n>        operations per side and scenario (default ${DEFAULTS.full.requests}; session creation runs a quarter as many, the 2026-07-28 call and MRTR round, whose CPU ratios are budgets, ten times as many)
  --duration <s>        time-bound each side of each scenario instead of counting operations
  --bursts <n>          split each side's operations into this many bursts, alternating floor and mcp-edge (default ${DEFAULTS.full.bursts})
  --settle <ms>         pause at least this long before each burst, and until both servers are idle (at most ${SETTLE_MAX_MS / 1000} s), so one side's leftover work is not billed to the next (default ${DEFAULTS.full.settleMs})
  --notifications <n>   progress notifications per SSE stream (default ${DEFAULTS.full.notifications})
  --listen-notifications <n>  resourceUpdated events published per burst to one 2026-07-28 listen stream (default ${DEFAULTS.full.listenNotifications})
  --streams <n>         SSE streams per side in the notification scenario, one per burst (default ${DEFAULTS.full.streams})
  --replay-events <n>   events stored in the large replay stream (default ${DEFAULTS.full.replayEvents})
  --footprint-sessions <n>  live sessions opened per side to measure memory and storage per session (default ${DEFAULTS.full.footprintSessions})
  --webhook-subscriptions <n>  webhook subscriptions one emit is delivered to, counting the cost (default ${DEFAULTS.full.webhookSubscriptions})
  --storage <where>     Durable Object storage of both Workers: "memory" (${MEMORY_TMP}, default where it exists) or "disk" (the OS temp folder)
  --runner <runner>     "miniflare" (default): both bundled as for deploy and served by Miniflare alone; "wrangler": both under wrangler dev in this process, whose proxy then shares the load generator's event loop (absolute figures drop several times, ratios stay close)
  --inspector           keep wrangler's devtools inspector proxy on (off by default: it turns every subrequest into devtools events)
  --only <parts>        comma-separated subset of: ${PARTS.join(", ")} (default: all)
  --baseline <dir>      idle-awake only: another checkout (with node_modules and test/servers/sleep) measured in the same run, three rounds alternating with this one
  --json <file>         where to write the JSON results (default bench-results/bench-<time>.json; none in --smoke)
  --docs                also write the report to docs/benchmark-results.md, the generated page docs/benchmarks.md links
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
      baseline: { type: "string" },
      "footprint-sessions": { type: "string" },
      "webhook-subscriptions": { type: "string" },
      inspector: { type: "boolean" },
      runner: { type: "string" },
      smoke: { type: "boolean" },
      docs: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (values.docs && values.smoke) {
    console.error(`--docs records a full run; a --smoke run's figures are too short to publish\n\n${USAGE}`);
    process.exit(2);
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
    docs: values.docs ?? false,
    baseline: values.baseline === undefined ? undefined : resolve(values.baseline),
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
    webhookSubscriptions: int("webhook-subscriptions", base.webhookSubscriptions),
    json:
      values.json ??
      (values.smoke ? undefined : join(REPO_ROOT, "bench-results", `bench-${new Date().toISOString().replace(/[:.]/g, "-")}.json`)),
  };
}

// ---- scenarios: bench/scenarios/ (one file per lane or part), the load driver: bench/harness/load.mjs

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
  let cost;
  let webhooks;
  let footprint;
  let idleAwake;
  let events;
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
    // read per process). `agents` needs nodejs_compat; if it cannot start, the run says why. Its
    // McpAgent (bench/agents, /agent/mcp) is session creation's reference.
    let agentsServer;
    if (opts.only.has("modern") || opts.only.has("sessions")) {
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
    let operateServer;
    if (opts.only.has("operate")) {
      operateServer = await startWorker({ ...serverOptions, configPath: OPERATE_CONFIG });
      servers.push(operateServer);
    }
    let costServers;
    if (opts.only.has("cost")) {
      costServers = [await startWorker({ ...serverOptions, configPath: COST_CONFIG })];
      servers.push(costServers[0]);
      costServers.push(await startWorker({ ...serverOptions, configPath: COST16_CONFIG }));
      servers.push(costServers[1]);
    }
    let webhooksServer;
    if (opts.only.has("webhooks")) {
      webhooksServer = await startWorker({ ...serverOptions, configPath: WEBHOOKS_CONFIG });
      servers.push(webhooksServer);
    }
    opts.serverPids = servers.flatMap((s) => s.workerdPids);
    const demo = createPool(demoServer.url, opts.connections);
    const floor = createPool(floorServer.url, opts.connections);
    pools.push(demo, floor);
    const agents = agentsServer && createPool(agentsServer.url, opts.connections);
    if (agents) pools.push(agents);
    const pids = { demo: demoServer.workerdPids, floor: floorServer.workerdPids, agents: agentsServer?.workerdPids };

    const lanes = { demo, floor, agents, pids };
    for (const scenario of [...workerLaneScenarios(opts, lanes), ...taskScenarios(opts, lanes), ...sessionLaneScenarios(opts, lanes)]) {
      if (opts.only.has(scenario.key)) results.push(await runRequestScenario(opts, scenario, { floor: pids.floor, ours: pids.demo }));
    }
    if (operateServer) {
      // Both sides (and the reference) are one Worker's paths: one process, billed burst by burst.
      const operate = createPool(operateServer.url, opts.connections);
      pools.push(operate);
      const pidsOf = { floor: operateServer.workerdPids, ours: operateServer.workerdPids };
      results.push(await runRequestScenario(opts, operateScenario(opts, operate), pidsOf));
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
    if (costServers) {
      process.stderr.write("bench: counting what whole lives cost (object requests, rows written) …\n");
      const [pool, pool16] = costServers.map((server) => createPool(server.url, 2));
      pools.push(pool, pool16);
      cost = await costScenario(pool, pool16);
    }
    if (webhooksServer) {
      process.stderr.write(`bench: counting what webhook delivery costs (${opts.webhookSubscriptions} subscriptions) …\n`);
      const pool = createPool(webhooksServer.url, 4);
      pools.push(pool);
      webhooks = await webhooksScenario(pool, { subscriptions: opts.webhookSubscriptions });
    }
    // Last: the sessions it opens stay live, and would weigh on the scenarios above.
    if (opts.only.has("footprint")) footprint = await footprintScenario(opts, demo, floor, demoServer, floorServer);
    if (opts.only.has("idle-awake")) {
      // On a Worker of its own (the demo with classes that log their constructions): objects asleep or awake after idle streams.
      process.stderr.write("bench: idle streams, then one publish: which objects slept …\n");
      // With --baseline: the same on another checkout, in alternating rounds (the machine's load moves both alike).
      const rounds = opts.baseline ? 3 : 1;
      const ours = [];
      const baseline = [];
      for (let i = 0; i < rounds; i++) {
        if (opts.baseline)
          baseline.push(await idleAwakeScenario(opts, serverOptions, join(opts.baseline, "test", "sleep", "wrangler.toml")));
        ours.push(await idleAwakeScenario(opts, serverOptions));
      }
      idleAwake = { ...ours[ours.length - 1], rounds: ours, baseline: opts.baseline ? baseline : undefined };
    }
    if (opts.only.has("events")) {
      process.stderr.write("bench: the Events extension's costs, and idle push streams …\n");
      events = await eventsScenario(opts, serverOptions);
    }
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
    cost,
    webhooks,
    footprint,
    idleAwake,
    events,
    bundles,
    budgets,
    seconds: (performance.now() - started) / 1000,
  };
  console.log(renderReport(report));
  if (webhooks) console.log(`\n${renderWebhooks(webhooks)}`);
  if (idleAwake)
    console.log(`\n${idleAwake.baseline ? renderIdleAwakeComparison(idleAwake.baseline, idleAwake.rounds) : renderIdleAwake(idleAwake)}`);
  const eventsReport = events && renderEvents(events);
  if (eventsReport) console.log(`\n${eventsReport.table}`);

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
    ...(eventsReport?.missed ?? []),
    ...(idleAwake && idleAwake.delivered < 2 * idleAwake.streams
      ? [`idle-awake: the publish after the idle time reached ${idleAwake.delivered} of ${2 * idleAwake.streams} streams`]
      : []),
    ...(footprint
      ? [
          ["mcp-edge", footprint.ours],
          ["floor", footprint.floor],
        ]
      : []
    )
      .filter(([, side]) => side.errors > 0)
      .map(([name, side]) => `footprint (${name}): ${side.errors} of ${side.sessions} sessions failed to open`),
    ...(webhooks ? webhooksBudgetFailures(webhooks) : []),
  ];
  if (opts.docs) {
    const page = join(REPO_ROOT, "docs", "benchmark-results.md");
    const intro = `# Benchmark results\n\n<!-- Generated by \`npm run bench -- --docs\`; do not edit by hand. -->\n\nThe last full run's tables, as \`npm run bench\` printed them (command: \`${command}\`). What each row measures and how to read it: [benchmarks.md](benchmarks.md).\n\n`;
    writeFileSync(page, `${intro}${renderReport(report)}\n`);
    console.error(`bench: report written to ${relative(REPO_ROOT, page)}`);
  }
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
