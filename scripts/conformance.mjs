// Runs the official MCP conformance suite (server mode, the pinned devDependency on this Node)
// against the Worker under `wrangler dev` (in-process), or against any running server with --url,
// and prints one verdict per scenario.
//
// A scenario passes iff its checks.json has no FAILURE and no WARNING (the SSE resumability
// checks only ever warn). The closing line `conformance: N passed, M failed` counts DISTINCT
// scenarios over every suite run in this invocation (by default active + pending + all, i.e.
// the 32 scenarios of `all`); a scenario that ran more than once fails if any of its runs failed.
// Exit 1 iff a failed scenario is not in the expected-failures file, or a CLI run itself failed
// (crashed, timed out, or left a scenario without results); exit 2 for bad usage or setup.

import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startWorker } from "./worker-server.mjs";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const requireHere = createRequire(import.meta.url);
const CONFORMANCE_PACKAGE = requireHere.resolve("@modelcontextprotocol/conformance/package.json");
const CONFORMANCE_VERSION = JSON.parse(readFileSync(CONFORMANCE_PACKAGE, "utf8")).version;
/** The CLI and the Node that runs it (this one: the project requires Node >= 22.12, as the CLI does). */
const TOOLS = { node: process.execPath, conformance: join(dirname(CONFORMANCE_PACKAGE), "dist", "index.js") };

const SUITES = ["active", "pending", "all"];
const DEFAULT_BASELINE = join(REPO_ROOT, "conformance", "expected-failures.yml");
const RUN_TIMEOUT_MS = 15 * 60 * 1000;
const STATUSES = ["SUCCESS", "FAILURE", "WARNING", "INFO", "SKIPPED"];
// <dir>/server-<scenario>-<ISO time with ':' and '.' replaced by '-'>/checks.json
const RESULT_DIR = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

const USAGE = `usage: node scripts/conformance.mjs [options]

Starts the Worker (wrangler dev, 127.0.0.1, fresh storage), runs @modelcontextprotocol/conformance@${CONFORMANCE_VERSION}
in server mode against /mcp, stops the Worker and prints one line per scenario.

  --suite <name>               active | pending | all (repeatable; default: active, pending, all)
  --scenario <id>              run one scenario only (overrides --suite)
  --url <url>                  test this already running server instead of starting the Worker
  --config <wrangler.toml>     wrangler config for the started Worker (default: ./wrangler.toml)
  --expected-failures <file>   baseline (default: conformance/expected-failures.yml)
  --spec-version <version>     only scenarios tagged with this spec revision
  --json <file>                write the results as JSON
  --keep                       keep the raw results folder (checks.json files, CLI logs)
  --strict                     also fail on baseline entries whose scenario now passes
  --verbose                    stream the CLI's and wrangler's output
  -h, --help`;

function fail(message, code = 2) {
  console.error(message);
  process.exit(code);
}

function parseOptions(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        suite: { type: "string", multiple: true },
        scenario: { type: "string" },
        url: { type: "string" },
        config: { type: "string" },
        "expected-failures": { type: "string" },
        "spec-version": { type: "string" },
        json: { type: "string" },
        keep: { type: "boolean" },
        strict: { type: "boolean" },
        verbose: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    fail(`${err.message}\n\n${USAGE}`);
  }
  const v = parsed.values;
  if (v.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const suites = (v.suite ?? SUITES).map((s) => (s.toLowerCase() === "core" ? "active" : s.toLowerCase()));
  for (const s of suites) if (!SUITES.includes(s)) fail(`unknown suite ${JSON.stringify(s)}; use one of ${SUITES.join(", ")}`);
  if (v.url) {
    try {
      new URL(v.url);
    } catch {
      fail(`--url ${JSON.stringify(v.url)} is not a URL`);
    }
  }
  return {
    suites: [...new Set(suites)],
    scenario: v.scenario,
    url: v.url,
    configPath: v.config ? resolve(v.config) : undefined,
    baselinePath: resolve(v["expected-failures"] ?? DEFAULT_BASELINE),
    specVersion: v["spec-version"],
    jsonPath: v.json ? resolve(v.json) : undefined,
    keep: v.keep ?? false,
    strict: v.strict ?? false,
    verbose: v.verbose ?? false,
  };
}

