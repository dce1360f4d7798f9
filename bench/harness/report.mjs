// The benchmark's report: the budgets of docs/DESIGN.md "Budgets", the verdict on each,
// and the Markdown tables `npm run bench` prints (docs/benchmarks.md shows them).
// Pure but for versionOf (reads an installed package.json): takes the measured results, returns text and verdicts.

import { readFileSync } from "node:fs";

/** docs/DESIGN.md "Budgets", with the figures. */
export const BUDGETS = {
  stateless: { ratio: 0.8 },
  modern: { ratio: 0.9 },
  // Throughput follows from the CPU budget below: a round of at most 2.6 floor calls runs at least 1 / 2.6 (0.385) as often.
  mrtr: { ratio: 0.385 },
  simple: { ratio: 0.5 },
  interactive: { ratio: 0.4 },
  sessions: { perSecond: 150, agentsRatio: 3 },
  notifications: { ratio: 0.8 },
  listen: { ratio: 0.8 },
  /** 2026-07-28 tools/call throughput against `agents`' createMcpHandler serving the same tool. */
  agentsThroughput: 1.5,
  /** 2026-07-28 tools/call: mcp-edge's CPU above the floor's at most this share of `agents`' CPU above it (DESIGN.md). */
  agentsOwnCpu: 0.35,
  /** One middleware and tracing on (no-op exporter): CPU per 2026-07-28 call at most this many times the bare server's. */
  operateCpu: 1.1,
  /** CPU per call (user + system of the serving workerd) at most this many times the floor's: 2025 stateless, 2026-07-28. */
  cpuPerCall: { stateless: 1.2, modern: 1.15 },
  /** CPU per MRTR round (two requests, a state signed and verified) at most this many floor calls. */
  mrtrCpuFloorCalls: 2.6,
  replay: { maxRatio: 1.5 },
  /** The one-tool Worker with sessions only (bench/bundle/sessions.ts), built as a user's project builds (wrangler's defaults). */
  runtimeBundleGzip: 52 * 1024,
  /** The same small server built with mcp-edge, against `agents`' createMcpHandler. */
  comparedToAgents: 0.6,
};

/** The median of the finite values (NaN when there are none). */
export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A number for the tables: thousands separators, `digits` decimals, "—" when not finite. */
export const fmt = (n, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }) : "—";
const kb = (bytes) => `${fmt(bytes / 1024, 1)} KB`;

