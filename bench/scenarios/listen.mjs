// Bench scenario of the 2026-07-28 listen stream (bench/listen): publish → hub → one open stream,
// against hand-formatted SSE from the same Worker.

import { send } from "../harness/load.mjs";
import { countOf, POST_HEADERS } from "./messages.mjs";

const UPDATED = '"notifications/resources/updated"';
/** The longest a listen stream may take to carry what was published to it. */
const LISTEN_WAIT_MS = 60_000;

/** Counts the resourceUpdated notifications an open SSE body has carried; `until(n)` resolves once it has carried n in all. */
function notificationCounter(body) {
  let seen = 0;
  let tail = "";
  let waiter;
  let ended;
  body.setEncoding("utf8");
  body.on("data", (chunk) => {
    const text = tail + chunk;
    seen += countOf(text, UPDATED);
    // Keep what could be the start of a method name cut by the chunk boundary.
    const last = text.lastIndexOf(UPDATED);
    tail = text.slice(Math.max(last === -1 ? 0 : last + UPDATED.length, text.length - UPDATED.length + 1));
    if (waiter && seen >= waiter.want) waiter.resolve();
  });
  const end = (err) => {
    ended ??= err ?? new Error("the listen stream ended");
    waiter?.reject(ended);
  };
  body.on("error", end);
  body.on("end", () => end());
  return {
    until(want) {
      if (seen >= want) return Promise.resolve();
      if (ended) return Promise.reject(ended);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`the listen stream carried ${seen} of ${want} notifications in ${LISTEN_WAIT_MS / 1000} s`)),
          LISTEN_WAIT_MS,
        );
        const settle = (fn) => (value) => {
          clearTimeout(timer);
          waiter = undefined;
          fn(value);
        };
        waiter = { want, resolve: settle(resolve), reject: settle(reject) };
      });
    },
    close: () => body.destroy(),
  };
}

/**
 * 2026-07-28 listen stream (bench/listen): one stream open on the hub; each operation publishes
 * `listenNotifications` resourceUpdated events from one Worker invocation (`await publish` each,
 * one after another: publish returns once handed off, and what is published while a call to
 * the hub is in flight goes in the next one) and ends when the stream has carried them all. The
 * floor: the same Worker writes as many hand-formatted notifications on a fresh SSE response.
 * References: the same events published all at once, and one after another each waiting for
 * its delivery (publishAndCount, the old cost of a publish).
 */
export function listenScenario(opts, listen) {
  const n = opts.listenNotifications;
  const published = (mode) => async (_client, stream) => {
    const answer = JSON.parse((await send(listen, { path: `/publish?count=${n}&mode=${mode}`, headers: POST_HEADERS, body: "" })).text);
    if (answer.published !== n) throw new Error(`the Worker published ${answer.published} of ${n} events`);
    if (mode === "count" && answer.delivered !== n)
      throw new Error(`publishAndCount reached ${answer.delivered} of ${n} listen streams × events`);
    stream.expected += n;
    await stream.counter.until(stream.expected);
  };
  let state;
  return {
    key: "listen",
    name: `2026-07-28 listen stream: publish → hub → stream (${n.toLocaleString("en-US")} per burst), vs hand-formatted SSE`,
    unit: "notifications/s",
    connections: 1,
    operations: opts.streams,
    countOnly: true,
    warmupOperations: 1,
    perOperation: n,
    setup: async () => {
      const res = await listen.request({ method: "POST", path: "/listen", headers: POST_HEADERS, body: "" });
      if (res.statusCode !== 200) throw new Error(`listen: HTTP ${res.statusCode}: ${(await res.body.text()).slice(0, 200)}`);
      state = { counter: notificationCounter(res.body), expected: 0 };
      return state;
    },
    teardown: () => state?.counter.close(),
    floor: async () => {
      const text = (await send(listen, { path: `/sse?count=${n}`, headers: POST_HEADERS, body: "" })).text;
      if (countOf(text, UPDATED) !== n) throw new Error(`the floor stream carried ${countOf(text, UPDATED)} of ${n} notifications`);
    },
    ours: published("seq"),
    references: [
      { name: "the same events published all at once (concurrent publish calls)", operation: (client) => published("par")(client, state) },
      {
        name: "one after another, each waiting until delivered (publishAndCount: two hops each)",
        operation: (client) => published("count")(client, state),
      },
    ],
  };
}
