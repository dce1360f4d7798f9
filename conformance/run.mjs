// One runner for both pinned versions of the official MCP conformance suite (server mode):
//   node conformance/run.mjs          0.1.16 over the active, pending and all suites; a scenario passes iff its
//                                         checks.json has no FAILURE and no WARNING; exit 1 for a failure not listed in
//                                         conformance/expected-failures.yml (or, with --strict, a stale entry there)
//   node conformance/run.mjs --next   0.2.0-alpha.12 (the devDependency alias @modelcontextprotocol/conformance-next)
//                                         once per requirement set (2026-07-28, 2025-11-25), empty expected failures;
//                                         exit 1 for any failing scenario the set scores; then the extension
//                                         scenarios no set lists (Skills), scored: every check SUCCESS
// Either way the demo Worker is started in-process on 127.0.0.1 (or --url names a running server), the CLI runs
// without blocking this process (the Worker is served by it), one line per scenario is printed and --json writes the
// report scripts/compat-table.mjs reads. Exit 2 for bad usage or setup.

import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startWorker } from "../scripts/worker-server.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const RUN_TIMEOUT_MS = 20 * 60_000;
// <dir>/server-<scenario>-<ISO time with ':' and '.' replaced by '-'>/checks.json
const RESULT_DIR = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
const SUITES = ["active", "pending", "all"];
const REQUIREMENTS = ["2026-07-28", "2025-11-25"];
// --next: extension scenarios no requirement set lists (the Skills extension's, in the suite's pending set); run on
// the 2026-07-28 wire (no --spec-version) and scored like required ones: every check SUCCESS.
const EXTENSION_SCENARIOS = ["sep-2640-skills-enumeration", "sep-2640-skills-manifest", "sep-2640-skills-directory"];

const USAGE = `usage: node conformance/run.mjs [--next] [options]

  --next                       the 0.2.0-alpha.12 suite, per requirement set (default: 0.1.16, per suite)
  --suite <name>               0.1.16: active | pending | all (repeatable; default all three)
  --requirements <rev>         --next: a requirement set (repeatable; default ${REQUIREMENTS.join(", ")})
  --scenario <id>              run one scenario only
  --url <url>                  test this running server instead of starting the demo Worker
  --config <wrangler.toml>     wrangler config for the started Worker (default: ./wrangler.toml)
  --expected-failures <file>   0.1.16 baseline (default: conformance/expected-failures.yml)
  --json <file>                write the report
  --keep                       keep the raw results (checks.json files, CLI logs)
  --strict                     0.1.16: also fail on baseline entries whose scenario now passes
  --verbose                    stream the CLI's and the Worker's output`;

function fail(message) {
  console.error(message);
  process.exit(2);
}

function parseOptions() {
  try {
    const { values } = parseArgs({
      options: {
        next: { type: "boolean" },
        suite: { type: "string", multiple: true },
        requirements: { type: "string", multiple: true },
        scenario: { type: "string" },
        url: { type: "string" },
        config: { type: "string" },
        "expected-failures": { type: "string" },
        json: { type: "string" },
        keep: { type: "boolean" },
        strict: { type: "boolean" },
        verbose: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
    if (values.help) {
      console.log(USAGE);
      process.exit(0);
    }
    for (const s of values.suite ?? [])
      if (!SUITES.includes(s)) fail(`unknown suite ${JSON.stringify(s)}; use one of ${SUITES.join(", ")}`);
    if (values.url && !URL.canParse(values.url)) fail(`--url ${JSON.stringify(values.url)} is not a URL`);
    return values;
  } catch (err) {
    fail(`${err.message}\n\n${USAGE}`);
  }
}

/** The suite's CLI (the pinned package for the mode) and its version. */
function suiteCli(next) {
  const name = next ? "@modelcontextprotocol/conformance-next" : "@modelcontextprotocol/conformance";
  const pkgFile = createRequire(import.meta.url).resolve(`${name}/package.json`);
  const pkg = JSON.parse(readFileSync(pkgFile, "utf8"));
  const bin = typeof pkg.bin === "string" ? pkg.bin : Object.values(pkg.bin ?? {})[0];
  return { version: pkg.version, cli: join(dirname(pkgFile), bin ?? "dist/index.js"), pkgFile };
}

/** Runs the CLI without blocking this process; its output goes to `logPath` (and the terminal with --verbose). */
function runCli(cli, args, { logPath = "/dev/null", echo = false } = {}) {
  return new Promise((done) => {
    const log = createWriteStream(logPath);
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    let stdout = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), RUN_TIMEOUT_MS);
    const killChild = () => child.kill("SIGTERM");
    process.once("exit", killChild);
    for (const stream of [child.stdout, child.stderr]) {
      stream.on("data", (chunk) => {
        if (stream === child.stdout) stdout += chunk;
        log.write(chunk);
        if (echo) process.stdout.write(chunk);
      });
    }
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      process.off("exit", killChild);
      log.end();
      done({ code, signal, stdout });
    });
  });
}