/** One verdict per budget that this run measured: { budget, measured, holds }. */
export function verdicts(results, bundles, { agentsUnavailable } = {}) {
  const byKey = Object.fromEntries(results.map((r) => [r.key, r]));
  const list = [];
  const ratioBudget = (key, label) => {
    const r = byKey[key];
    if (r)
      list.push({
        budget: `${label} ≥ ${BUDGETS[key].ratio} × floor`,
        measured: `${fmt(r.ratio, 2)} ×`,
        holds: r.ratio >= BUDGETS[key].ratio,
      });
  };
  ratioBudget("stateless", "stateless tools/call");
  ratioBudget("modern", "2026-07-28 tools/call");
  const agents = byKey.modern?.references.find((ref) => ref.key === "agents");
  if (agents) {
    list.push({
      budget: `2026-07-28 tools/call ≥ ${BUDGETS.agentsThroughput} × agents createMcpHandler`,
      measured: `${fmt(agents.oursRatio, 2)} ×`,
      holds: agents.oursRatio >= BUDGETS.agentsThroughput,
    });
    // DESIGN.md's budget against agents is CPU, each server's own share above the floor; unlike
    // throughput, it does not shrink when a proxy in front of both (wrangler dev) dominates.
    const floorMs = byKey.modern.floor.cpuMsPerOperation;
    const [ownMs, agentsOwnMs] = [byKey.modern.ours.cpuMsPerOperation - floorMs, agents.cpuMsPerOperation - floorMs];
    const share = agentsOwnMs > 0 ? ownMs / agentsOwnMs : NaN;
    list.push({
      budget: `2026-07-28 tools/call: CPU above the floor ≤ ${BUDGETS.agentsOwnCpu} × agents createMcpHandler's`,
      measured: `${fmt(share, 2)} × (${fmt(ownMs, 3)} vs ${fmt(agentsOwnMs, 3)} ms)`,
      holds: Number.isFinite(share) ? share <= BUDGETS.agentsOwnCpu : undefined,
    });
  } else if (byKey.modern && agentsUnavailable) {
    list.push({
      budget: `2026-07-28 tools/call ≥ ${BUDGETS.agentsThroughput} × agents createMcpHandler`,
      measured: `not run: ${agentsUnavailable}`,
      holds: undefined,
    });
  }
  for (const [key, label, limit] of [
    ["modern", "CPU per call, 2026-07-28 tools/call", `${BUDGETS.cpuPerCall.modern} × floor`],
    ["stateless", "CPU per call, 2025 stateless tools/call", `${BUDGETS.cpuPerCall.stateless} × floor`],
    ["mrtr", "CPU per 2026-07-28 MRTR round", `${BUDGETS.mrtrCpuFloorCalls} floor calls`],
  ]) {
    const r = byKey[key];
    if (!r) continue;
    const ratio = r.ours.cpuMsPerOperation / r.floor.cpuMsPerOperation;
    const most = key === "mrtr" ? BUDGETS.mrtrCpuFloorCalls : BUDGETS.cpuPerCall[key];
    list.push({
      budget: `${label} ≤ ${limit}`,
      measured: `${fmt(ratio, 2)} × (${fmt(r.ours.cpuMsPerOperation, 3)} vs ${fmt(r.floor.cpuMsPerOperation, 3)} ms)`,
      holds: Number.isFinite(ratio) ? ratio <= most : undefined,
    });
  }
  if (byKey.operate) {
    // The bare server is measured twice (the floor side and a reference): the baseline is their
    // mean, and how far apart they land is the run's noise, printed beside the ratio.
    const r = byKey.operate;
    const again = r.references.find((ref) => ref.key === "bare-again");
    const bare = again ? (r.floor.cpuMsPerOperation + again.cpuMsPerOperation) / 2 : r.floor.cpuMsPerOperation;
    const ratio = r.ours.cpuMsPerOperation / bare;
    const noise = again ? `; the two bare sides ${fmt(again.cpuMsPerOperation / r.floor.cpuMsPerOperation, 3)} × apart` : "";
    list.push({
      budget: `CPU per 2026-07-28 tools/call with one middleware and tracing ≤ ${BUDGETS.operateCpu} × the same server bare`,
      measured: `${fmt(ratio, 3)} × (${fmt(r.ours.cpuMsPerOperation, 3)} vs ${fmt(bare, 3)} ms${noise})`,
      holds: Number.isFinite(ratio) ? ratio <= BUDGETS.operateCpu : undefined,
    });
  }
  ratioBudget("mrtr", "2026-07-28 MRTR round (≤ 2.6 floor calls)");
  ratioBudget("simple", "simple tools/call in a session");
  ratioBudget("interactive", "interactive tools/call (DO lane)");
  if (byKey.sessions) {
    list.push({
      budget: `session creation ≥ ${BUDGETS.sessions.perSecond} sessions/s`,
      measured: `${fmt(byKey.sessions.ours.perSecond)} /s`,
      holds: byKey.sessions.ours.perSecond >= BUDGETS.sessions.perSecond,
    });
    // Against McpAgent (when the agents Worker ran): paired ratios, so the deferred row is (ours / agents) / (ours / deferred).
    const refs = Object.fromEntries(byKey.sessions.references.map((ref) => [ref.key, ref]));
    if (refs.agents) {
      const rows = [["mcp-edge", refs.agents.oursRatio]];
      if (refs.deferred) rows.push(["mcp-edge, deferredSessionObject", refs.agents.oursRatio / refs.deferred.oursRatio]);
      for (const [side, ratio] of rows) {
        list.push({
          budget: `session creation ≥ ${BUDGETS.sessions.agentsRatio} × McpAgent's rate (${side})`,
          measured: `${fmt(ratio, 2)} ×`,
          holds: Number.isFinite(ratio) ? ratio >= BUDGETS.sessions.agentsRatio : undefined,
        });
      }
    }
  }
  ratioBudget("notifications", "notifications on one SSE stream");
  ratioBudget("listen", "2026-07-28 listen stream notifications/s");
  if (byKey.replay) {
    list.push({
      budget: `replay cost, ${fmt(byKey.replay.large.stored)} vs ${fmt(byKey.replay.small.stored)} stored events ≤ ${BUDGETS.replay.maxRatio}`,
      measured: `${fmt(byKey.replay.ratio, 2)} ×`,
      holds: byKey.replay.ratio <= BUDGETS.replay.maxRatio,
    });
  }
  const sessionsOnly = bundles.features?.[0];
  if (sessionsOnly) {
    list.push({
      budget: `one-tool Worker, sessions only ≤ ${kb(BUDGETS.runtimeBundleGzip)} gzip (wrangler's defaults)`,
      measured: `${kb(sessionsOnly.keepNames.gzipBytes)} (${kb(sessionsOnly.noKeepNames.gzipBytes)} with keep_names = false)`,
      holds: sessionsOnly.keepNames.gzipBytes <= BUDGETS.runtimeBundleGzip,
    });
  }
  const c = bundles.comparison;
  if (c) {
    for (const [key, what] of [
      ["mcpEdge", "with zod"],
      ["mcpEdgeJsonSchema", "raw JSON Schema"],
    ]) {
      const ratio = c[key].gzipBytes / c.agents.gzipBytes;
      list.push({
        budget: `same server ${what} ≤ ${BUDGETS.comparedToAgents} × agents createMcpHandler (gzip)`,
        measured: `${fmt(ratio, 2)} ×`,
        holds: ratio <= BUDGETS.comparedToAgents,
      });
    }
  }
  return list;
}

