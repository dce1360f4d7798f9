// Starts a Worker in this Node process on 127.0.0.1 (no child Node, no polling, no process groups)
// for the end-to-end tests, conformance and the bench, with its own throwaway storage.
// runner "wrangler" (default): wrangler's `unstable_startWorker`, i.e. `wrangler dev` in-process
// (same bundling, same proxy). runner "miniflare": the bundle `wrangler deploy --dry-run` would
// upload, served by Miniflare alone (no proxy; the bench's lower-overhead option).
// Invariant: stop() disposes the runtime (its workerd children exit) and deletes the temp folder;
// a server still running when the process exits or gets SIGTERM/SIGHUP has its workerd killed.
// (Ctrl-C reaches workerd itself: it stays in the terminal's process group.)

import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions, unstable_startWorker } from "wrangler";
import { buildWorker } from "../bench/harness/bundle.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const HOST = "127.0.0.1";
const LOG_LINES_KEPT = 400;

// Off the network and quiet: no metrics, error reports or `request.cf` download; warnings only.
for (const [key, value] of Object.entries({
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_LOG: "warn",
})) {
  process.env[key] ??= value;
}

/** Servers not yet stopped. workerd does not exit with its parent, so the hooks below stop it. */
const live = new Set();
let hooksInstalled = false;

function killLive() {
  for (const { workerdPids, workDir } of live) {
    for (const pid of workerdPids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
    }
    rmSync(workDir, { recursive: true, force: true });
  }
  live.clear();
}

/** On exit, and on SIGTERM/SIGHUP when nobody else handles them (then die of the signal as usual). */
function installHooks() {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.once("exit", killLive);
  for (const signal of ["SIGTERM", "SIGHUP"]) {
    if (process.listenerCount(signal) > 0) continue;
    process.once(signal, () => {
      killLive();
      process.kill(process.pid, signal);
    });
  }
}

/** workerd processes this Node process has started (from /proc; [] where /proc is missing). */
export function workerdChildren() {
  const pids = [];
  let entries = [];
  try {
    entries = readdirSync("/proc");
  } catch {
    return pids;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces.
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === process.pid && comm.startsWith("workerd")) pids.push(Number(name));
    } catch {}
  }
  return pids;
}

/**
 * Waits until every workerd process of a wrangler dev server exists: one request through its
 * proxy (answered only once the Worker's runtime serves), then until no new process appears for
 * 300 ms. Without it the bench billed a server's late runtime process to the next server started.
 */
async function runtimeStarted(origin, https) {
  if (!https)
    await fetch(origin).then(
      (res) => res.body?.cancel(),
      () => undefined,
    );
  let seen = workerdChildren().length;
  for (let waited = 0, stable = 0; stable < 300 && waited < 10_000; waited += 100) {
    await new Promise((done) => setTimeout(done, 100));
    const now = workerdChildren().length;
    stable = now === seen ? stable + 100 : 0;
    seen = now;
  }
}

/**
 * Starts the runtime serving `configPath` with its Durable Object storage in `persistDir`; resolves with its
 * URL once it serves, and how to dispose of it. `port` 0: a free one.
 */
