#!/usr/bin/env node
// Serves a Worker with Miniflare alone, without wrangler dev's proxy: the Worker is bundled as
// `wrangler deploy --dry-run` would upload it, and its bindings, Durable Objects and compatibility
// settings come from its wrangler config (wrangler's unstable_getMiniflareWorkerOptions). Used by
// `npm run bench -- --runner miniflare` through scripts/dev-server.mjs, which owns the process
// group, the readiness probe and the cleanup.
//
//   node scripts/miniflare-server.mjs --config <wrangler.toml> --port <n> --persist-to <dir>

import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const WRANGLER = join(REPO_ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
const HOST = "127.0.0.1";

const { values } = parseArgs({ options: { config: { type: "string" }, port: { type: "string" }, "persist-to": { type: "string" } } });
if (!values.config || !values.port || !values["persist-to"]) {
  console.error("usage: node scripts/miniflare-server.mjs --config <wrangler.toml> --port <n> --persist-to <dir>");
  process.exit(2);
}
const configPath = resolve(values.config);

/** `wrangler deploy --dry-run --outdir`: the module Cloudflare would receive, unminified. */
function build(outdir) {
  return new Promise((resolveBuild, reject) => {
    const child = spawn(process.execPath, [WRANGLER, "deploy", "--dry-run", "--outdir", outdir, "--config", configPath], {
      cwd: dirname(configPath),
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_SEND_ERROR_REPORTS: "false", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolveBuild() : reject(new Error(`wrangler deploy --dry-run failed (code ${code}):\n${output}`))));
  });
}

// Beside the storage, in the folder dev-server.mjs owns and deletes, so a killed server leaves nothing.
const outdir = mkdtempSync(join(dirname(resolve(values["persist-to"])), "build-"));
let mf;
const stop = async () => {
  await mf?.dispose().catch(() => undefined);
  rmSync(outdir, { recursive: true, force: true });
  process.exit(0);
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);

try {
  await build(outdir);
  const script = readdirSync(outdir).find((f) => f.endsWith(".js"));
  if (!script) throw new Error(`wrangler deploy --dry-run wrote no .js file to ${outdir}`);
  const { workerOptions } = unstable_getMiniflareWorkerOptions(configPath);
  mf = new Miniflare({
    ...workerOptions,
    modules: true,
    scriptPath: join(outdir, script),
    modulesRoot: outdir,
    host: HOST,
    port: Number(values.port),
    durableObjectsPersist: values["persist-to"],
  });
  const url = await mf.ready;
  console.log(`miniflare: ready on ${url}`);
} catch (error) {
  console.error(`miniflare: ${error?.stack ?? error}`);
  await mf?.dispose().catch(() => undefined);
  rmSync(outdir, { recursive: true, force: true });
  process.exit(1);
}
