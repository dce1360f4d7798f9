// Leader of a detached process group: runs the command in argv (in the same group) and, if the
// process that started us dies without cleaning up (e.g. SIGKILL), kills the whole group, so
// no wrangler/workerd outlives the test run or script that started it.
// Signals sent to the group reach the command directly; this process only waits for it.
// WATCHDOG_CLEANUP_DIR: a folder to delete after an orphaned command has exited (the parent
// would have deleted it in its own stop()).

import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { constants } from "node:os";

const PARENT_POLL_MS = 500;
const KILL_GRACE_MS = 5_000;

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: node scripts/process-group-watchdog.mjs <command> [args...]");
  process.exit(2);
}
const parent = process.ppid;
const cleanupDir = process.env.WATCHDOG_CLEANUP_DIR;
let orphaned = false;
const childEnv = { ...process.env };
delete childEnv.WATCHDOG_CLEANUP_DIR;
const child = spawn(command, args, { stdio: "inherit", env: childEnv });

function killGroup(signal) {
  try {
    process.kill(0, signal); // 0 = our own process group
  } catch {}
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => {});

// Re-parenting (to init or a subreaper) is how an orphan learns its parent is gone.
const watch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(watch);
  orphaned = true;
  killGroup("SIGTERM");
  setTimeout(() => killGroup("SIGKILL"), KILL_GRACE_MS).unref();
}, PARENT_POLL_MS);

child.on("error", (err) => {
  console.error(`watchdog: cannot start ${command}: ${err.message}`);
  clearInterval(watch);
  process.exitCode = 127;
});
child.on("exit", (code, signal) => {
  clearInterval(watch);
  if (orphaned && cleanupDir) rmSync(cleanupDir, { recursive: true, force: true });
  process.exitCode = code ?? 128 + (constants.signals[signal] ?? 0);
});
