// Runs the pre-release MCP conformance suite that knows 2026-07-28
// (@modelcontextprotocol/conformance@0.2.0-alpha.12, server mode) against the Worker's /mcp,
// once per requirement set (`--requirements 2026-07-28`, `--requirements 2025-11-25`), with an
// empty expected-failures list, and prints one line per scenario plus the pass counts. The
// 0.1.16 run (scripts/conformance.mjs) stays as it is until 0.2 is tagged latest.
//
// The CLI is the devDependency alias `@modelcontextprotocol/conformance-next` (pinned in the
// lockfile beside 0.1.16) and runs on this Node (>= 22.12, like the project). The Worker is
// started in-process and gets a random MCP_STATE_SECRET for this run only (MRTR signs with it).
//
// usage: node scripts/conformance-next.mjs [--url <running server>] [--requirements <rev>]... [--keep] [--json <file>]

import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startWorker } from "./worker-server.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export const NEXT_CONFORMANCE_VERSION = "0.2.0-alpha.12";
const REQUIREMENTS = ["2026-07-28", "2025-11-25"];
const RESULT_DIR = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

function cliPath() {
  const pkgFile = createRequire(import.meta.url).resolve("@modelcontextprotocol/conformance-next/package.json");
  const pkg = JSON.parse(readFileSync(pkgFile, "utf8"));
  if (pkg.version !== NEXT_CONFORMANCE_VERSION)
    throw new Error(`expected conformance ${NEXT_CONFORMANCE_VERSION}, found ${pkg.version}: run npm ci`);
  const bin = typeof pkg.bin === "string" ? pkg.bin : Object.values(pkg.bin ?? {})[0];
  return join(dirname(pkgFile), bin ?? "dist/index.js");
}

/** The server scenarios a requirement set scores (its "Server scenarios" list); the others run but are not scored. */
function requiredScenarios(node, cli, requirements) {
  const list = spawnSync(node, [cli, "list", "--requirements", requirements], { encoding: "utf8" });
  const section = (list.stdout ?? "").split("Server scenarios")[1]?.split("\n\n")[0] ?? "";
  return new Set([...section.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]));
}

/**
 * Runs the CLI without blocking this process: the Worker under test is served by this same
 * process (wrangler's in-process dev server), so a synchronous spawn would starve it.
 */
function runCli(node, args) {
  return new Promise((resolveRun) => {
    const child = spawn(node, args, {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    let stdout = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stdout += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 20 * 60_000);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolveRun({ status, stdout });
    });
  });
}

function readChecks(dir) {
  const scenarios = new Map();
  if (!existsSync(dir)) return scenarios;
  for (const name of readdirSync(dir).sort()) {
    const m = name.match(RESULT_DIR);
    const file = join(dir, name, "checks.json");
    if (!m || !existsSync(file)) continue;
    const checks = JSON.parse(readFileSync(file, "utf8"));
    const bad = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING");
    const prev = scenarios.get(m[1]);
    scenarios.set(m[1], { checks: [...(prev?.checks ?? []), ...checks], bad: [...(prev?.bad ?? []), ...bad] });
  }
  return scenarios;
}

async function main() {
  const { values } = parseArgs({
    options: {
      url: { type: "string" },
      requirements: { type: "string", multiple: true },
      keep: { type: "boolean" },
      json: { type: "string" },
      verbose: { type: "boolean" },
    },
  });
  const node = process.execPath;
  const cli = cliPath();
  const work = mkdtempSync(join(tmpdir(), "mcp-edge-conformance-next-"));
  const baseline = join(work, "expected-failures.yml");
  writeFileSync(baseline, "server: []\n");
  let server;
  let url = values.url;
  if (!url) {
    server = await startWorker({ vars: { MCP_STATE_SECRET: randomBytes(32).toString("hex") }, echo: values.verbose });
    url = server.mcpUrl;
  }
  const report = { conformanceVersion: NEXT_CONFORMANCE_VERSION, url, requirements: {} };
  let unexpected = 0;
  try {
    for (const requirements of values.requirements ?? REQUIREMENTS) {
      const out = join(work, requirements);
      console.log(`conformance ${NEXT_CONFORMANCE_VERSION} --requirements ${requirements} against ${url}`);
      const run = await runCli(node, [
        cli,
        "server",
        "--url",
        url,
        "--requirements",
        requirements,
        "--expected-failures",
        baseline,
        "-o",
        out,
      ]);
      if (values.verbose) process.stdout.write(run.stdout ?? "");
      const scenarios = readChecks(out);
      const required = requiredScenarios(node, cli, requirements);
      const rows = [...scenarios].map(([scenario, s]) => ({
        scenario,
        required: required.has(scenario),
        passed: s.bad.length === 0,
        bad: s.bad,
      }));
      for (const r of rows) {
        console.log(`  ${r.passed ? "pass" : "FAIL"}  ${r.scenario}${r.required ? "" : "  (not scored)"}`);
        if (r.required || values.verbose)
          for (const c of r.bad)
            console.log(
              `          ${c.status} ${c.id}: ${String(c.errorMessage ?? c.description ?? "")
                .replace(/\s+/g, " ")
                .slice(0, 240)}`,
            );
      }
      const scored = rows.filter((r) => r.required);
      const passed = scored.filter((r) => r.passed).length;
      const missing = [...required].filter((name) => !scenarios.has(name));
      const extra = rows.filter((r) => !r.required);
      console.log(
        `  ${requirements}: required ${passed} passed, ${scored.length - passed + missing.length} failed${missing.length ? ` (no result: ${missing.join(", ")})` : ""}; not scored: ${extra.filter((r) => r.passed).length} passed, ${extra.filter((r) => !r.passed).length} pending`,
      );
      unexpected += scored.length - passed + missing.length;
      if (rows.length === 0 || (run.status !== 0 && run.status !== 1)) unexpected += 1;
      report.requirements[requirements] = {
        exitCode: run.status,
        requiredPassed: passed,
        requiredFailed: scored.length - passed + missing.length,
        notScored: extra.map((r) => ({ scenario: r.scenario, passed: r.passed })),
        scenarios: rows.map((r) => ({ scenario: r.scenario, required: r.required, passed: r.passed })),
      };
    }
  } finally {
    if (server) await server.stop();
  }
  if (values.json) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
  if (values.keep) console.log(`raw results kept in ${work}`);
  else rmSync(work, { recursive: true, force: true });
  process.exit(unexpected === 0 ? 0 : 1);
}

await main();