/**
 * The per-feature table (bench/bundle, built with the scaffold's wrangler.toml): the sessions-only
 * Worker, then each feature's gzip bytes and what it adds to that, with wrangler's default
 * `keep_names` and with `keep_names = false`.
 */
export function renderFeatureBundles(features) {
  const [base] = features;
  const delta = (v, way) =>
    v === base ? "" : `${v[way].gzipBytes >= base[way].gzipBytes ? "+" : "−"}${fmt(Math.abs(v[way].gzipBytes - base[way].gzipBytes))}`;
  const lines = [
    "| Worker (bench/bundle/, the scaffold's wrangler.toml) | gzip bytes | Δ | gzip bytes, keep_names = false | Δ | minified bytes |",
    "|---|---:|---:|---:|---:|---:|",
  ];
  for (const v of features) {
    lines.push(
      `| ${v.label} (${v.entry}) | ${fmt(v.keepNames.gzipBytes)} | ${delta(v, "keepNames")} | ${fmt(v.noKeepNames.gzipBytes)} | ${delta(v, "noKeepNames")} | ${fmt(v.keepNames.bytes)} |`,
    );
  }
  return lines;
}

/** The run as Markdown: header lines, then the scenario, round-trip, bundle and budget tables. */
export function renderReport({ machine, options, agentsUnavailable, results, roundTrips, cost, footprint, bundles, budgets }) {
  const lines = [];
  lines.push(
    `mcp-edge bench — ${machine.date}; ${machine.cpu} × ${machine.cores}, ${machine.memory}, Node ${machine.node}, wrangler ${machine.wrangler}, workerd ${machine.workerd}`,
  );
  lines.push(
    `${options.connections} connections, ${options.durationMs ? `${options.durationMs / 1000} s` : `${options.requests} operations`} per side and scenario (ten times as many where a CPU ratio is a budget) in ${options.bursts} alternating bursts (ops/s: median burst; ratio: median of adjacent-burst ratios); ${options.runner === "miniflare" ? "Miniflare alone (no wrangler dev proxy)" : `wrangler dev, inspector ${options.inspector ? "on" : "off"}`}, Durable Object storage on ${options.storage === "memory" ? "tmpfs" : "disk"}; load average ${machine.loadBefore} before, ${machine.loadAfter} after`,
  );
  if (agentsUnavailable) lines.push(`agents createMcpHandler not run: ${agentsUnavailable}`);
  if (results.length > 0) {
    lines.push("");
    lines.push("| scenario | unit | mcp-edge | p50 ms | p99 ms | errors | floor | p50 ms | p99 ms | errors | ratio |");
    lines.push("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  }
  for (const r of results) {
    if (r.key === "replay") {
      for (const [label, side] of [
        ["small", r.small],
        ["large", r.large],
      ]) {
        const ratio = label === "large" ? `${fmt(r.ratio, 2)} × cost` : "";
        lines.push(
          `| ${r.name}, ${fmt(side.stored)} stored | ${r.unit} | ${fmt(side.perSecond)} | ${fmt(side.p50, 1)} | ${fmt(side.p99, 1)} | ${side.errors} | — | — | — | — | ${ratio} |`,
        );
      }
      continue;
    }
    const digits = r.ours.p50 < 10 ? 1 : 0;
    lines.push(
      `| ${r.name} | ${r.unit} | ${fmt(r.ours.perSecond)} | ${fmt(r.ours.p50, digits)} | ${fmt(r.ours.p99, digits)} | ${r.ours.errors} | ${fmt(r.floor.perSecond)} | ${fmt(r.floor.p50, digits)} | ${fmt(r.floor.p99, digits)} | ${r.floor.errors} | ${fmt(r.ratio, 2)} × |`,
    );
    for (const ref of r.references) {
      lines.push(
        `| ↳ reference: ${ref.name} | ${r.unit} | | | | | ${fmt(ref.perSecond)} | ${fmt(ref.p50, digits)} | ${fmt(ref.p99, digits)} | ${ref.errors} | ${fmt(ref.oursRatio, 2)} × (mcp-edge to this); this to floor ${fmt(ref.floorRatio, 2)} × |`,
      );
    }
  }
  const cpuRows = results.filter((r) => r.key !== "replay" && Number.isFinite(r.floor?.cpuMsPerOperation));
  if (cpuRows.length > 0) {
    lines.push("");
    lines.push(
      "| CPU per operation (user + system of the serving workerd process, over the bursts) | unit | mcp-edge ms | floor ms | mcp-edge / floor | references (ms, × floor) |",
    );
    lines.push("|---|---|---:|---:|---:|---|");
    for (const r of cpuRows) {
      const unit = r.unit.replace(/\/s$/, "");
      const refs = r.references
        .map((ref) => `${ref.name}: ${fmt(ref.cpuMsPerOperation, 3)} (${fmt(ref.cpuMsPerOperation / r.floor.cpuMsPerOperation, 2)} ×)`)
        .join("; ");
      lines.push(
        `| ${r.name} | ${unit} | ${fmt(r.ours.cpuMsPerOperation, 3)} | ${fmt(r.floor.cpuMsPerOperation, 3)} | ${fmt(r.ours.cpuMsPerOperation / r.floor.cpuMsPerOperation, 2)} × | ${refs} |`,
      );
    }
  }
  if (roundTrips) {
    lines.push("");
    lines.push("| request | calls to the session object | as documented |");
    lines.push("|---|---|---|");
    for (const r of roundTrips)
      lines.push(
        `| ${r.request} | ${r.calls.length} ${r.calls.length ? `(${r.calls.join(", ")})` : ""} | ${r.ok ? "yes" : `NO (docs: ${r.expected.length})`} |`,
      );
  }
  if (cost) {
    lines.push("");
    lines.push("| whole life (counted, bench/scenarios/cost.mjs) | object requests | rows written | requests by kind |");
    lines.push("|---|---:|---:|---|");
    const rows = [
      ["short 2025 session (initialize, initialized, one simple call, abandoned)", cost.shortSession],
      ["2025 session with a GET stream and one simple call", cost.sessionWithStream],
      ["2025 session ended by DELETE (initialize, initialized, one call, DELETE)", cost.sessionDeleted],
      ["short 2025 session, deferredSessionObject", cost.deferred.shortSession],
      ["2025 session with a GET stream, deferredSessionObject", cost.deferred.sessionWithStream],
      ["2025 session ended by DELETE, deferredSessionObject", cost.deferred.sessionDeleted],
      ["task run, nobody listening, listen.shards = 1 (first publish)", cost.taskShards1[0]],
      ["task run, nobody listening, listen.shards = 1 (next)", cost.taskShards1[1]],
      ["task run, nobody listening, listen.shards = 16 (first publish)", cost.taskShards16[0]],
      ["task run, nobody listening, listen.shards = 16 (next)", cost.taskShards16[1]],
    ];
    for (const [name, c] of rows)
      lines.push(
        `| ${name} | ${c.objectRequests} | ${c.rowsWritten} | ${Object.entries(c.requests)
          .map(([k, n]) => `${k} ${n}`)
          .join(", ")} |`,
      );
  }
  if (footprint) {
    const f = footprint;
    lines.push("");
    lines.push(
      `| per live session (${fmt(f.ours.sessions)} opened and kept, per side) | mcp-edge | floor (a new Durable Object storing one row) | ratio |`,
    );
    lines.push("|---|---:|---:|---:|");
    lines.push(
      `| workerd resident memory | ${kb(f.ours.memoryPerSession)} | ${kb(f.floor.memoryPerSession)} | ${fmt(f.ours.memoryPerSession / f.floor.memoryPerSession, 2)} × |`,
    );
    lines.push(
      `| local SQLite files | ${kb(f.ours.storagePerSession)} | ${kb(f.floor.storagePerSession)} | ${fmt(f.ours.storagePerSession / f.floor.storagePerSession, 2)} × |`,
    );
  }
  if (bundles.features) lines.push("", ...renderFeatureBundles(bundles.features));
  if (bundles.features || bundles.demo) {
    lines.push("");
    lines.push(
      "| bundle (wrangler deploy --dry-run, minified) | bytes | gzip | largest parts (minified bytes in the bundle, ≈ gzip share) |",
    );
    lines.push("|---|---:|---:|---|");
  }
  for (const [label, b] of [
    ["one tool, sessions only (bench/bundle/sessions.ts)", bundles.features?.[0].keepNames],
    ["demo (wrangler.toml)", bundles.demo],
  ]) {
    if (!b) continue;
    const parts = b.parts
      .slice(0, 8)
      .map((p) => `${p.name} ${kb(p.bytes)} (≈${kb(p.gzipShare)})`)
      .join("; ");
    lines.push(`| ${label} | ${kb(b.bytes)} | ${kb(b.gzipBytes)} | ${parts} |`);
  }
  if (bundles.comparison) {
    const c = bundles.comparison;
    lines.push("");
    lines.push(
      "| the same small server (bench/size: 2 tools, 1 resource, 1 prompt), minified | bytes | gzip | zod's share (≈ gzip) | without zod (≈ gzip) | gzip vs agents |",
    );
    lines.push("|---|---:|---:|---:|---:|---:|");
    for (const v of Object.values(c)) {
      lines.push(
        `| ${v.label} | ${kb(v.bytes)} | ${kb(v.gzipBytes)} | ${kb(v.zodGzipShare)} | ${kb(v.gzipBytes - v.zodGzipShare)} | ${fmt(v.gzipBytes / c.agents.gzipBytes, 2)} × |`,
      );
    }
  }
  lines.push("");
  lines.push("| budget (docs/DESIGN.md) | measured | holds |");
  lines.push("|---|---:|---|");
  // A smoke run is far too short to judge a budget; it only proves every scenario still runs.
  const verdict = (v) => (options.smoke ? "— (smoke run)" : v.holds === undefined ? "not measured" : v.holds ? "yes" : "**no**");
  for (const v of budgets) lines.push(`| ${v.budget} | ${v.measured} | ${verdict(v)} |`);
  return lines.join("\n");
}

/** The installed version of a package of this repository, or "?". */
export function versionOf(pkg) {
  try {
    return JSON.parse(readFileSync(new URL(`../../node_modules/${pkg}/package.json`, import.meta.url), "utf8")).version;
  } catch {
    return "?";
  }
}
