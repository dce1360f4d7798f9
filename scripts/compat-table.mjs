// Renders docs/compatibility.md's client compatibility table from the records the test run wrote:
// results/compat/*.json (one per client test file, written by test/e2e/clients/helpers/record.ts)
// and results/conformance.json (`conformance/run.mjs --json`). Replaces what stands between
// <!-- compat:start --> and <!-- compat:end --> in docs/compatibility.md and prints the table.
// The output holds no times or dates: rerunning a passing suite leaves docs/compatibility.md unchanged.
//
// CLI: `node scripts/compat-table.mjs` (= `npm run compat`)
//        --check     write nothing; exit 1 if docs/compatibility.md's table differs from the records
//        --print     write nothing; print the table
//        --partial   update docs/compatibility.md even when some expected records are missing
// Exit 1 when a record is missing (unless --partial) or reports a failure: the page then keeps
// its previous table.

import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const COMPAT_DIR = join(REPO_ROOT, "results", "compat");
const CONFORMANCE_JSON = join(REPO_ROOT, "results", "conformance.json");
const CONFORMANCE_NEXT_JSON = join(REPO_ROOT, "results", "conformance-next.json");
const PAGE = join(REPO_ROOT, "docs", "compatibility.md");
const START = "<!-- compat:start -->";
const END = "<!-- compat:end -->";

/** Every row a full `npm test` produces; a missing one means the run was partial. */
const EXPECTED = [
  "sdk-streamable-http",
  "sdk-sessions",
  "sdk-legacy-sse",
  "sdk-https",
  "inspector-cli",
  "mcp-remote",
  "browser-chromium",
  "conformance",
  "conformance-next",
];

function readJson(path) {
  return JSON.parse(readFileSync(path, "utf8"));
}

function clientRecords() {
  if (!existsSync(COMPAT_DIR)) return [];
  return readdirSync(COMPAT_DIR)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => readJson(join(COMPAT_DIR, name)));
}

/** The conformance run as a row: its CLI's SDK version comes from node_modules, its verdict from the report. */
function conformanceRecord() {
  if (!existsSync(CONFORMANCE_JSON)) return undefined;
  const report = readJson(CONFORMANCE_JSON);
  const sdkDir = join(REPO_ROOT, "node_modules", "@modelcontextprotocol", "sdk");
  let sdk;
  let latest;
  try {
    sdk = readJson(join(sdkDir, "package.json")).version;
    latest = /LATEST_PROTOCOL_VERSION\s*=\s*["'](\d{4}-\d{2}-\d{2})["']/.exec(
      readFileSync(join(sdkDir, "dist", "esm", "types.js"), "utf8"),
    )?.[1];
  } catch {}
  const suites = report.runs.map((r) => r.suite ?? r.scenario).filter(Boolean);
  const total = report.passed + report.failed;
  return {
    id: "conformance",
    order: 80,
    client: "Official conformance suite (server scenarios)",
    version: `@modelcontextprotocol/conformance ${report.conformanceVersion}${sdk ? `, its client @modelcontextprotocol/sdk ${sdk}` : ""}`,
    transport: "Streamable HTTP (`/mcp`)",
    protocol: latest,
    exercised: [`${total} scenarios (suites ${suites.join(", ")})`, `expected failures: ${Object.keys(report.baseline ?? {}).length}`],
    tests: [],
    summary: `${report.passed}/${total} scenarios`,
    passed: report.exitCode === 0 && report.failed === 0 && total > 0,
  };
}

/** The 0.2 pre-release run (npm run conformance:next -- --json): required scenarios per requirement set. */
function conformanceNextRecord() {
  if (!existsSync(CONFORMANCE_NEXT_JSON)) return undefined;
  const report = readJson(CONFORMANCE_NEXT_JSON);
  const sets = Object.entries(report.requirements ?? {});
  const parts = sets.map(([rev, r]) => `${rev}: ${r.requiredPassed}/${r.requiredPassed + r.requiredFailed} required`);
  const pending = sets.flatMap(([rev, r]) => (r.notScored ?? []).filter((n) => !n.passed).map((n) => `${n.scenario} (${rev})`));
  // Extension scenarios no requirement set lists (Skills), scored by the runner on the 2026-07-28 wire.
  const extensions = report.extensions ?? [];
  if (extensions.length > 0) parts.push(`extensions: ${extensions.filter((e) => e.passed).length}/${extensions.length}`);
  return {
    id: "conformance-next",
    order: 81,
    client: "Official conformance suite, pre-release (server scenarios)",
    version: `@modelcontextprotocol/conformance ${report.conformanceVersion}`,
    transport: "Streamable HTTP (`/mcp`)",
    protocol: sets.map(([rev]) => rev).join(", "),
    exercised: [
      `--requirements ${sets.map(([rev]) => rev).join(" and ")}`,
      "expected failures: 0",
      `not scored and not passing: ${pending.length ? pending.join(", ") : "none"}`,
      ...(extensions.length > 0 ? [`extension scenarios: ${extensions.map((e) => e.scenario).join(", ")}`] : []),
    ],
    tests: [],
    summary: parts.join("; "),
    passed: sets.length > 0 && sets.every(([, r]) => r.requiredFailed === 0 && r.requiredPassed > 0) && extensions.every((e) => e.passed),
  };
}