/** Reads the baseline with the same YAML parser the CLI uses; reasons come from `# ...` comments. */
function readBaseline(path) {
  if (!existsSync(path)) fail(`expected-failures file not found: ${path}`);
  const text = readFileSync(path, "utf8");
  const { parse } = createRequire(CONFORMANCE_PACKAGE)("yaml");
  let doc;
  try {
    doc = parse(text);
  } catch (err) {
    fail(`${path}: ${err.message}`);
  }
  const server = doc?.server ?? [];
  if (!Array.isArray(server) || server.some((s) => typeof s !== "string")) {
    fail(`${path}: 'server' must be a list of scenario ids`);
  }
  const reasons = new Map();
  for (const line of text.split("\n")) {
    const m = line.match(/^\s*-\s*["']?([\w.-]+)["']?\s*#\s*(.*?)\s*$/);
    if (m) reasons.set(m[1], m[2]);
  }
  return new Map(server.map((s) => [s, reasons.get(s) ?? ""]));
}

function runProcess(command, args, { logPath, echo, timeoutMs }) {
  return new Promise((resolveRun) => {
    const log = createWriteStream(logPath);
    const child = spawn(command, args, {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    let stdout = "";
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    // Ctrl-C reaches the CLI through the terminal; this covers a SIGTERM sent to us alone.
    const killChild = () => child.kill("SIGTERM");
    process.once("exit", killChild);
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      log.write(chunk);
      if (echo) process.stdout.write(chunk);
    });
    child.stderr.on("data", (chunk) => {
      log.write(chunk);
      if (echo) process.stderr.write(chunk);
    });
    child.on("error", (err) => log.write(`spawn error: ${err.message}\n`));
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      process.off("exit", killChild);
      log.end();
      resolveRun({ code, signal, timedOut, stdout });
    });
  });
}

/** One scenario's verdict from its checks (INFO entries are traces, not verdicts). */
function summarise(checks) {
  const counts = Object.fromEntries(STATUSES.map((s) => [s, 0]));
  for (const c of checks) counts[c.status] = (counts[c.status] ?? 0) + 1;
  const badChecks = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING");
  return { counts, passed: badChecks.length === 0, badChecks };
}

function readResults(dir) {
  const found = new Map();
  if (!existsSync(dir)) return found;
  for (const name of readdirSync(dir).sort()) {
    const m = name.match(RESULT_DIR);
    const file = join(dir, name, "checks.json");
    if (!m || !existsSync(file)) continue;
    let checks;
    try {
      checks = JSON.parse(readFileSync(file, "utf8"));
    } catch (err) {
      checks = [{ id: m[1], status: "FAILURE", errorMessage: `unreadable checks.json: ${err.message}` }];
    }
    found.set(m[1], { checks: Array.isArray(checks) ? checks : [], file });
  }
  return found;
}

async function runSuite(run, ctx) {
  const slug = run.label.replace(/[^\w.-]+/g, "-");
  const outDir = join(ctx.workDir, slug);
  mkdirSync(outDir, { recursive: true });
  const args = [ctx.tools.conformance, "server", "--url", ctx.url, "-o", outDir, "--expected-failures", ctx.baselinePath];
  if (run.scenario) args.push("--scenario", run.scenario);
  else args.push("--suite", run.suite);
  if (ctx.specVersion) args.push("--spec-version", ctx.specVersion);
  const started = Date.now();
  const logPath = join(ctx.workDir, `${slug}.log`);
  const res = await runProcess(ctx.tools.node, args, { logPath, echo: ctx.verbose, timeoutMs: RUN_TIMEOUT_MS });
  const ms = Date.now() - started;

  // The scenarios the CLI meant to run, from its own progress lines.
  const planned = run.scenario ? [run.scenario] : [...res.stdout.matchAll(/^=== Running scenario: (\S+) ===$/gm)].map((m) => m[1]);
  const announced = res.stdout.match(/^Running \S+ suite \((\d+) scenarios\)/m);
  const results = readResults(outDir);
  const scenarios = [];
  for (const name of new Set([...planned, ...results.keys()])) {
    const r = results.get(name);
    if (r) {
      scenarios.push({ scenario: name, ...summarise(r.checks), checks: r.checks });
    } else {
      // The CLI catches a scenario that throws and counts it failed, but writes no checks.json.
      const checks = [{ id: name, status: "FAILURE", errorMessage: "no checks.json: the scenario crashed (see the CLI log)" }];
      scenarios.push({ scenario: name, ...summarise(checks), checks });
    }
  }

  const problems = [];
  if (res.timedOut) problems.push(`timed out after ${RUN_TIMEOUT_MS / 1000} s`);
  else if (res.signal) problems.push(`killed by ${res.signal}`);
  else if (res.code !== 0 && res.code !== 1) problems.push(`exit code ${res.code}`);
  if (announced && Number(announced[1]) !== planned.length) problems.push(`announced ${announced[1]} scenarios, started ${planned.length}`);
  if (!run.scenario && !announced) problems.push("no 'Running ... suite' line in its output");
  if (scenarios.length === 0) problems.push("no scenario ran");
  // With --expected-failures the CLI exits 1 only for an unexpected failure or a stale entry.
  const explained = scenarios.some((s) => !s.passed !== ctx.baseline.has(s.scenario));
  if (res.code === 1 && !explained) problems.push("exit code 1 without a failing or stale scenario");
  if (res.code === 0 && scenarios.some((s) => !s.passed && !ctx.baseline.has(s.scenario)))
    problems.push("exit code 0 despite an unexpected failure");

  return {
    label: run.label,
    suite: run.suite,
    scenario: run.scenario,
    exitCode: res.code,
    signal: res.signal,
    ms,
    logPath,
    problems,
    scenarios,
  };
}

