// Bench scenario "idle-awake" (issue 32, docs/operating.md "What sleeps"): N idle 2025 GET streams
// (one session each, subscribed to one URI) and N idle 2026-07-28 listen streams (spread over the
// hub's shards by client address) against the demo whose session and hub classes log each
// construction (test/servers/sleep). After `idleMs` with no event, one publish: every object that logs a
// construction for it was asleep, so awake = objects holding a stream − objects built again.
// Target: 0 sessions and 0 hub shards awake. Also the publish → client latency over all streams.

import { processCpuMs } from "../harness/load.mjs";
import { startWorker } from "../../scripts/worker-server.mjs";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "bench-idle-awake", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const V2025 = "2025-06-18";

const constructed = (server, kind) =>
  new Set(
    server
      .logs()
      .split("\n")
      .filter((l) => l.includes(`constructed ${kind} `))
      .map((l) => l.slice(l.indexOf(`constructed ${kind} `) + `constructed ${kind} `.length).trim()),
  );

async function rpc(url, body, headers = {}) {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
}

/**
 * Watches an SSE body: `ready` resolves once `readyText` came (at once without one); `next()`
 * resolves with the time the next `needle` arrives (each arrival answers one `next()`, in order).
 */
function watch(res, needle, readyText) {
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  let onReady;
  const readyP = new Promise((r) => (onReady = r));
  const arrivals = [];
  const waiting = [];
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ done: true }));
      if (done) return;
      text += value;
      if (!readyText || text.includes(readyText)) onReady();
      let at = text.indexOf(needle);
      while (at >= 0) {
        const now = performance.now();
        const w = waiting.shift();
        if (w) w(now);
        else arrivals.push(now);
        text = text.slice(at + needle.length);
        at = text.indexOf(needle);
      }
    }
  })();
  if (!readyText) onReady();
  const next = () => (arrivals.length > 0 ? Promise.resolve(arrivals.shift()) : new Promise((r) => waiting.push(r)));
  return { ready: readyP, next, close: () => reader.cancel().catch(() => undefined) };
}

async function openSession(mcpUrl, uri, i) {
  const headers = { "MCP-Protocol-Version": V2025, "X-Forwarded-For": `10.1.${i >> 8}.${i & 255}` };
  const init = await rpc(mcpUrl, {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: V2025, capabilities: {}, clientInfo: { name: "bench-idle-awake", version: "1.0.0" } },
  });
  const sessionId = init.headers.get("Mcp-Session-Id");
  await init.text();
  const h = { ...headers, "Mcp-Session-Id": sessionId };
  await (await rpc(mcpUrl, { jsonrpc: "2.0", method: "notifications/initialized" }, h)).text();
  await (await rpc(mcpUrl, { jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri } }, h)).text();
  const get = await fetch(mcpUrl, { headers: { Accept: "text/event-stream", ...h } });
  if (get.status !== 200) throw new Error(`GET stream ${i}: HTTP ${get.status}`);
  return watch(get, "notifications/resources/updated");
}

async function openListen(mcpUrl, uri, i) {
  const res = await rpc(
    mcpUrl,
    {
      jsonrpc: "2.0",
      id: `l${i}`,
      method: "subscriptions/listen",
      params: { _meta: META, notifications: { resourceSubscriptions: [uri] } },
    },
    { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "subscriptions/listen", "CF-Connecting-IP": `10.2.${i >> 8}.${i & 255}` },
  );
  if (res.status !== 200) throw new Error(`listen ${i}: HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`);
  const w = watch(res, "notifications/resources/updated", "notifications/subscriptions/acknowledged");
  await w.ready;
  return w;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.floor(s.length / 2)];
};

/** One publish through the stateless lane; the times from it to each stream's next update (undefined: none in 30 s). */
async function publishOnce(server, uri, opened) {
  const cpu0 = processCpuMs(server.workerdPids);
  const t0 = performance.now();
  const touched = await rpc(
    `${server.url}/stateless/mcp`,
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "touch_resource", arguments: { uri } } },
    { "MCP-Protocol-Version": V2025 },
  );
  await touched.text();
  const times = await Promise.all(opened.map((o) => Promise.race([o.next(), new Promise((r) => setTimeout(() => r(undefined), 30_000))])));
  const cpuMs = processCpuMs(server.workerdPids) - cpu0;
  const of = (kind) => times.filter((t, i) => t !== undefined && opened[i].kind === kind).map((t) => t - t0);
  return { all: [...of("get"), ...of("listen")], get: of("get"), listen: of("listen"), cpuMs };
}

/**
 * Runs the scenario on a Worker of its own; `streams` of each kind, `idleMs` without events,
 * then one publish (the objects asleep) and one more at once (the objects awake). `configPath`:
 * another checkout's test/servers/sleep Worker (the bench's `--baseline`), else this one's.
 */
