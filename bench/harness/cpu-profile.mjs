// A CPU profile of the Worker's isolate in a workerd process started with an inspector port
// (scripts/worker-server.mjs, runner "miniflare", `inspectorPort`): Chrome DevTools Protocol
// Profiler.start / Profiler.stop over the inspector's WebSocket (Node 22's global WebSocket).
// Locally the Worker and its Durable Objects share that one isolate, so one profile shows both.
// Native work outside JavaScript (the HTTP server, WebSocket plumbing, timers' dispatch) shows
// as "(idle)" or inside the JavaScript frame that called it; `perf record -p <workerd pid>`
// sees that side.

/** Starts profiling the user Worker's isolate; resolves to `stop()`, which resolves to the profile. */
export async function startCpuProfile(inspectorPort, samplingMicros = 200) {
  const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json();
  const target = targets.find((t) => t.title.includes("core:user"));
  if (!target) throw new Error(`no user Worker among the inspector's targets: ${targets.map((t) => t.title).join(", ")}`);
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve, { once: true });
    ws.addEventListener("error", () => reject(new Error("could not reach the inspector")), { once: true });
  });
  const waiting = new Map();
  let id = 0;
  ws.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    waiting.get(message.id)?.(message.result);
    waiting.delete(message.id);
  });
  const call = (method, params = {}) =>
    new Promise((resolve) => {
      waiting.set(++id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  await call("Profiler.enable");
  await call("Profiler.setSamplingInterval", { interval: samplingMicros });
  await call("Profiler.start");
  return async () => {
    const { profile } = await call("Profiler.stop");
    ws.close();
    return profile;
  };
}

/**
 * The `count` functions with the most self time: "12.3 ms  name file:line" lines, the time
 * counted as samples × the sampling interval. A sample's own time delta is not used: a sampler
 * that could not run (2 shared cores, a long native call) leaves one sample with a delta of
 * hundreds of ms, billed to whatever frame it found (a keep-alive tick once took "284 ms" so).
 */
export function topSelfTime(profile, count = 12, samplingMicros = 200) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const samples = new Map();
  for (const nodeId of profile.samples) {
    const { functionName, url, lineNumber } = nodes.get(nodeId).callFrame;
    const key = `${functionName || "(anonymous)"} ${url.split("/").pop()}:${lineNumber + 1}`;
    samples.set(key, (samples.get(key) ?? 0) + 1);
  }
  return [...samples]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, n]) => `${((n * samplingMicros) / 1000).toFixed(1).padStart(8)} ms  ${key}`);
}