async function launch(options, configPath, dirs, onLog) {
  const { workDir, persistDir } = dirs;
  if (options.runner === "miniflare") {
    if (options.https) throw new Error('runner "miniflare" serves HTTP only');
    const outdir = join(workDir, "build");
    const scriptPath = await buildWorker({ repoRoot: REPO_ROOT, configPath, outdir });
    // modulesRules describe unbundled sources; the dry-run output is one bundled module.
    const { modulesRules: _, ...workerOptions } = unstable_getMiniflareWorkerOptions(configPath).workerOptions;
    // wrangler still describes a Worker in Miniflare 4's option shape.
    const mf = new Miniflare(
      convertV4MiniflareOptions({
        ...workerOptions,
        bindings: { ...workerOptions.bindings, ...options.vars },
        modules: true,
        scriptPath,
        modulesRoot: outdir,
        host: HOST,
        port: dirs.port,
        resourcePersistencePath: persistDir,
        handleStructuredLogs: onLog,
        ...(options.inspectorPort ? { inspectorPort: options.inspectorPort } : {}),
      }),
    );
    try {
      return { url: await mf.ready, dispose: () => mf.dispose() };
    } catch (err) {
      await mf.dispose().catch(() => undefined);
      throw err;
    }
  }
  const worker = await unstable_startWorker({
    config: configPath,
    bindings: Object.fromEntries(Object.entries(options.vars ?? {}).map(([name, value]) => [name, { type: "plain_text", value }])),
    dev: {
      server: {
        hostname: HOST,
        port: dirs.port,
        secure: Boolean(options.https),
        httpsKeyPath: options.https?.keyPath,
        httpsCertPath: options.https?.certPath,
      },
      inspector: options.inspector ? { hostname: HOST, port: 0 } : false,
      persist: persistDir,
      registry: join(workDir, "registry"), // no dev-registry cross-talk between servers
      watch: false,
      structuredLogsHandler: onLog,
    },
  });
  const dispose = () => worker.dispose();
  try {
    await worker.ready;
    const url = await worker.url;
    // wrangler's `ready` comes once its proxy serves; the Worker's own workerd starts just after.
    await runtimeStarted(url.origin, Boolean(options.https));
    return { url, dispose };
  } catch (err) {
    await dispose().catch(() => undefined);
    throw err;
  }
}

/**
 * Starts the Worker of `configPath` and resolves once it serves HTTP(S) on 127.0.0.1.
 * @param {import("./worker-server.d.mts").WorkerServerOptions} [options]
 * @returns {Promise<import("./worker-server.d.mts").WorkerServer>}
 */
export async function startWorker(options = {}) {
  const configPath = resolve(options.configPath ?? join(REPO_ROOT, "wrangler.toml"));
  const workDir = mkdtempSync(join(options.tmpDir ?? tmpdir(), "mcp-edge-worker-"));
  const dirs = { workDir, persistDir: join(workDir, "state"), port: options.port ?? 0 };
  const lines = [];
  const echo = options.echo ?? process.env.MCP_EDGE_DEV_LOGS === "1";
  const onLog = (log) => {
    const line = `[${log.level}] ${log.message}`;
    if (echo) process.stderr.write(`${line}\n`);
    lines.push(line);
    if (lines.length > LOG_LINES_KEPT) lines.splice(0, lines.length - LOG_LINES_KEPT);
  };
  const before = new Set(workerdChildren());
  let runtime;
  try {
    runtime = await launch(options, configPath, dirs, onLog);
  } catch (err) {
    rmSync(workDir, { recursive: true, force: true });
    throw new Error(`could not start ${configPath}: ${err?.message ?? err}\n--- runtime output ---\n${lines.join("\n")}`);
  }
  const origin = runtime.url.origin;
  dirs.port = Number(runtime.url.port);
  const workerdPids = workerdChildren().filter((pid) => !before.has(pid));
  const entry = { workerdPids, workDir };
  live.add(entry);
  installHooks();
  let stopping;
  return {
    url: origin,
    mcpUrl: `${origin}/mcp`,
    port: dirs.port,
    persistDir: dirs.persistDir,
    workerdPids,
    logs: () => lines.join("\n"),
    async restart() {
      await runtime.dispose();
      runtime = await launch(options, configPath, dirs, onLog);
    },
    stop: () =>
      (stopping ??= (async () => {
        try {
          await runtime.dispose();
        } finally {
          live.delete(entry);
          rmSync(workDir, { recursive: true, force: true });
        }
      })()),
  };
}

/** A port that was free on 127.0.0.1 a moment ago, for a Worker that must know its URL before it starts. */
export function findFreePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen({ host: HOST, port: 0, exclusive: true }, () => {
      const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
      server.close(() => resolvePort(port));
    });
  });
}
