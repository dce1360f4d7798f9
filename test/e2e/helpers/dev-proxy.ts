// Requests through `wrangler dev` that survive a known flaw of its ProxyWorker (BUG-7 in RELIABILITY.md).
//
// wrangler dev sends every request through a ProxyWorker (its own workerd) that forwards it to the
// Worker over pooled keep-alive connections. Both ends of such a connection time it out after 5 s
// idle, so a forward can be written into a connection the Worker's side has just closed; it then
// fails with "Network connection lost." having reached no Worker code. wrangler 4.86 (the last
// one for Node 20; workers-sdk #14593 and #15252 fix it in later ones, which need Node 22) takes that failure for a
// reload whenever the path is not "/": it answers a POST `503 "Your worker restarted mid-request…"`
// and parks a GET until the next request reaches the proxy, so a lone GET never gets an answer.
// It takes a burst first (many pooled connections left to age) and then requests one at a time.

/** Counts of what the proxy dropped and this helper recovered, for a test's report. */
export const devProxyRecoveries = { resentPosts: 0, unparkRounds: 0 };

/** The text of wrangler dev's own 503 (templates/startDevWorker/ProxyWorker.ts). */
const PROXY_DROPPED = "Your worker restarted mid-request.";
/** A parked GET waits for the next request: send one after this long without response headers. */
const UNPARK_AFTER_MS = 2_000;
/** Bounds the flushing of one GET's wait (about a minute); the caller's own time limit is usually shorter. */
const UNPARK_ROUNDS = 30;
const RESENDS = 2;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Any request reaching the ProxyWorker makes it forward the GETs it parked. This one never reaches
 * a session (404 from the router). Its path must not be "/": there wrangler 4.86 reads a dropped
 * forward as fatal and exits.
 */
async function unpark(origin: string): Promise<void> {
  try {
    const res = await fetch(`${origin}/.dev-proxy-unpark`, { method: "HEAD", signal: AbortSignal.timeout(1_000) });
    await res.body?.cancel();
  } catch {
    // Parked itself or timed out: the next round sends another.
  }
}

/**
 * `fetch` for e2e tests against `wrangler dev` at `origin`. A GET or HEAD without response headers
 * after 2 s has the proxy's queue flushed (every 2 s, at most 30 times) until headers come; a request the proxy
 * answered with its own 503 is sent again (at most twice). A connection closed for idling carried no
 * request, so such a forward reached no Worker code; still, use this only for requests that may be
 * sent twice. Any other answer, including every answer from the Worker, is returned as is.
 * The request body must be a string (it is sent again).
 */
export async function devFetch(origin: string, url: string, init: RequestInit & { body?: string } = {}): Promise<Response> {
  const method = (init.method ?? "GET").toUpperCase();
  if (method === "GET" || method === "HEAD") {
    const pending = fetch(url, init);
    for (let round = 0; round < UNPARK_ROUNDS && !init.signal?.aborted; round++) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waited = new Promise<undefined>((r) => {
        timer = setTimeout(() => r(undefined), UNPARK_AFTER_MS);
      });
      const res = await Promise.race([pending, waited]).finally(() => clearTimeout(timer));
      if (res) return res;
      devProxyRecoveries.unparkRounds++;
      await unpark(origin);
    }
    return pending;
  }
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url, init);
    if (res.status !== 503 || attempt >= RESENDS) return res;
    const text = await res.clone().text();
    if (!text.startsWith(PROXY_DROPPED)) return res;
    await res.body?.cancel();
    devProxyRecoveries.resentPosts++;
    await sleep(50);
  }
}
