// Client processes for end-to-end tests (MCP Inspector CLI, mcp-remote). Each one leads its own
// process group, so stop() reaches anything it spawned; stop() signals that group by its id
// (SIGTERM, then SIGKILL) and waits until it is gone. Whatever is still running when this
// process exits is killed by the exit hook.

import { spawn } from "node:child_process";

const STOP_GRACE_MS = 5_000;
const KEPT_OUTPUT_CHARS = 200_000;

/** @type {Set<{ pid: number }>} */
const live = new Set();
let exitHookInstalled = false;

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {}
}

function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}

function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const child of live) killGroup(child.pid, "SIGKILL");
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts a process with piped stdio in its own process group; `env` is merged over process.env.
 * @param {string} command
 * @param {string[]} args
 * @param {{ env?: Record<string, string | undefined>, cwd?: string }} [options]
 */
export function startProcess(command, args, options = {}) {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  if (!child.pid) throw new Error(`could not start ${command}`);
  const pid = child.pid;
  const entry = { pid };
  live.add(entry);
  installExitHook();

  let stdout = "";
  let stderr = "";
  let partial = "";
  /** @type {string[]} */
  const lines = [];
  /** @type {Set<() => void>} */
  const lineWaiters = new Set();
  let exitInfo;
  const exited = new Promise((resolveExit) => {
    child.once("close", (code, signal) => {
      exitInfo = { code, signal };
      live.delete(entry);
      for (const wake of lineWaiters) wake();
      resolveExit(exitInfo);
    });
  });
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    stdout = (stdout + chunk).slice(-KEPT_OUTPUT_CHARS);
    const parts = (partial + chunk).split("\n");
    partial = parts.pop() ?? "";
    lines.push(...parts);
    for (const wake of lineWaiters) wake();
  });
  child.stderr.on("data", (chunk) => {
    stderr = (stderr + chunk).slice(-KEPT_OUTPUT_CHARS);
  });
  child.stdin.on("error", () => {}); // EPIPE once the process is gone

  let stopping;
  return {
    pid,
    exited,
    lines,
    stdout: () => stdout,
    stderr: () => stderr,
    /** @param {string} text */
    write(text) {
      child.stdin.write(text);
    },
    /** Closes the process's stdin. */
    closeStdin() {
      child.stdin.end();
    },
    /**
     * Resolves with the first stdout line (from index `from` on) that satisfies `match`.
     * @param {(line: string) => boolean} match
     * @param {{ timeoutMs?: number, from?: number }} [opts]
     */
    waitForLine(match, opts = {}) {
      const timeoutMs = opts.timeoutMs ?? 30_000;
      let next = opts.from ?? 0;
      return new Promise((resolveLine, reject) => {
        const check = () => {
          for (; next < lines.length; next++) {
            if (match(lines[next])) {
              finish();
              resolveLine(lines[next]);
              return;
            }
          }
          if (exitInfo) {
            finish();
            reject(
              new Error(
                `${command} exited (code ${exitInfo.code}, signal ${exitInfo.signal}) before the expected line; stderr:\n${stderr.slice(-4_000)}`,
              ),
            );
          }
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`no matching line from ${command} within ${timeoutMs} ms; stderr:\n${stderr.slice(-4_000)}`));
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          lineWaiters.delete(check);
        };
        lineWaiters.add(check);
        check();
      });
    },
    /** Signals the process group by id (SIGTERM, then SIGKILL) and waits until it is gone. Idempotent. */
    stop() {
      stopping ??= (async () => {
        if (groupAlive(pid)) {
          killGroup(pid, "SIGTERM");
          const deadline = Date.now() + STOP_GRACE_MS;
          while (groupAlive(pid) && Date.now() < deadline) await sleep(50);
          if (groupAlive(pid)) {
            killGroup(pid, "SIGKILL");
            const hardDeadline = Date.now() + STOP_GRACE_MS;
            while (groupAlive(pid) && Date.now() < hardDeadline) await sleep(50);
          }
        }
        if (!exitInfo) await Promise.race([exited, sleep(STOP_GRACE_MS)]);
        live.delete(entry);
      })();
      return stopping;
    },
  };
}

/**
 * Runs a command to completion (stdin closed) and returns its exit status and output; kills its
 * process group if it outlives `timeoutMs`.
 * @param {string} command
 * @param {string[]} args
 * @param {{ env?: Record<string, string | undefined>, cwd?: string, timeoutMs?: number }} [options]
 */
export async function runProcess(command, args, options = {}) {
  const proc = startProcess(command, args, options);
  proc.closeStdin();
  const timeoutMs = options.timeoutMs ?? 60_000;
  let timer;
  const timedOut = await Promise.race([
    proc.exited.then(() => false),
    new Promise((r) => {
      timer = setTimeout(() => r(true), timeoutMs);
    }),
  ]);
  clearTimeout(timer);
  await proc.stop(); // after a timeout, or to reap anything the command left behind in its group
  const { code, signal } = await proc.exited;
  return { code, signal, timedOut, stdout: proc.stdout(), stderr: proc.stderr() };
}
