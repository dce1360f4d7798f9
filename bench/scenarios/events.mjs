// Bench scenario "events" (docs/events.md "The three modes and what each costs"): the Events
// extension's costs, counted (never timed) on bench/events (the demo's event types with a metered
// McpEvents that logs its constructions). Budgets: a poll of an upstream-backed type touches no
// Durable Object; a poll of an emitted type with nothing new is at most 1 object request and 0 rows
// written; `streams` idle push streams leave 0 events objects awake after `idleMs`, and the emit
// after it reaches every one of them.

import { startWorker } from "../../scripts/worker-server.mjs";
import { EVENTS_META, modernHeaders, rpc } from "./messages.mjs";

function request(url, id, method, params) {
  return fetch(url, { method: "POST", headers: modernHeaders(method), body: rpc(id, method, { ...params, _meta: EVENTS_META }) });
}

async function poll(server, params) {
  const body = await (await request(server.mcpUrl, 1, "events/poll", params)).json();
  if (!body.result) throw new Error(`events/poll: ${JSON.stringify(body.error)}`);
  return body.result;
}

async function billedDuring(server, work) {
  await (await fetch(`${server.url}/__cost/reset`, { method: "POST" })).text();
  await work();
  const billed = await (await fetch(`${server.url}/__cost`)).json();
  return { objectRequests: billed.requests.length, rowsWritten: billed.rows };
}

const emitNote = async (server, text) =>
  (await fetch(`${server.url}/events/notes`, { method: "POST", body: JSON.stringify({ text }) })).json();

/** Opens one push stream; resolves once it is active, with a counter of the events it receives. */
async function openStream(server, i) {
  const res = await request(server.mcpUrl, `s${i}`, "events/stream", { name: "demo.note.posted", arguments: {}, cursor: null });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const stream = { events: 0, close: () => reader.cancel().catch(() => undefined) };
  let text = "";
  let active;
  const activeP = new Promise((resolve) => (active = resolve));
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ done: true }));
      if (done) return;
      text += value;
      if (text.includes("notifications/events/active")) active();
      stream.events += text.split("notifications/events/event").length - 1;
      text = text.slice(text.lastIndexOf("\n\n") + 1);
    }
  })();
  await activeP;
  return stream;
}

export async function eventsScenario(opts, serverOptions) {
  const streams = opts.smoke ? 4 : 50;
  const idleMs = 15_000;
  const server = await startWorker({ ...serverOptions, configPath: "bench/events/wrangler.toml" });
  const opened = [];
  try {
    const tick = await poll(server, { name: "demo.clock.tick", arguments: { everySeconds: 5 }, cursor: null });
    const upstreamPoll = await billedDuring(server, () =>
      poll(server, { name: "demo.clock.tick", arguments: { everySeconds: 5 }, cursor: tick.cursor }),
    );
    await emitNote(server, "warm-up");
    const start = await poll(server, { name: "demo.note.posted", arguments: {}, cursor: null });
    const emittedQuietPoll = await billedDuring(server, () =>
      poll(server, { name: "demo.note.posted", arguments: {}, cursor: start.cursor }),
    );
    const emit = await billedDuring(server, () => emitNote(server, "counted"));
    for (let i = 0; i < streams; i++) opened.push(await openStream(server, i));
    const before = server.logs().split("constructed events").length;
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    await emitNote(server, "after the idle time");
    const deadline = Date.now() + 10_000;
    while (opened.some((s) => s.events === 0) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    // The object was asleep when the emit had to construct it again.
    const awake = server.logs().split("constructed events").length === before ? 1 : 0;
    return { upstreamPoll, emittedQuietPoll, emit, streams, idleMs, awake, delivered: opened.filter((s) => s.events > 0).length };
  } finally {
    for (const stream of opened) await stream.close();
    await server.stop();
  }
}

/** The scenario's table, and the budgets it missed (empty when every one holds). */
export function renderEvents(e) {
  const rows = [
    [
      "poll, upstream-backed type",
      `${e.upstreamPoll.objectRequests} object requests, ${e.upstreamPoll.rowsWritten} rows`,
      "0 object requests",
    ],
    [
      "poll, emitted type, nothing new",
      `${e.emittedQuietPoll.objectRequests} object requests, ${e.emittedQuietPoll.rowsWritten} rows`,
      "≤ 1 request, 0 rows",
    ],
    ["emit", `${e.emit.objectRequests} object requests, ${e.emit.rowsWritten} rows`, "(no budget)"],
    [
      `${e.streams} idle push streams, ${e.idleMs / 1000} s`,
      `${e.awake} events objects awake; the emit after reached ${e.delivered}`,
      `0 awake; all ${e.streams}`,
    ],
  ];
  const table = ["| Events | counted | budget |", "|---|---|---|", ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");
  const missed = [];
  if (e.upstreamPoll.objectRequests !== 0) missed.push("events: a poll of an upstream-backed type reached a Durable Object");
  if (e.emittedQuietPoll.objectRequests > 1 || e.emittedQuietPoll.rowsWritten > 0)
    missed.push("events: a quiet poll of an emitted type cost more than 1 request / 0 rows");
  if (e.awake > 0) missed.push("events: an idle push stream kept its events object awake");
  if (e.delivered < e.streams) missed.push(`events: the emit after the idle time reached ${e.delivered} of ${e.streams} streams`);
  return { table, missed };
}
