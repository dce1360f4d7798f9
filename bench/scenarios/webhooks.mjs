// Bench part: what webhook delivery costs in the platform's billed units, counted (never timed) by the metered
// McpEvents objects of bench/webhooks, with a real receiver on 127.0.0.1 (mcp-edge/testing/receiver) counting what
// arrives: idle subscriptions, one event to one subscription, one failed attempt and its retry, and one emit to
// many subscriptions. Budgets (issue 42): at most 1 object request and 2 rows written per delivery attempt, none
// per idle subscription, every subscription delivered after one emit.

import { send } from "../harness/load.mjs";
import { EVENTS_META, modernHeaders, rpc } from "./messages.mjs";
import { startWebhookReceiver } from "../../src/testing/webhook-receiver.mjs";

const EVENT = "bench.incident";
const HEADERS = modernHeaders("events/subscribe");
/** How long idle subscriptions are watched for any object request or row (their TTL is an hour). */
const IDLE_MS = 2000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function subscribe(pool, url, secret) {
  const body = rpc(1, "events/subscribe", {
    name: EVENT,
    arguments: {},
    delivery: { mode: "webhook", url, secret },
    cursor: null,
    _meta: EVENTS_META,
  });
  const reply = JSON.parse((await send(pool, { path: "/mcp", headers: HEADERS, body })).text);
  if (typeof reply.result?.id !== "string") throw new Error(`webhooks: subscribe failed: ${JSON.stringify(reply).slice(0, 300)}`);
}

async function reset(pool) {
  await send(pool, { path: "/__cost/reset", headers: {}, body: "", expect: 204 });
}

/** What was billed since the reset, once it stopped moving (the last status rows are written after the POST's answer). */
async function settledBill(pool) {
  let last;
  for (;;) {
    const bill = JSON.parse((await send(pool, { method: "GET", path: "/__cost", headers: {} })).text);
    if (last && bill.rows === last.rows && bill.requests.length === last.requests.length) return bill;
    last = bill;
    await sleep(300);
  }
}

function emit(pool, eventId) {
  return send(pool, { path: "/__emit", headers: { "content-type": "application/json" }, body: JSON.stringify({ eventId }) });
}

/** The POSTs of one event under a path prefix, once `count` arrived (the receiver's bounded wait throws past it). */
async function arrivals(receiver, prefix, eventId, count) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const got = receiver.deliveries.filter((d) => d.path.startsWith(prefix) && d.webhookId === eventId);
    if (got.length >= count) return got;
    if (Date.now() > deadline) throw new Error(`webhooks: ${got.length} of ${count} deliveries of ${eventId} arrived`);
    await sleep(50);
  }
}

/**
 * What an attempt writes: in the alarm's requests, its outbox row and its subscription's status. Apart, and shown
 * apart: per event (its body, stored once however many subscriptions get it, written at the emit and deleted after
 * its last delivery) and per alarm run (the alarm set again, for the next due delivery or expiry).
 */
const ATTEMPT_TABLES = ["webhook_outbox", "webhook_subscriptions"];

/** A bill as the report shows it: requests by kind, rows in all and by request and writer. */
function summary(bill, attempts) {
  const byKind = {};
  for (const what of bill.requests) byKind[what] = (byKind[what] ?? 0) + 1;
  const alarms = byKind["events.alarm"] ?? 0;
  const attemptRows = ATTEMPT_TABLES.reduce((n, table) => n + (bill.rowsBy[`events.alarm ${table}`] ?? 0), 0);
  return {
    attempts,
    objectRequests: bill.requests.length,
    requests: byKind,
    rowsWritten: bill.rows,
    rowsBy: bill.rowsBy,
    perAttempt: attempts ? { objectRequests: alarms / attempts, rowsWritten: attemptRows / attempts } : undefined,
  };
}

