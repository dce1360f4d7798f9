// Bundle size, as Cloudflare would receive it: `wrangler deploy --dry-run --outdir` (offline), the
// Worker's bytes and gzip bytes, and what each dependency contributes according to esbuild's
// metafile. The runtime's own figure and its per-feature table are built as a user's project
// builds: with the scaffold's wrangler.toml (create-mcp-edge/template), with wrangler's default
// `keep_names` and with `keep_names = false`. Owns a temp folder per measurement, deleted before returning.

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { gzipSync } from "node:zlib";

const BUILD_TIMEOUT_MS = 120_000;
/** Keeps the dry run off the network: no metrics, no error reports, no update check (it runs with the banner). */
const OFFLINE_ENV = { WRANGLER_SEND_METRICS: "false", WRANGLER_SEND_ERROR_REPORTS: "false", WRANGLER_HIDE_BANNER: "true", NO_COLOR: "1" };

function run(command, args, { cwd, env }) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), BUILD_TIMEOUT_MS);
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolveRun(output);
      else reject(new Error(`${args.join(" ")} failed (code ${code}, signal ${signal}):\n${output}`));
    });
  });
}

/** "zod" for node_modules/zod/..., "src/mcp" for the repository's own folders, the file otherwise. */
function ownerOf(path, repoRoot) {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return pkg[1];
  const parts = relative(repoRoot, path).split("/");
  return parts.length > 2 ? parts.slice(0, 2).join("/") : parts.join("/");
}

/**
 * Builds the Worker of `configPath` into `outdir` like `wrangler deploy` would, without
 * deploying (offline), and returns the path of the module it wrote. Also used by
 * scripts/worker-server.mjs to serve exactly what would be uploaded.
 */
export async function buildWorker({ repoRoot, configPath, outdir, minify = false, metafile, env }) {
  await run(
    process.execPath,
    [
      join(repoRoot, "node_modules", "wrangler", "bin", "wrangler.js"),
      "deploy",
      "--dry-run",
      ...(minify ? ["--minify"] : []),
      "--config",
      configPath,
      "--outdir",
      outdir,
      ...(metafile ? ["--metafile", metafile] : []),
    ],
    { cwd: dirname(configPath), env: { ...process.env, ...OFFLINE_ENV, ...env } },
  );
  const script = readdirSync(outdir).find((f) => f.endsWith(".js"));
  if (!script) throw new Error(`wrangler wrote no .js file to ${outdir}`);
  return join(outdir, script);
}

/**
 * The minified bundle of `configPath`: bytes, gzip bytes and what each dependency contributes.
 * @returns {Promise<{ bytes: number, gzipBytes: number, parts: { name: string, bytes: number, gzipShare: number }[] }>}
 */