export async function idleAwakeScenario(opts, serverOptions, configPath = "test/servers/sleep/wrangler.toml") {
  const streams = opts.smoke ? 4 : 50;
  const idleMs = 15_000;
  const server = await startWorker({
    ...serverOptions,
    configPath,
    vars: { MCP_LISTEN_MAX_PER_CLIENT: "100000" },
  });
  const opened = [];
  try {
    const uri = `test://template/bench-idle-${crypto.randomUUID()}/data`;
    for (let i = 0; i < streams; i++) opened.push({ kind: "get", ...(await openSession(server.mcpUrl, uri, i)) });
    for (let i = 0; i < streams; i++) opened.push({ kind: "listen", ...(await openListen(server.mcpUrl, uri, i)) });
    const sessions = constructed(server, "session");
    const hubsBefore = constructed(server, "hub");
    const logLines = server.logs().split("\n").length;
    await new Promise((r) => setTimeout(r, idleMs));
    const cold = await publishOnce(server, uri, opened);
    const rebuilt = (kind) =>
      new Set(
        server
          .logs()
          .split("\n")
          .slice(logLines - 1)
          .filter((l) => l.includes(`constructed ${kind} `))
          .map((l) => l.slice(l.indexOf(`constructed ${kind} `) + `constructed ${kind} `.length).trim()),
      );
    const sessionsRebuilt = [...rebuilt("session")].filter((id) => sessions.has(id)).length;
    const hubsRebuilt = [...rebuilt("hub")].filter((id) => hubsBefore.has(id)).length;
    // The same publish with every object awake: what waking cost is the difference.
    const warm = await publishOnce(server, uri, opened);
    return {
      key: "idle-awake",
      configPath,
      streams,
      idleMs,
      sessions: sessions.size,
      sessionsAwake: sessions.size - sessionsRebuilt,
      hubShards: hubsBefore.size,
      hubShardsAwake: Math.max(0, hubsBefore.size - hubsRebuilt),
      delivered: cold.all.length,
      p50Ms: median(cold.all),
      p50GetMs: median(cold.get),
      p50ListenMs: median(cold.listen),
      maxMs: Math.max(...cold.all),
      warmDelivered: warm.all.length,
      warmP50Ms: median(warm.all),
      cpuMs: cold.cpuMs,
      warmCpuMs: warm.cpuMs,
    };
  } finally {
    for (const o of opened) o.close();
    await server.stop();
  }
}

/** One line for the report. */
export function renderIdleAwake(r) {
  return (
    `idle-awake${r.label ? ` (${r.label})` : ""}: ${r.streams} idle 2025 GET streams and ${r.streams} idle listen streams, ${r.idleMs / 1000} s without events: ` +
    `${r.sessionsAwake} of ${r.sessions} session objects and ${r.hubShardsAwake} of ${r.hubShards} hub shards awake (target 0 and 0); ` +
    `the next publish reached ${r.delivered} of ${2 * r.streams} streams, p50 ${r.p50Ms.toFixed(0)} ms from publish to client ` +
    `(GET ${r.p50GetMs.toFixed(0)} ms, listen ${r.p50ListenMs.toFixed(0)} ms, slowest ${r.maxMs.toFixed(0)} ms); ` +
    `one more at once: p50 ${r.warmP50Ms.toFixed(0)} ms; workerd CPU for the first ${r.cpuMs.toFixed(0)} ms, the second ${r.warmCpuMs.toFixed(0)} ms`
  );
}

/** Rounds of a baseline checkout and of this one, side by side: each round's line, then the medians and their difference. */
export function renderIdleAwakeComparison(baseline, ours) {
  const mid = (rs, key) => median(rs.map((r) => r[key]));
  const lines = [];
  for (let i = 0; i < ours.length; i++) {
    lines.push(`round ${i + 1}, baseline: ${renderIdleAwake(baseline[i])}`);
    lines.push(`round ${i + 1}, this checkout: ${renderIdleAwake(ours[i])}`);
  }
  const row = (label, key, digits = 0) =>
    `| ${label} | ${mid(baseline, key).toFixed(digits)} | ${mid(ours, key).toFixed(digits)} | ${(mid(ours, key) - mid(baseline, key)).toFixed(digits)} |`;
  lines.push(
    "",
    `| median of ${ours.length} rounds | baseline | this checkout | difference |`,
    "|---|---|---|---|",
    row("p50 publish → client after the idle spell (ms)", "p50Ms"),
    row("p50 of the publish right after (ms)", "warmP50Ms"),
    row("workerd CPU for the publish after the idle spell (ms)", "cpuMs"),
    row("workerd CPU for the publish right after (ms)", "warmCpuMs"),
    row("session objects awake after the idle spell", "sessionsAwake"),
    row("hub shards awake after the idle spell", "hubShardsAwake"),
  );
  return lines.join("\n");
}
