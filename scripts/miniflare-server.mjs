#!/usr/bin/env node
// Serves a Worker with Miniflare alone, without wrangler dev's proxy: the Worker is bundled as
// `wrangler deploy --dry-run` would upload it, and its bindings, Durable Objects and compatibility
// settings come from its wrangler config (wrangler's unstable_getMiniflareWorkerOptions). Used by
// `npm run bench -- --runner miniflare` through scripts/dev-server.mjs, which owns the process
// group, the readiness probe and the cleanup.
//
//   node scripts/miniflare-server.mjs --config <wrangler.toml> --port <n> --persist-to <dir>

import { mkdtempSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { buildWorker } from "./bench-bundle.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const HOST = "127.0.0.1";

const { values } = parseArgs({ options: { config: { type: "string" }, port: { type: "string" }, "persist-to": { type: "string" } } });
if (!values.config || !values.port || !values["persist-to"]) {
  console.error("usage: node scripts/miniflare-server.mjs --config <wrangler.toml> --port <n> --persist-to <dir>");
  process.exit(2);
}
const configPath = resolve(values.config);

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
  const scriptPath = await buildWorker({ repoRoot: REPO_ROOT, configPath, outdir });
  const { workerOptions } = unstable_getMiniflareWorkerOptions(configPath);
  mf = new Miniflare({
    ...workerOptions,
    modules: true,
    scriptPath,
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
