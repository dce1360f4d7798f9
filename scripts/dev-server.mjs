// Starts the Worker under `wrangler dev` on 127.0.0.1 (free ports, local mode only, its own
// throwaway Durable Object storage) and stops it again, leaving no process behind.
// Owns: the wrangler process group, its temp folder (persistence, dev registry).
// Invariant: every started server is in `live` until its whole process group has exited; the
// exit/signal hooks kill whatever is still in `live`.
//
// With `https: { keyPath, certPath }` wrangler serves HTTPS (--local-protocol https) and the
// readiness probe trusts only that certificate.
//
// CLI: `node scripts/dev-server.mjs [--port N] [--config wrangler.toml]` prints the MCP URL and
// runs until Ctrl-C (wrangler's output goes to stderr).

import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const WRANGLER = join(REPO_ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
const WATCHDOG = join(REPO_ROOT, "scripts", "process-group-watchdog.mjs");
const MINIFLARE_SERVER = join(REPO_ROOT, "scripts", "miniflare-server.mjs");
const HOST = "127.0.0.1";
const READY_TIMEOUT_MS = 90_000;
const PROBE_TIMEOUT_MS = 2_000;
const PROBE_INTERVAL_MS = 200;
const STOP_GRACE_MS = 5_000;
const LOG_LINES_KEPT = 400;
const START_ATTEMPTS = 3;

/**
 * Keeps wrangler and miniflare off the network: no metrics, no error reports, no update check
 * (it runs with the banner), no download of the `request.cf` object.
 */
const OFFLINE_ENV = {
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  WRANGLER_HIDE_BANNER: "true",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  NO_COLOR: "1",
  FORCE_COLOR: "0",
};

/** @type {Set<{ killNow: () => void, stop: () => Promise<void> }>} */
const live = new Set();
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"];
let hooksInstalled = false;

function onExit() {
  for (const server of live) server.killNow();
}

async function onSignal(signal) {
  await Promise.allSettled([...live].map((server) => server.stop()));
  uninstallHooks();
  // Nobody else handles this signal: die of it as if we had never caught it.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function installHooks() {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on("exit", onExit);
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

function uninstallHooks() {
  if (!hooksInstalled || live.size > 0) return;
  hooksInstalled = false;
  process.off("exit", onExit);
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

/** A port that was free on `host` a moment ago (the OS picks it). */
export function findFreePort(host = HOST) {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen({ host, port: 0, exclusive: true }, () => {
      const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
      server.close(() => resolvePort(port));
    });
  });
}

async function findFreePorts(count, host, exclude = []) {
  const ports = [];
  while (ports.length < count) {
    const port = await findFreePort(host);
    if (!ports.includes(port) && !exclude.includes(port)) ports.push(port);
  }
  return ports;
}

/** Is anything left in the process group? (A group exists while any member, even a zombie, does.) */
function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}

function killGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch {}
}

// esbuild's diagnostics come coloured whatever NO_COLOR says; keep the buffered copy plain.
const stripAnsi = (text) => text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "");

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Members of a process group still to wait for, from /proc ([] where /proc is missing). Our own
 * zombie children are left out: only our event loop could reap them, and it is not running
 * during "exit". Zombies re-parented to init are counted until init reaps them.
 */
function pendingGroupMembers(pgid) {
  const members = [];
  let entries = [];
  try {
    entries = readdirSync("/proc");
  } catch {
    return members;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid pgrp ..."; comm may contain spaces and ')'.
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const [state, ppid, pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(pgrp) !== pgid) continue;
      if (state === "Z" && Number(ppid) === process.pid) continue;
      members.push(Number(name));
    } catch {}
  }
  return members;
}

/** Blocks (no event loop needed) until the group has no live member, at most `ms`. */
function waitGroupGoneSync(pgid, ms) {
  const deadline = Date.now() + ms;
  while (pendingGroupMembers(pgid).length > 0 && Date.now() < deadline) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
}