/** Scenario → its checks and the failing ones, from one output folder (a scenario run twice merges). */
function readResults(dir) {
  const scenarios = new Map();
  if (!existsSync(dir)) return scenarios;
  for (const name of readdirSync(dir).sort()) {
    const m = RESULT_DIR.exec(name);
    const file = join(dir, name, "checks.json");
    if (!m || !existsSync(file)) continue;
    let checks;
    try {
      checks = JSON.parse(readFileSync(file, "utf8"));
    } catch (err) {
      checks = [{ id: m[1], status: "FAILURE", errorMessage: `unreadable checks.json: ${err.message}` }];
    }
    const prev = scenarios.get(m[1])?.checks ?? [];
    const all = [...prev, ...checks];
    scenarios.set(m[1], { checks: all, bad: all.filter((c) => c.status === "FAILURE" || c.status === "WARNING") });
  }
  return scenarios;
}

const oneLine = (c) =>
  `${c.status} ${c.id}: ${String(c.errorMessage ?? c.description ?? "")
    .replace(/\s+/g, " ")
    .slice(0, 240)}`;

/** Scenario ids in a `list` answer's section (`Server scenarios`, or the whole list). */
async function listed(cli, args, section) {
  const { stdout } = await runCli(cli, ["list", ...args]);
  const text = section ? (stdout.split(section)[1]?.split("\n\n")[0] ?? "") : stdout;
  return [...text.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
}

/** Reads the 0.1.16 baseline with the CLI's own YAML parser; reasons come from `# …` comments. */
function readBaseline(path, pkgFile) {
  if (!existsSync(path)) fail(`expected-failures file not found: ${path}`);
  const text = readFileSync(path, "utf8");
  const server = createRequire(pkgFile)("yaml").parse(text)?.server ?? [];
  if (!Array.isArray(server) || server.some((s) => typeof s !== "string")) fail(`${path}: 'server' must be a list of scenario ids`);
  const reasons = new Map([...text.matchAll(/^\s*-\s*["']?([\w.-]+)["']?\s*#\s*(.*?)\s*$/gm)].map((m) => [m[1], m[2]]));
  return new Map(server.map((s) => [s, reasons.get(s) ?? ""]));
}

/** 0.1.16: each suite (or the one scenario), verdicts merged per distinct scenario, checked against the baseline. */
async function runCurrent(opts, suite, ctx) {
  const baselinePath = resolve(opts["expected-failures"] ?? join(REPO_ROOT, "conformance", "expected-failures.yml"));
  const baseline = readBaseline(baselinePath, suite.pkgFile);
  const known = await listed(suite.cli, ["--server"]);
  if (opts.scenario && !known.includes(opts.scenario)) fail(`unknown scenario ${opts.scenario}; known:\n  ${known.join("\n  ")}`);
  const plan = opts.scenario
    ? [{ label: `scenario ${opts.scenario}`, args: ["--scenario", opts.scenario] }]
    : (opts.suite ?? SUITES).map((s) => ({ label: `suite ${s}`, suite: s, args: ["--suite", s] }));
  const runs = [];
  for (const run of plan) {
    const out = join(ctx.work, run.label.replace(/\W+/g, "-"));
    console.log(`running ${run.label}...`);
    const started = Date.now();
    const res = await runCli(suite.cli, ["server", "--url", ctx.url, "-o", out, "--expected-failures", baselinePath, ...run.args], {
      logPath: `${out}.log`,
      echo: opts.verbose,
    });
    const planned = opts.scenario ? [opts.scenario] : [...res.stdout.matchAll(/^=== Running scenario: (\S+) ===$/gm)].map((m) => m[1]);
    const results = readResults(out);
    // The CLI counts a scenario that throws as failed but writes no checks.json for it.
    for (const name of planned)
      if (!results.has(name))
        results.set(name, {
          checks: [],
          bad: [{ id: name, status: "FAILURE", errorMessage: "no checks.json: the scenario crashed (see the CLI log)" }],
        });
    const problems = [];
    if (res.signal) problems.push(`killed by ${res.signal}`);
    else if (res.code !== 0 && res.code !== 1) problems.push(`exit code ${res.code}`);
    const announced = /^Running \S+ suite \((\d+) scenarios\)/m.exec(res.stdout);
    if (announced && Number(announced[1]) !== planned.length)
      problems.push(`announced ${announced[1]} scenarios, started ${planned.length}`);
    if (results.size === 0) problems.push("no scenario ran");
    runs.push({ ...run, exitCode: res.code, durationMs: Date.now() - started, problems, results });
  }
  const merged = new Map();
  for (const run of runs) for (const [name, r] of run.results) merged.set(name, [...(merged.get(name) ?? []), ...r.bad]);
  const order = (name) => (known.includes(name) ? known.indexOf(name) : known.length);
  const rows = [...merged]
    .sort(([a], [b]) => order(a) - order(b))
    .map(([scenario, bad]) => ({ scenario, passed: bad.length === 0, expected: baseline.has(scenario), bad }));
  for (const r of rows) {
    console.log(
      `  ${r.passed ? (r.expected ? "pass (stale baseline entry)" : "pass") : r.expected ? `fail (expected: ${baseline.get(r.scenario)})` : "FAIL"}  ${r.scenario}`,
    );
    for (const c of r.bad) console.log(`          ${oneLine(c)}`);
  }
  for (const run of runs) if (run.problems.length) console.log(`  ${run.label}: CLI FAILED: ${run.problems.join("; ")}`);
  const unexpected = rows.filter((r) => !r.passed && !r.expected).map((r) => r.scenario);
  const stale = rows.filter((r) => r.passed && r.expected).map((r) => r.scenario);
  const passed = rows.filter((r) => r.passed).length;
  const exitCode = unexpected.length || runs.some((r) => r.problems.length) || (opts.strict && stale.length) ? 1 : 0;
  console.log(`conformance: ${passed} passed, ${rows.length - passed} failed`);
  return {
    exitCode,
    report: {
      conformanceVersion: suite.version,
      url: ctx.url,
      startedWorker: !opts.url,
      baseline: Object.fromEntries(baseline),
      passed,
      failed: rows.length - passed,
      unexpectedFailures: unexpected,
      staleBaselineEntries: stale,
      exitCode,
      runs: runs.map((r) => ({
        label: r.label,
        suite: r.suite ?? null,
        scenario: opts.scenario ?? null,
        exitCode: r.exitCode,
        durationMs: r.durationMs,
        problems: r.problems,
        scenarios: [...r.results].map(([scenario, s]) => ({ scenario, passed: s.bad.length === 0, checks: s.checks })),
      })),
    },
  };
}

/** 0.2.0-alpha.12: once per requirement set; only the scenarios the set scores decide the exit code. */
async function runNext(opts, suite, ctx) {
  const baseline = join(ctx.work, "expected-failures.yml");
  writeFileSync(baseline, "server: []\n");
  const report = { conformanceVersion: suite.version, url: ctx.url, requirements: {} };
  let unexpected = 0;
  const extensionOnly = opts.scenario !== undefined && EXTENSION_SCENARIOS.includes(opts.scenario);
  for (const requirements of extensionOnly ? [] : (opts.requirements ?? REQUIREMENTS)) {
    const out = join(ctx.work, requirements);
    console.log(`conformance ${suite.version} --requirements ${requirements} against ${ctx.url}`);
    // The CLI takes a scenario or a requirement set, not both: one scenario runs alone and is scored by the set's list.
    const selection = opts.scenario ? ["--scenario", opts.scenario] : ["--requirements", requirements];
    const run = await runCli(suite.cli, ["server", "--url", ctx.url, ...selection, "--expected-failures", baseline, "-o", out], {
      logPath: `${out}.log`,
      echo: opts.verbose,
    });
    const required = new Set(await listed(suite.cli, ["--requirements", requirements], "Server scenarios"));
    const rows = [...readResults(out)].map(([scenario, s]) => ({
      scenario,
      required: required.has(scenario),
      passed: s.bad.length === 0,
      bad: s.bad,
    }));
    for (const r of rows) {
      console.log(`  ${r.passed ? "pass" : "FAIL"}  ${r.scenario}${r.required ? "" : "  (not scored)"}`);
      if (r.required || opts.verbose) for (const c of r.bad) console.log(`          ${oneLine(c)}`);
    }
    const scored = rows.filter((r) => r.required);
    const passed = scored.filter((r) => r.passed).length;
    const missing = opts.scenario ? [] : [...required].filter((name) => !rows.some((r) => r.scenario === name));
    const failed = scored.length - passed + missing.length;
    const extra = rows.filter((r) => !r.required);
    console.log(
      `  ${requirements}: required ${passed} passed, ${failed} failed${missing.length ? ` (no result: ${missing.join(", ")})` : ""}; not scored: ${extra.filter((r) => r.passed).length} passed, ${extra.filter((r) => !r.passed).length} pending`,
    );
    unexpected += failed + (rows.length === 0 || (run.code !== 0 && run.code !== 1) ? 1 : 0);
    report.requirements[requirements] = {
      exitCode: run.code,
      requiredPassed: passed,
      requiredFailed: failed,
      notScored: extra.map((r) => ({ scenario: r.scenario, passed: r.passed })),
      scenarios: rows.map((r) => ({ scenario: r.scenario, required: r.required, passed: r.passed })),
    };
  }
  if (opts.scenario === undefined || extensionOnly) {
    const extensions = await runExtensionScenarios(opts.scenario ? [opts.scenario] : EXTENSION_SCENARIOS, suite, ctx, opts.verbose);
    unexpected += extensions.failed;
    report.extensions = extensions.report;
  }
  return { exitCode: unexpected === 0 ? 0 : 1, report };
}

/** Each extension scenario alone on the 2026-07-28 wire; a WARNING or FAILURE in any check fails it. */
async function runExtensionScenarios(scenarios, suite, ctx, verbose) {
  const out = join(ctx.work, "extensions");
  console.log(`conformance ${suite.version} extension scenarios against ${ctx.url}`);
  let failed = 0;
  const report = [];
  for (const scenario of scenarios) {
    const run = await runCli(suite.cli, ["server", "--url", ctx.url, "--scenario", scenario, "-o", out], {
      logPath: join(ctx.work, `${scenario}.log`),
      echo: verbose,
    });
    const result = readResults(out).get(scenario);
    const passed = result !== undefined && result.bad.length === 0 && (run.code === 0 || run.code === 1);
    console.log(`  ${passed ? "pass" : "FAIL"}  ${scenario}${result ? ` (${result.checks.length} checks)` : "  (no result)"}`);
    for (const c of result?.bad ?? []) console.log(`          ${oneLine(c)}`);
    if (!passed) failed++;
    report.push({ scenario, passed, checks: result?.checks.length ?? 0 });
  }
  return { failed, report };
}

async function main() {
  const opts = parseOptions();
  const suite = suiteCli(opts.next);
  const work = mkdtempSync(join(tmpdir(), "mcp-edge-conformance-"));
  let server;
  let url = opts.url;
  if (!url) {
    // MRTR signs with the state secret: a random one for this run only.
    const vars = opts.next ? { MCP_STATE_SECRET: randomBytes(32).toString("hex") } : undefined;
    server = await startWorker({ configPath: opts.config && resolve(opts.config), vars, echo: opts.verbose }).catch((err) =>
      fail(`could not start the Worker: ${err.message}`),
    );
    url = server.mcpUrl;
  } else if (!LOCAL_HOSTS.has(new URL(url).hostname)) {
    console.log(
      `note: ${new URL(url).hostname} is not localhost, so dns-rebinding-protection fails by design (baseline it for remote runs).`,
    );
  }
  console.log(`conformance ${suite.version} against ${url}`);
  let outcome;
  try {
    outcome = await (opts.next ? runNext : runCurrent)(opts, suite, { url, work });
  } finally {
    if (server) await server.stop();
  }
  if (opts.json) writeFileSync(opts.json, `${JSON.stringify(outcome.report, null, 2)}\n`);
  if (opts.keep || outcome.exitCode) console.log(`raw results kept in ${work}`);
  else rmSync(work, { recursive: true, force: true });
  process.exit(outcome.exitCode);
}

await main();