/** `subscriptions`: how many the fan-out row subscribes (1,000 in a full run). */
export async function webhooksScenario(pool, { subscriptions }) {
  const receiver = await startWebhookReceiver({ wellKnownReceivers: ["/hooks/"] });
  try {
    const one = receiver.hookUrl("one");
    await subscribe(pool, one, receiver.secret);
    await reset(pool);
    await emit(pool, "single-1");
    await arrivals(receiver, "/hooks/one", "single-1", 1);
    const single = summary(await settledBill(pool), 1);

    await receiver.script({ path: "/hooks/one", statuses: [500] });
    await reset(pool);
    await emit(pool, "retried-1");
    await arrivals(receiver, "/hooks/one", "retried-1", 2);
    const retried = summary(await settledBill(pool), 2);

    for (let start = 0; start < subscriptions; start += 50) {
      const batch = Array.from({ length: Math.min(50, subscriptions - start) }, (_, i) =>
        subscribe(pool, receiver.hookUrl(`fan/${start + i}`), receiver.secret),
      );
      await Promise.all(batch);
    }
    await reset(pool);
    await sleep(IDLE_MS);
    const idle = summary(await settledBill(pool), 0);

    await reset(pool);
    await emit(pool, "fan-1");
    const fanned = await arrivals(receiver, "/hooks/fan/", "fan-1", subscriptions);
    // The first subscription ("one") gets this emit too: every attempt counts.
    const attempts = (await arrivals(receiver, "/hooks/", "fan-1", subscriptions + 1)).length;
    const fanOut = {
      ...summary(await settledBill(pool), attempts),
      subscriptions,
      delivered: fanned.length,
      verified: fanned.filter((d) => d.verified).length,
    };
    return { single, retried, idle, fanOut };
  } finally {
    await receiver.close();
  }
}

/** The budget lines this part fails, with the figure that failed. */
export function webhooksBudgetFailures(result) {
  const failures = [];
  for (const [name, row] of Object.entries({ single: result.single, retried: result.retried, fanOut: result.fanOut })) {
    if (row.perAttempt.objectRequests > 1)
      failures.push(`webhooks ${name}: ${row.perAttempt.objectRequests} object requests per delivery attempt (budget 1)`);
    if (row.perAttempt.rowsWritten > 2)
      failures.push(`webhooks ${name}: ${row.perAttempt.rowsWritten.toFixed(2)} rows written per delivery attempt (budget 2)`);
  }
  if (result.idle.objectRequests > 0 || result.idle.rowsWritten > 0)
    failures.push(
      `webhooks idle: ${result.idle.objectRequests} object requests, ${result.idle.rowsWritten} rows while ${result.fanOut.subscriptions} subscriptions were idle (budget 0)`,
    );
  if (result.fanOut.verified !== result.fanOut.subscriptions)
    failures.push(`webhooks fan-out: ${result.fanOut.verified} of ${result.fanOut.subscriptions} subscriptions got a verified delivery`);
  return failures;
}

export function renderWebhooks(result) {
  const line = (name, row) =>
    `| ${name} | ${row.attempts} | ${row.objectRequests} (${
      Object.entries(row.requests)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ") || "none"
    }) | ${row.rowsWritten} (${
      Object.entries(row.rowsBy)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ") || "none"
    }) | ${row.perAttempt ? `${row.perAttempt.objectRequests.toFixed(3)} / ${row.perAttempt.rowsWritten.toFixed(2)}` : "–"} |`;
  return [
    "### Webhook delivery (counted: object requests and rows written, metered McpEvents)",
    "",
    "| case | attempts | object requests | rows written (by request and writer) | per attempt (alarm requests / outbox and status rows) |",
    "|---|---|---|---|---|",
    line("one event, one subscription", result.single),
    line("one event, a 500 then a 200", result.retried),
    line(`${result.fanOut.subscriptions} subscriptions idle ${IDLE_MS / 1000} s`, result.idle),
    line(
      `one emit, ${result.fanOut.subscriptions} subscriptions (${result.fanOut.delivered} delivered, ${result.fanOut.verified} verified)`,
      result.fanOut,
    ),
  ].join("\n");
}