async function waitGroupGone(pgid, ms) {
  const deadline = Date.now() + ms;
  while (groupAlive(pgid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

const PROBE_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const PROBE_BODY = JSON.stringify({ jsonrpc: "2.0", id: "dev-server-ready-probe", method: "ping" });

/**
 * Any HTTP answer means workerd is serving; the body is a harmless ping. Resolves true, or the
 * reason it failed. Over HTTPS it trusts only the given CA (the server's own certificate).
 * @param {string} url
 * @param {Buffer} [ca]
 * @returns {Promise<true | string>}
 */
async function probe(url, ca) {
  if (ca) {
    return new Promise((resolveProbe) => {
      const req = httpsRequest(`${url}/mcp`, { method: "POST", ca, headers: PROBE_HEADERS, timeout: PROBE_TIMEOUT_MS }, (res) => {
        res.resume();
        resolveProbe(true);
      });
      req.on("timeout", () => req.destroy(new Error("probe timed out")));
      req.on("error", (err) => resolveProbe(String(err?.message ?? err)));
      req.end(PROBE_BODY);
    });
  }
  try {
    const res = await fetch(`${url}/mcp`, {
      method: "POST",
      headers: PROBE_HEADERS,
      body: PROBE_BODY,
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    await res.body?.cancel().catch(() => {});
    return true;
  } catch (err) {
    return String(err?.cause?.message ?? err?.message ?? err);
  }
}

/**
 * Starts `wrangler dev` for the Worker and resolves once it answers HTTP on 127.0.0.1.
 * @param {import("./dev-server.d.mts").DevServerOptions} [options]
 * @returns {Promise<import("./dev-server.d.mts").DevServer>}
 */
export async function startDevServer(options = {}) {
  let lastError;
  const attempts = options.port ? 1 : START_ATTEMPTS;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      return await startOnce(options);
    } catch (err) {
      lastError = err;
      // A free port can be taken between our check and wrangler's bind: retry with new ports.
      if (!/address already in use|EADDRINUSE/i.test(String(err?.message))) break;
    }
  }
  throw lastError;
}

async function startOnce(options) {
  const configPath = resolve(options.configPath ?? join(REPO_ROOT, "wrangler.toml"));
  const cwd = options.cwd ?? dirname(configPath);
  const ca = options.https ? readFileSync(options.https.certPath) : undefined;
  const [port, inspectorPort] = options.port
    ? [options.port, (await findFreePorts(1, HOST, [options.port]))[0]]
    : await findFreePorts(2, HOST);
  const workDir = mkdtempSync(join(options.tmpDir ?? tmpdir(), "mcp-edge-dev-"));
  const persistDir = join(workDir, "state");
  // runner "miniflare": the same Worker served by Miniflare alone (scripts/miniflare-server.mjs),
  // without wrangler dev's proxy and inspector; used by the benchmark.
  const args = options.runner === "miniflare" ? [MINIFLARE_SERVER, "--config", configPath, "--port", String(port), "--persist-to", persistDir] : [
    WRANGLER, "dev",
    "--config", configPath,
    "--local",
    "--ip", HOST,
    "--port", String(port),
    "--inspector-port", String(inspectorPort),
    "--persist-to", persistDir,
    "--log-level", options.logLevel ?? "warn",
    "--show-interactive-dev-session=false",
    ...(options.https
      ? ["--local-protocol", "https", "--https-key-path", resolve(options.https.keyPath), "--https-cert-path", resolve(options.https.certPath)]
      : []),
    ...(options.args ?? []),
  ];
  const url = `${options.https ? "https" : "http"}://${HOST}:${port}`;
  const lines = [];
  const echo = options.echo ?? process.env.MCP_EDGE_DEV_LOGS === "1";

  // The watchdog leads a new process group (so stop() reaches wrangler, workerd and esbuild) and
  // kills that group should this process die without calling stop() (e.g. SIGKILL).
  const child = spawn(process.execPath, [WATCHDOG, process.execPath, ...args], {
    cwd,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      ...OFFLINE_ENV,
      WRANGLER_REGISTRY_PATH: join(workDir, "registry"), // no dev-registry cross-talk between runs
      ...options.env,
      WATCHDOG_CLEANUP_DIR: workDir,
    },
  });
  const pgid = child.pid;
  let exitInfo;
  const exited = new Promise((r) => {
    child.once("exit", (code, signal) => {
      exitInfo = { code, signal };
      r(exitInfo);
    });
  });
  for (const stream of [child.stdout, child.stderr]) {
    let partial = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk) => {
      if (echo) process.stderr.write(chunk);
      const parts = (partial + chunk).split("\n");
      partial = parts.pop() ?? "";
      lines.push(...parts.map(stripAnsi));
      if (lines.length > LOG_LINES_KEPT) lines.splice(0, lines.length - LOG_LINES_KEPT);
    });
  }
  const logs = () => lines.join("\n");

  let stopping;
  const entry = {
    killNow() {
      // Synchronous, for process "exit": the event loop is gone, so block briefly instead.
      // SIGTERM first so wrangler reaps workerd itself (SIGKILL would leave zombies for init).
      if (pgid && pendingGroupMembers(pgid).length > 0) {
        killGroup(pgid, "SIGTERM");
        waitGroupGoneSync(pgid, STOP_GRACE_MS);
        killGroup(pgid, "SIGKILL");
        waitGroupGoneSync(pgid, STOP_GRACE_MS);
      }
      rmSync(workDir, { recursive: true, force: true });
      live.delete(entry);
    },
    stop() {
      stopping ??= (async () => {
        try {
          if (pgid && groupAlive(pgid)) {
            killGroup(pgid, "SIGTERM");
            if (!(await waitGroupGone(pgid, STOP_GRACE_MS))) {
              killGroup(pgid, "SIGKILL");
              await waitGroupGone(pgid, STOP_GRACE_MS);
            }
          }
          if (!exitInfo && child.exitCode === null && child.signalCode === null) {
            await Promise.race([exited, sleep(STOP_GRACE_MS)]);
          }
        } finally {
          rmSync(workDir, { recursive: true, force: true });
          live.delete(entry);
          uninstallHooks();
        }
      })();
      return stopping;
    },
  };
  live.add(entry);
  installHooks();

  const deadline = Date.now() + (options.readyTimeoutMs ?? READY_TIMEOUT_MS);
  try {
    if (!pgid) throw new Error("could not spawn wrangler");
    for (;;) {
      if (exitInfo) throw new Error(`wrangler dev exited before it was ready (code ${exitInfo.code}, signal ${exitInfo.signal})`);
      const probed = await probe(url, ca);
      if (probed === true) break;
      if (Date.now() > deadline) throw new Error(`wrangler dev did not answer on ${url} within ${options.readyTimeoutMs ?? READY_TIMEOUT_MS} ms (last probe: ${probed})`);
      await sleep(PROBE_INTERVAL_MS);
    }
  } catch (err) {
    await entry.stop();
    throw new Error(`${err.message}\n--- wrangler output ---\n${logs()}`);
  }

  return {
    url,
    mcpUrl: `${url}/mcp`,
    port,
    inspectorPort,
    pid: pgid,
    persistDir,
    exited,
    logs,
    get stopped() {
      return stopping !== undefined;
    },
    stop: () => entry.stop(),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      config: { type: "string", short: "c" },
      "log-level": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log("usage: node scripts/dev-server.mjs [--port N] [--config wrangler.toml] [--log-level info]");
    process.exit(0);
  }
  try {
    const server = await startDevServer({
      port: values.port ? Number(values.port) : undefined,
      configPath: values.config,
      logLevel: values["log-level"] ?? "info",
      echo: true,
    });
    console.log(server.mcpUrl);
    console.error(`wrangler dev (process group ${server.pid}) on ${server.url}; Ctrl-C stops it`);
    const { code, signal } = await server.exited;
    // Ctrl-C: the signal hook stops the server and then ends this process.
    if (server.stopped) await new Promise(() => setInterval(() => {}, 1_000));
    await server.stop();
    console.error(`wrangler dev exited (code ${code}, signal ${signal})`);
    process.exit(1);
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