const cell = (text) => String(text).replace(/\|/g, "\\|").replace(/\n/g, " ");

/** "pass", or what failed. Test counts stay out of passing rows so that adding a test leaves the page alone. */
function verdict(record) {
  if (record.summary) return record.passed ? `pass (${record.summary})` : `**FAIL** (${record.summary})`;
  const failed = record.tests.filter((t) => t.state !== "pass");
  if (record.passed) return "pass";
  if (record.tests.length === 0) return "**FAIL** (no test ran)";
  return `**FAIL** (${failed.length} of ${record.tests.length} tests)`;
}

/** The protocol era(s) a record's negotiated revisions belong to: 2026 (stateless, 2026-07-28+) and/or 2025 (initialize). */
function eraOf(protocol) {
  if (!protocol) return "?";
  const eras = [];
  if (/\b2026-\d\d-\d\d\b/.test(protocol)) eras.push("2026");
  if (/\b202[45]-\d\d-\d\d\b/.test(protocol)) eras.push("2025");
  return eras.join(" + ") || "?";
}

function renderTable(records) {
  const lines = ["| Client | Version | Transport | Era | Protocol negotiated | Exercised | Result |", "|---|---|---|---|---|---|---|"];
  for (const r of [...records].sort((a, b) => a.order - b.order || a.id.localeCompare(b.id))) {
    lines.push(
      `| ${[r.client, r.version, r.transport, eraOf(r.protocol), r.protocol ?? "?", r.exercised.join("; "), verdict(r)].map(cell).join(" | ")} |`,
    );
  }
  return lines.join("\n");
}

function block(table) {
  return `${START}\n<!-- Generated by scripts/compat-table.mjs from the last \`npm test\` run; do not edit by hand. -->\n\n${table}\n\n${END}`;
}

function main() {
  const { values } = parseArgs({ options: { check: { type: "boolean" }, print: { type: "boolean" }, partial: { type: "boolean" } } });
  const records = clientRecords();
  const conformance = conformanceRecord();
  if (conformance) records.push(conformance);
  const conformanceNext = conformanceNextRecord();
  if (conformanceNext) records.push(conformanceNext);
  if (records.length === 0) {
    console.error(`no compatibility records in ${COMPAT_DIR} or ${CONFORMANCE_JSON}: run \`npm test\` first`);
    process.exit(1);
  }
  const table = renderTable(records);
  console.log(table);
  if (values.print) return;

  const missing = EXPECTED.filter((id) => !records.some((r) => r.id === id));
  const failed = records.filter((r) => !r.passed).map((r) => r.id);
  const readme = readFileSync(PAGE, "utf8");
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start === -1 || end < start) {
    console.error(`docs/compatibility.md has no ${START} … ${END} block`);
    process.exit(1);
  }
  const next = readme.slice(0, start) + block(table) + readme.slice(end + END.length);

  if (values.check) {
    if (next !== readme) {
      console.error("\ndocs/compatibility.md's table differs from these records: run `npm run compat`");
      process.exit(1);
    }
    console.log("\ndocs/compatibility.md's table is up to date");
    return;
  }
  if (failed.length > 0 || (missing.length > 0 && !values.partial)) {
    if (failed.length > 0) console.error(`\nfailed: ${failed.join(", ")}`);
    if (missing.length > 0) console.error(`\nno record for: ${missing.join(", ")} (a partial run; --partial writes anyway)`);
    console.error("docs/compatibility.md not updated");
    process.exit(1);
  }
  if (next === readme) {
    console.log("\ndocs/compatibility.md's table is up to date");
  } else {
    writeFileSync(PAGE, next);
    console.log("\ndocs/compatibility.md's table updated (commit it)");
  }
}

main();