function displayPath(path) {
  const rel = relative(process.cwd(), path);
  return rel.startsWith("..") ? path : rel;
}

function pad(text, width) {
  return String(text).padEnd(width);
}

function printReport(runs, ctx) {
  // Distinct scenarios; the verdict is the worst over the runs.
  const merged = new Map();
  for (const run of runs) {
    for (const s of run.scenarios) {
      const m = merged.get(s.scenario) ?? { scenario: s.scenario, runs: [] };
      m.runs.push({ label: run.label, ...s });
      merged.set(s.scenario, m);
    }
  }
  // The CLI's own order (`list --server`, i.e. the `all` suite's order).
  const order = (name) => {
    const i = ctx.knownScenarios.indexOf(name);
    return i === -1 ? Number.MAX_SAFE_INTEGER : i;
  };
  const rows = [...merged.values()]
    .sort((a, b) => order(a.scenario) - order(b.scenario))
    .map((m) => {
      const last = m.runs[m.runs.length - 1];
      const failedIn = m.runs.filter((r) => !r.passed).map((r) => r.label);
      const passed = failedIn.length === 0;
      const expected = ctx.baseline.has(m.scenario);
      let result = passed ? "pass" : "FAIL";
      if (!passed && expected) result = "fail (expected)";
      if (passed && expected) result = "pass (stale baseline entry)";
      if (failedIn.length > 0 && failedIn.length < m.runs.length) result += ` (failed in ${failedIn.join(", ")} only)`;
      return { ...m, counts: last.counts, passed, expected, result, badChecks: m.runs.flatMap((r) => r.badChecks) };
    });

  const width = Math.max(8, ...rows.map((r) => r.scenario.length)) + 2;
  const lines = [];
  lines.push(`${pad("scenario", width)}${pad("S", 4)}${pad("F", 4)}${pad("W", 4)}${pad("I", 4)}result`);
  lines.push("-".repeat(width + 16 + 24));
  for (const r of rows) {
    const c = r.counts;
    lines.push(`${pad(r.scenario, width)}${pad(c.SUCCESS, 4)}${pad(c.FAILURE, 4)}${pad(c.WARNING, 4)}${pad(c.INFO, 4)}${r.result}`);
  }
  console.log(`\n${lines.join("\n")}`);

  const failed = rows.filter((r) => !r.passed);
  if (failed.length > 0) {
    console.log("\nFailures and warnings:");
    for (const r of failed) {
      const reason = ctx.baseline.get(r.scenario);
      console.log(`  ${r.scenario}${r.expected ? ` (expected${reason ? `: ${reason}` : ""})` : ""}`);
      const seen = new Set();
      for (const p of r.badChecks) {
        const key = `${p.id}|${p.status}|${p.errorMessage ?? ""}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const msg = (p.errorMessage ?? p.description ?? "").replace(/\s+/g, " ").slice(0, 300);
        console.log(`    ${p.status.padEnd(7)} ${p.id}${msg ? `: ${msg}` : ""}`);
      }
    }
  }
  const stale = rows.filter((r) => r.passed && r.expected);
  if (stale.length > 0) {
    console.log(`\nStale baseline entries (these pass now; remove them from ${displayPath(ctx.baselinePath)}):`);
    for (const r of stale) console.log(`  ${r.scenario}`);
  }
  const unknown = [...ctx.baseline.keys()].filter((s) => !ctx.knownScenarios.includes(s));
  if (unknown.length > 0) console.log(`\nBaseline entries that are no scenario of ${CONFORMANCE_VERSION}: ${unknown.join(", ")}`);

  console.log("\nRuns:");
  for (const run of runs) {
    const bad = run.scenarios.filter((s) => !s.passed).length;
    const status = run.problems.length ? `CLI FAILED: ${run.problems.join("; ")} (log: ${run.logPath})` : `CLI exit ${run.exitCode}`;
    console.log(
      `  ${pad(run.label, 22)}${String(run.scenarios.length).padStart(3)} scenarios, ${run.scenarios.length - bad} passed, ${bad} failed, ${(run.ms / 1000).toFixed(1)} s, ${status}`,
    );
  }
  return { rows, stale, unexpected: failed.filter((r) => !r.expected) };
}

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  const t0 = Date.now();
  const tools = TOOLS;
  const baseline = readBaseline(opts.baselinePath);

  const list = await runProcess(tools.node, [tools.conformance, "list", "--server"], {
    logPath: "/dev/null",
    echo: false,
    timeoutMs: 60_000,
  });
  const knownScenarios = [...list.stdout.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
  if (list.code !== 0 || knownScenarios.length === 0) fail(`conformance list --server failed (exit ${list.code})`);
  if (opts.scenario && !knownScenarios.includes(opts.scenario)) {
    fail(`unknown scenario ${JSON.stringify(opts.scenario)}; known:\n  ${knownScenarios.join("\n  ")}`);
  }

  const workDir = mkdtempSync(join(tmpdir(), "mcp-edge-conformance-"));
  let server;
  let url = opts.url;
  if (!url) {
    console.log("starting the Worker (wrangler dev)...");
    try {
      server = await startWorker({ configPath: opts.configPath, echo: opts.verbose });
    } catch (err) {
      rmSync(workDir, { recursive: true, force: true });
      fail(`could not start the Worker: ${err.message}`);
    }
    url = server.mcpUrl;
  } else if (!LOCAL_HOSTS.has(new URL(url).hostname)) {
    console.log(
      `note: ${new URL(url).hostname} is not localhost, so dns-rebinding-protection fails by design (baseline it for remote runs).`,
    );
  }
  console.log(`conformance ${CONFORMANCE_VERSION} against ${url}`);

  const plan = opts.scenario
    ? [{ label: `scenario ${opts.scenario}`, scenario: opts.scenario }]
    : opts.suites.map((suite) => ({ label: `suite ${suite}`, suite }));
  const ctx = {
    tools,
    url,
    baseline,
    baselinePath: opts.baselinePath,
    specVersion: opts.specVersion,
    workDir,
    verbose: opts.verbose,
    knownScenarios,
  };
  const runs = [];
  try {
    for (const run of plan) {
      console.log(`running ${run.label}...`);
      runs.push(await runSuite(run, ctx));
    }
  } finally {
    if (server) {
      await server.stop();
      if (opts.verbose || runs.some((r) => r.problems.length)) console.log(`--- Worker output (last lines) ---\n${server.logs()}\n---`);
    }
  }

  const { rows, stale, unexpected } = printReport(runs, ctx);
  const cliFailed = runs.some((r) => r.problems.length > 0);
  const passed = rows.filter((r) => r.passed).length;
  const exitCode = unexpected.length > 0 || cliFailed || (opts.strict && stale.length > 0) ? 1 : 0;

  if (opts.jsonPath) {
    const report = {
      conformanceVersion: CONFORMANCE_VERSION,
      url,
      startedWorker: !opts.url,
      baseline: Object.fromEntries(baseline),
      durationMs: Date.now() - t0,
      passed,
      failed: rows.length - passed,
      unexpectedFailures: unexpected.map((r) => r.scenario),
      staleBaselineEntries: stale.map((r) => r.scenario),
      exitCode,
      runs: runs.map((r) => ({
        label: r.label,
        suite: r.suite ?? null,
        scenario: r.scenario ?? null,
        exitCode: r.exitCode,
        durationMs: r.ms,
        problems: r.problems,
        scenarios: r.scenarios.map((s) => ({ scenario: s.scenario, passed: s.passed, counts: s.counts, checks: s.checks })),
      })),
    };
    writeFileSync(opts.jsonPath, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nresults written to ${opts.jsonPath}`);
  }
  if (opts.keep || cliFailed) console.log(`raw results kept in ${workDir}`);
  else rmSync(workDir, { recursive: true, force: true });

  console.log(
    `\nduration ${((Date.now() - t0) / 1000).toFixed(1)} s${unexpected.length ? `; unexpected failures: ${unexpected.map((r) => r.scenario).join(", ")}` : ""}${cliFailed ? "; a conformance CLI run failed" : ""}`,
  );
  console.log(`conformance: ${passed} passed, ${rows.length - passed} failed`);
  process.exit(exitCode);
}

await main();
