// Runs create-mcp-edge (create-mcp-edge/index.js) as `npm create mcp-edge` does, in a fresh temporary
// folder, optionally under a faked Node version: a preload sets process.versions.node before the CLI
// reads it, so the CLI's own version check runs as it would on that Node.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const CLI = join(resolve(dirname(fileURLToPath(import.meta.url)), "../../.."), "create-mcp-edge/index.js");

/**
 * @param {string[]} args
 * @param {{ nodeVersion?: string }} [how]
 */
export function runCreate(args, how = {}) {
  const folder = mkdtempSync(join(tmpdir(), "create-mcp-edge-test-"));
  const cwd = join(folder, "work");
  mkdirSync(cwd);
  const nodeArgs = [];
  if (how.nodeVersion) {
    const preload = join(folder, "fake-node-version.mjs");
    const versions = `{ ...process.versions, node: ${JSON.stringify(how.nodeVersion)} }`;
    writeFileSync(preload, `Object.defineProperty(process, "versions", { value: ${versions} });\n`);
    nodeArgs.push("--import", preload);
  }
  return new Promise((resolvePromise) => {
    execFile(process.execPath, [...nodeArgs, CLI, ...args], { cwd, timeout: 30_000 }, (error, stdout, stderr) => {
      const written = readdirSync(cwd);
      rmSync(folder, { recursive: true, force: true });
      resolvePromise({ code: error ? error.code : 0, stdout, stderr, written });
    });
  });
}