export async function measureBundle({ repoRoot, configPath, env, minify = true }) {
  const outdir = mkdtempSync(join(tmpdir(), "mcp-edge-bundle-"));
  try {
    const metafile = join(outdir, "meta.json");
    const scriptPath = await buildWorker({ repoRoot, configPath, outdir, minify, metafile, env });
    const script = basename(scriptPath);
    const code = readFileSync(scriptPath);
    const bytes = statSync(scriptPath).size;
    const gzipBytes = gzipSync(code).byteLength;

    // esbuild names inputs relative to its working directory (the config's folder).
    const meta = JSON.parse(readFileSync(metafile, "utf8"));
    const output = Object.entries(meta.outputs).find(([name]) => name.endsWith(script))?.[1];
    const byOwner = new Map();
    for (const [input, { bytesInOutput }] of Object.entries(output?.inputs ?? {})) {
      const owner = ownerOf(resolve(dirname(configPath), input), repoRoot);
      byOwner.set(owner, (byOwner.get(owner) ?? 0) + bytesInOutput);
    }
    const inputsTotal = [...byOwner.values()].reduce((a, b) => a + b, 0);
    const parts = [...byOwner]
      .map(([name, partBytes]) => ({ name, bytes: partBytes, gzipShare: Math.round((partBytes / inputsTotal) * gzipBytes) }))
      .sort((a, b) => b.bytes - a.bytes);
    return { bytes, gzipBytes, parts };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** The same small server (bench/size/): two tools, a resource and a prompt, built with each. */
export const SIZE_VARIANTS = [
  { key: "mcpEdge", label: "mcp-edge (zod schemas, session mode)", config: "mcp-edge.wrangler.toml" },
  { key: "mcpEdgeJsonSchema", label: "mcp-edge (raw JSON Schema, no zod)", config: "mcp-edge-json-schema.wrangler.toml" },
  { key: "agents", label: "agents createMcpHandler (agents/mcp/server, SDK v2 server)", config: "agents.wrangler.toml" },
  { key: "sdkV2", label: "SDK v2 createMcpHandler (@modelcontextprotocol/server)", config: "sdk-v2.wrangler.toml" },
];

/**
 * Builds each variant of bench/size (installing that folder's pinned alternatives on first use)
 * and returns its size with the share of zod and of the library itself.
 */
export async function measureSizeComparison({ repoRoot }) {
  const dir = join(repoRoot, "bench", "size");
  if (!existsSync(join(dir, "node_modules", "agents"))) {
    process.stderr.write("bench: installing the alternatives for the size comparison (bench/size) …\n");
    await run(process.platform === "win32" ? "npm.cmd" : "npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: dir,
      env: process.env,
    });
  }
  const sizes = {};
  for (const variant of SIZE_VARIANTS) {
    const measured = await measureBundle({ repoRoot, configPath: join(dir, variant.config) });
    const zod = measured.parts.filter((p) => p.name === "zod").reduce((sum, p) => sum + p.gzipShare, 0);
    sizes[variant.key] = { ...variant, ...measured, zodGzipShare: zod };
  }
  return sizes;
}

/**
 * The Worker entries of bench/bundle/, each the one-tool server of bench/bundle/one-tool.ts: the
 * first with sessions only (the budget's figure), then that plus one feature each.
 */
export const FEATURE_VARIANTS = [
  { key: "sessions", label: "one tool, sessions only", entry: "sessions.ts" },
  { key: "tasks", label: "+ tasks", entry: "tasks.ts" },
  { key: "hub", label: "+ hub (publish, listen)", entry: "hub.ts" },
  { key: "user", label: "+ user store", entry: "user.ts" },
  { key: "deferred", label: "deferred sessions (instead of sessions)", entry: "deferred.ts" },
  { key: "legacySse", label: "+ 2024-11-05 HTTP+SSE transport (legacySse)", entry: "legacy-sse.ts" },
  { key: "auth", label: "+ auth (resource server, JWT)", entry: "auth.ts" },
  { key: "tracing", label: "+ tracing", entry: "tracing.ts" },
  { key: "discovery", label: "+ discovery", entry: "discovery.ts" },
  { key: "rateLimits", label: "+ rate limits", entry: "rate-limits.ts" },
  { key: "skills", label: "+ skills", entry: "skills.ts" },
  { key: "apps", label: "+ apps", entry: "apps.ts" },
  { key: "events", label: "+ events (emitted type, webhooks)", entry: "events.ts" },
  { key: "jsonSchema", label: "+ full JSON Schema (fullJsonSchema)", entry: "json-schema.ts" },
];

/**
 * The scaffold's wrangler.toml with `main` pointed at `entry`: the compatibility settings and the
 * `minify` a new project deploys with, and `keep_names = false` when asked (wrangler's default is true).
 */
export function userConfig({ repoRoot, entry, keepNames }) {
  const template = readFileSync(join(repoRoot, "create-mcp-edge", "template", "wrangler.toml"), "utf8");
  if (!/^main = .*$/m.test(template)) throw new Error("create-mcp-edge/template/wrangler.toml has no `main` line");
  const settings = `main = ${JSON.stringify(entry)}${keepNames ? "" : "\nkeep_names = false"}`;
  return template.replace(/^main = .*$/m, settings);
}

/** One entry built with the scaffold's settings, `keep_names` on or off. */
async function measureAsUserBuilds({ repoRoot, entry, keepNames }) {
  const dir = mkdtempSync(join(tmpdir(), "mcp-edge-user-"));
  try {
    const configPath = join(dir, "wrangler.toml");
    writeFileSync(configPath, userConfig({ repoRoot, entry, keepNames }));
    return await measureBundle({ repoRoot, configPath, minify: false });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Every variant of FEATURE_VARIANTS (or, `all` false, the first) built as a user's project builds,
 * both ways: `{ key, label, keepNames: {bytes, gzipBytes, parts}, noKeepNames: {…} }` in the list's order.
 */
export async function measureFeatureBundles({ repoRoot, all = true }) {
  const measured = [];
  for (const variant of all ? FEATURE_VARIANTS : FEATURE_VARIANTS.slice(0, 1)) {
    const entry = join(repoRoot, "bench", "bundle", variant.entry);
    const keepNames = await measureAsUserBuilds({ repoRoot, entry, keepNames: true });
    const noKeepNames = await measureAsUserBuilds({ repoRoot, entry, keepNames: false });
    measured.push({ ...variant, keepNames, noKeepNames });
  }
  return measured;
}
