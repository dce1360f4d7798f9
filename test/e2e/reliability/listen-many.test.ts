// Thousands of 2026-07-28 listen streams over real HTTP against the demo under `wrangler dev`
// (in-process), spread over the hub's shards, and one publish from a tool call: every stream gets
// the update exactly once. One address opens them all, so the demo's per-client cap is lifted
// with its MCP_LISTEN_MAX_PER_CLIENT var, as a load test would. Bounded in count and time; the
// figures (open rate, delivery latency) are printed for the bench note, not asserted.
import { describe, expect, it } from "vitest";
import { useWorker } from "../helpers/server";

const STREAMS = 2000;
const OPEN_WIDTH = 100;
const server = useWorker({ vars: { MCP_LISTEN_MAX_PER_CLIENT: "100000" } });

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "e2e-listen-many", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

function modernPost(method: string, id: number | string, params: Record<string, unknown>, extra: Record<string, string> = {}) {
  return fetch(server.mcpUrl, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": method,
      ...extra,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: META } }),
  });
}

interface Listener {
  updates: number;
  firstAt: number | undefined;
  reader: ReadableStreamDefaultReader<string>;
}

/** Opens one listen stream and resolves once its acknowledgement arrived; counts updates after that. */
async function openListener(id: number, uri: string): Promise<Listener> {
  const res = await modernPost("subscriptions/listen", id, { notifications: { resourceSubscriptions: [uri] } });
  if (res.status !== 200) throw new Error(`listen ${id}: HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const listener: Listener = { updates: 0, firstAt: undefined, reader };
  let text = "";
  let acked: () => void = () => undefined;
  const ack = new Promise<void>((resolve) => {
    acked = resolve;
  });
  void (async () => {
    let seenAck = false;
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      text += value;
      if (!seenAck && text.includes("notifications/subscriptions/acknowledged")) {
        seenAck = true;
        acked();
      }
      const parts = text.split("notifications/resources/updated");
      if (parts.length > 1) {
        listener.firstAt ??= performance.now();
        listener.updates += parts.length - 1;
      }
      text = parts.at(-1)?.slice(-64) ?? "";
    }
  })();
  await ack;
  return listener;
}

describe("listen streams at scale over real HTTP", () => {
  it(`delivers one publish to each of ${STREAMS.toLocaleString("en-US")} listen streams exactly once`, { timeout: 180_000 }, async () => {
    const uri = `test://template/e2e-many-${crypto.randomUUID()}/data`;
    const started = performance.now();
    const listeners: Listener[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: OPEN_WIDTH }, async () => {
        while (next < STREAMS) {
          const i = next++;
          listeners.push(await openListener(i, uri));
        }
      }),
    );
    const opened = performance.now();

    const publishedAt = performance.now();
    const call = await modernPost("tools/call", "touch", { name: "touch_resource", arguments: { uri } }, { "Mcp-Name": "touch_resource" });
    expect(call.status).toBe(200);
    await call.text();
    const deadline = Date.now() + 60_000;
    while (listeners.some((l) => l.updates === 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    // A moment more: a second copy on any stream would show up now.
    await new Promise((r) => setTimeout(r, 500));

    expect(listeners.filter((l) => l.updates === 0).length).toBe(0);
    expect(listeners.filter((l) => l.updates > 1).length).toBe(0);
    const latencies = listeners.map((l) => (l.firstAt as number) - publishedAt).sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)]?.toFixed(0);
    console.log(
      `[listen-many] ${STREAMS} streams opened in ${((opened - started) / 1000).toFixed(1)} s; one publish delivered to all: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`,
    );
    await Promise.all(listeners.map((l) => l.reader.cancel().catch(() => undefined)));
  });
});
