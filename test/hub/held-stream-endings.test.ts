import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { demoServer } from "../../src/demo/server";
import { holdStream, upgradeInit } from "../../src/platform/held-stream";
import { HEADER_LISTEN_OPEN, HUB_LISTEN_URL } from "../../durable-objects/hub/contract";
import { publish } from "../../src/features/hub/publish";
import { envelope, headers2026 } from "../helpers/era-2026";
import { initializeParams } from "../helpers/mcp";
import { sessionStub, seqOf } from "../helpers/session";
import { SseReader, type SseEvent } from "../helpers/sse";
import { edgeEnv, hubStubOf, listen, openListen } from "../helpers/listen";
import { accessToken, authOptions, bearer, edgeFetch, jwksOf, MCP_URL, ORIGIN, postTo, signingKey, type Fetch } from "../auth/fixtures";

const V = "2025-06-18";
const updated = (e: SseEvent) => e.json?.method === "notifications/resources/updated";
/** A resource URI of about `length` characters: each notification carries that many bytes. */
const longUri = (length: number) => `test://template/${"x".repeat(length)}-${crypto.randomUUID()}/data`;

/** initialize + initialized on `fetch`'s Worker (with `headers`, e.g. a bearer token); the session id. */
async function open2025(fetch: Fetch, headers: Record<string, string> = {}): Promise<string> {
  const res = await postTo(fetch, { jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams(V) }, headers);
  expect(res.status).toBe(200);
  const sessionId = res.headers.get("Mcp-Session-Id") as string;
  const inSession = { ...headers, "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": V };
  expect((await postTo(fetch, { jsonrpc: "2.0", method: "notifications/initialized" }, inSession)).status).toBe(202);
  const subscribed = await postTo(fetch, { jsonrpc: "2.0", id: 1, method: "resources/subscribe", params: { uri: "x:" } }, inSession);
  expect(subscribed.status).toBe(200);
  return sessionId;
}

async function subscribe(fetch: Fetch, sessionId: string, uri: string, headers: Record<string, string> = {}): Promise<void> {
  const inSession = { ...headers, "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": V };
  const res = await postTo(fetch, { jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri } }, inSession);
  expect(await res.json()).toMatchObject({ result: {} });
}

function getStream(fetch: Fetch, sessionId: string, headers: Record<string, string> = {}, lastEventId?: string): Promise<Response> {
  const all: Record<string, string> = { ...headers, Accept: "text/event-stream", "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": V };
  if (lastEventId !== undefined) all["Last-Event-ID"] = lastEventId;
  return fetch(MCP_URL, { method: "GET", headers: all });
}

/**
 * How long a stalled client takes nothing before it reads again. A client that reads keeps up with a burst larger than
 * its buffer (src/platform/held-stream.ts paces the burst, waiting up to 50 ms for each write); one that takes nothing
 * has a frame pass its bound every 50 ms or so. Published one awaited call at a time, a fast machine may hand over
 * every event before enough of those waits elapsed, and the test's first read would make it a reading client.
 */
const STALL_MS = 1_500;

function clientTakesNothingFor(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Every event until the stream ends, or until `updates` updates were read (a stream that did not end). */
async function readUpTo(stream: SseReader, updates: number): Promise<{ events: SseEvent[]; ended: boolean }> {
  const events: SseEvent[] = [];
  let seen = 0;
  while (seen < updates) {
    const event = await stream.next();
    if (!event) return { events, ended: true };
    events.push(event);
    if (updated(event)) seen++;
  }
  return { events, ended: false };
}

describe("a 2025 GET stream whose client stops reading", () => {
  it("is cut at session.maxBufferedBytes with a retry field; resuming with Last-Event-ID gives every event once, in order", async () => {
    const fetch = edgeFetch({ session: { maxBufferedBytes: 64 * 1024 } });
    const sessionId = await open2025(fetch);
    const uri = longUri(7000);
    await subscribe(fetch, sessionId, uri);
    const res = await getStream(fetch, sessionId);
    expect(res.status).toBe(200);
    // Nothing is read while 100 events of 7 KB (700 KB, 11 × the bound) are published.
    const count = 100;
    for (let i = 0; i < count; i++) expect(await sessionStub(sessionId).resourceUpdated(uri)).toBe("sent");

    await clientTakesNothingFor(STALL_MS);
    const first = await readUpTo(new SseReader(res), count);
    expect(first.ended).toBe(true);
    const got = first.events.filter(updated);
    expect(got.length).toBeLessThan(count / 2);
    // Its last block is the WHATWG reconnection time: the client comes back.
    expect(first.events.at(-1)).toMatchObject({ retry: 1000, data: "" });

    const resumed = new SseReader(await getStream(fetch, sessionId, {}, got.at(-1)?.id));
    const rest = (await readUpTo(resumed, count - got.length)).events.filter(updated);
    await resumed.cancel();
    const ids = [...got, ...rest].map((e) => seqOf(e.id));
    expect(ids.length).toBe(count);
    for (let i = 1; i < ids.length; i++) expect(ids[i]).toBe((ids[i - 1] as number) + 1);
  });
});

describe("a 2024-11-05 /sse stream whose client stops reading", () => {
  it("is cut at session.maxBufferedBytes instead of holding everything published to it", async () => {
    const fetch = edgeFetch({ session: { maxBufferedBytes: 64 * 1024 } });
    const res = await fetch(`${ORIGIN}/sse`, { headers: { Accept: "text/event-stream" } });
    expect(res.status).toBe(200);
    const stream = new SseReader(res);
    const endpoint = (await stream.next())?.data as string;
    const sessionId = new URL(endpoint, ORIGIN).searchParams.get("sessionId") as string;
    const post = (body: unknown) => postTo(fetch, body, {}, new URL(endpoint, ORIGIN).href);
    expect((await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2024-11-05") })).status).toBe(202);
    await stream.next();
    await post({ jsonrpc: "2.0", method: "notifications/initialized" });
    const uri = longUri(7000);
    await post({ jsonrpc: "2.0", id: 1, method: "resources/subscribe", params: { uri } });
    expect((await stream.next())?.json).toMatchObject({ id: 1, result: {} });

    const count = 100;
    for (let i = 0; i < count; i++) await sessionStub(sessionId).resourceUpdated(uri);
    await clientTakesNothingFor(STALL_MS);
    const after = await readUpTo(stream, count);
    expect(after.ended).toBe(true);
    expect(after.events.filter(updated).length).toBeLessThan(count / 2);
  });
});

describe("a busy stream and its CPU budget (streamCpuBudgetMs)", () => {
  it("a GET stream ends resumably before its budget, and Last-Event-ID gives the rest", async () => {
    // 3 ms estimated: about 50 small events (src/platform/held-stream.ts CPU_MS_PER_FRAME).
    const fetch = edgeFetch({ streamCpuBudgetMs: 3 });
    const sessionId = await open2025(fetch);
    const uri = longUri(10);
    await subscribe(fetch, sessionId, uri);
    const stream = new SseReader(await getStream(fetch, sessionId));
    const count = 120;
    for (let i = 0; i < count; i++) await sessionStub(sessionId).resourceUpdated(uri);
    const first = await readUpTo(stream, count);
    expect(first.ended).toBe(true);
    expect(first.events.at(-1)).toMatchObject({ retry: 1000, data: "" });
    const got = first.events.filter(updated);
    expect(got.length).toBeLessThan(count);

    // A replay counts against the budget too: the client resumes until it has everything, each time further on.
    const all = [...got];
    for (let resumes = 1; all.length < count; resumes++) {
      expect(resumes).toBeLessThan(count);
      const resumed = new SseReader(await getStream(fetch, sessionId, {}, all.at(-1)?.id));
      const more = await readUpTo(resumed, count - all.length);
      expect(more.events.filter(updated).length).toBeGreaterThan(0);
      all.push(...more.events.filter(updated));
      if (!more.ended) await resumed.cancel();
    }
    const seqs = all.map((e) => seqOf(e.id));
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBe((seqs[i - 1] as number) + 1);
  });

  it("a listen stream ends with its complete result after what arrived, and a new listen goes on", async () => {
    const uri = longUri(10);
    const hub = `budget-${crypto.randomUUID()}`;
    const call = {
      server: demoServer,
      id: "busy",
      notifications: { resourceSubscriptions: [uri] },
      options: { shards: 1 },
      features: { shard: hub },
    };
    const busy = await openListen({ ...call, streamCpuBudgetMs: 3 });
    const count = 120;
    for (let i = 0; i < count; i++) await publish(edgeEnv, { type: "resourceUpdated", uri }, { shard: hub, shards: 1 });
    const events = (await readUpTo(busy.stream, count)).events;
    expect(events.filter(updated).length).toBeLessThan(count);
    expect(events.at(-1)?.json).toMatchObject({ id: "busy", result: { resultType: "complete" } });

    const again = await openListen({ ...call, id: "again", streamCpuBudgetMs: 3 });
    await publish(edgeEnv, { type: "resourceUpdated", uri }, { shard: hub, shards: 1 });
    expect((await again.stream.next())?.json).toMatchObject({ method: "notifications/resources/updated", params: { uri } });
    await again.stream.cancel();
  });
});

describe("a stream ends with its token", () => {
  /** A Worker behind JWT auth and a token expiring in `seconds`. */
  async function signedIn(seconds: number): Promise<{ fetch: Fetch; headers: Record<string, string>; exp: number }> {
    const key = await signingKey("k1");
    const exp = Math.floor(Date.now() / 1000) + seconds;
    return {
      fetch: edgeFetch({ auth: authOptions(jwksOf(key)) }),
      headers: bearer(await accessToken(key, { exp })),
      exp,
    };
  }

  it("a 2025 GET stream delivers until the token's exp, then ends with the reason and a retry field", async () => {
    const { fetch, headers, exp } = await signedIn(2);
    const sessionId = await open2025(fetch, headers);
    const uri = longUri(10);
    await subscribe(fetch, sessionId, uri, headers);
    const stream = new SseReader(await getStream(fetch, sessionId, headers));
    await sessionStub(sessionId).resourceUpdated(uri);
    expect((await stream.next())?.json?.method).toBe("notifications/resources/updated");
    const rest = await readUpTo(stream, 1);
    expect(rest).toEqual({ events: [{ retry: 1000, data: "" }], ended: true });
    expect(Date.now()).toBeGreaterThanOrEqual(exp * 1000);
  });

  it("a 2024-11-05 /sse stream ends at the token's exp with the reason as a comment", async () => {
    const { fetch, headers } = await signedIn(2);
    const res = await fetch(`${ORIGIN}/sse`, { headers: { ...headers, Accept: "text/event-stream" } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.startsWith("event: endpoint\n")).toBe(true);
    expect(text.endsWith(": authorization ended: the access token expired\n\n")).toBe(true);
  });

  it("a 2026 listen stream says authorizedUntil, then ends with AuthorizationEnded for a client that declared the draft", async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 2;
    const capabilities = { experimental: { "io.modelcontextprotocol/subscription-lifetime": {} } };
    const hub = `expiry-${crypto.randomUUID()}`;
    const notifications = { resourceSubscriptions: [longUri(10)] };
    const call = { server: demoServer, id: "timed", notifications, subject: "alice", expiresAt, features: { shard: hub } };
    const { stream, ack } = await openListen({ ...call, capabilities, options: { shards: 1 } });
    // The deadline is the Worker's: the shard holds no alarm for it, and may sleep until the stream ends.
    expect(await runInDurableObject(hubStubOf(hub), (_instance, state) => state.storage.getAlarm())).toBeNull();
    expect(ack.params).toMatchObject({ authorizedUntil: new Date(expiresAt * 1000).toISOString() });
    expect(await stream.all()).toEqual([
      {
        data: expect.any(String),
        event: "message",
        json: {
          jsonrpc: "2.0",
          id: "timed",
          error: {
            code: -32028,
            message: "Authorization ended: the access token expired; listen again with a fresh token",
            data: { reason: "token_expiry" },
          },
        },
      },
    ]);
  });

  it("a 2026 listen request through the Worker's lane carries its token's exp to the stream", async () => {
    const { fetch, headers, exp } = await signedIn(2);
    const capabilities = { experimental: { "io.modelcontextprotocol/subscription-lifetime": {} } };
    const params = { _meta: envelope(capabilities), notifications: { resourceSubscriptions: [longUri(10)] } };
    const res = await postTo(
      fetch,
      { jsonrpc: "2.0", id: "lane", method: "subscriptions/listen", params },
      {
        ...headers,
        ...headers2026("subscriptions/listen", params),
      },
    );
    expect(res.status).toBe(200);
    const events = await new SseReader(res).all();
    expect(events[0]?.json?.params).toMatchObject({ authorizedUntil: new Date(exp * 1000).toISOString() });
    expect(events.at(-1)?.json).toMatchObject({ id: "lane", error: { code: -32028, data: { reason: "token_expiry" } } });
  });

  it("a 2026 listen stream of a client without the draft closes at expiry with no response (the draft's rule for it)", async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 2;
    const { stream } = await openListen({
      server: demoServer,
      notifications: { resourceSubscriptions: [longUri(10)] },
      subject: "bob",
      expiresAt,
    });
    expect(await stream.all()).toEqual([]);
  });
});

/** The object's end of a held stream in the test's hands: a socket pair whose server side the test drives. */
function heldPair(): { answer: Response; object: WebSocket } {
  const [client, object] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
  object.accept();
  return { answer: new Response(null, { status: 101, webSocket: client }), object };
}

describe("the Worker's end of a held stream", () => {
  it("writes nothing the object sends after the authorization's end, only the expiry frame", async () => {
    const { answer, object } = heldPair();
    const encoder = new TextEncoder();
    const res = await holdStream(answer, {
      keepAliveMs: 60_000,
      authorizedUntil: Date.now() + 300,
      expired: encoder.encode(": expired\n\n"),
    });
    object.send('event: message\ndata: {"n":1}\n\n');
    const stream = new SseReader(res);
    expect((await stream.next())?.json).toEqual({ n: 1 });
    const ended = new Promise((resolve) => object.addEventListener("close", resolve));
    await ended;
    // The Worker closed the object's socket at the expiry; a frame sent after it is never written.
    try {
      object.send('event: message\ndata: {"n":2}\n\n');
    } catch {
      // Already closed.
    }
    expect(await stream.all()).toEqual([]);
    expect(await res.text().catch(() => "")).toBe("");
  });

  it("answers the refusal when the object sends no first frame in time, and closes its socket", async () => {
    const { answer, object } = heldPair();
    const closed = new Promise((resolve) => object.addEventListener("close", resolve));
    const res = await holdStream(answer, {
      keepAliveMs: 60_000,
      awaitFirst: { refusal: () => new Response("not acknowledged", { status: 503 }), withinMs: 100 },
    });
    expect({ status: res.status, text: await res.text() }).toEqual({ status: 503, text: "not acknowledged" });
    await closed;
  });
});

describe("listen keys the hub keeps on the stream's socket", () => {
  const filter = { resourceSubscriptions: [longUri(1400)] };

  it("a 17 KB request id is refused with -32602 naming the limit (it was a 500)", async () => {
    const id = "i".repeat(17_000);
    const res = await listen({ server: demoServer, id, notifications: filter });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      jsonrpc: "2.0",
      id,
      error: {
        code: -32602,
        message: "subscriptions/listen: the request id is 17000 characters long; a listen request's id may be at most 1024",
      },
    });
  });

  it("a 15 KB id with a 1.4 KB filter is refused the same way (it hung without a response head)", async () => {
    const res = await listen({ server: demoServer, id: "i".repeat(15_000), notifications: filter });
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32602);
  });

  it("a long subject or route key is refused with -32602; a 1,024-character id with that filter is acknowledged", async () => {
    const subject = await listen({ server: demoServer, notifications: filter, subject: "s".repeat(2000) });
    expect(((await subject.json()) as { error: { message: string } }).error.message).toBe(
      "subscriptions/listen: the access token's subject is 2000 characters long; a listen stream's may be at most 1024",
    );
    const route = await listen({ server: demoServer, notifications: filter, features: { route: "r".repeat(5000) } });
    expect(((await route.json()) as { error: { code: number } }).error.code).toBe(-32602);
    const { stream, ack } = await openListen({
      server: demoServer,
      id: "i".repeat(1024),
      notifications: filter,
      subject: "s".repeat(1024),
    });
    expect(ack.params).toMatchObject({ notifications: filter });
    await stream.cancel();
  });
});

describe("the hub keeps what does not fit a socket's attachment elsewhere", () => {
  it("a 15 KB id beside a 1.4 KB filter, sent to a shard directly, is acknowledged (its filter stored) and delivered to", async () => {
    const hub = `attach-${crypto.randomUUID()}`;
    const uri = longUri(1400);
    const id = "i".repeat(15_000);
    const head = { id, keepAliveMs: 60_000, maxStreams: 10, at: { name: hub, index: 0 } };
    const answer = await hubStubOf(hub).fetch(
      HUB_LISTEN_URL,
      upgradeInit({ method: "GET", headers: { [HEADER_LISTEN_OPEN]: JSON.stringify(head) } }),
    );
    const refused = () => new Response("not acknowledged", { status: 503 });
    const res = await holdStream(answer, {
      keepAliveMs: 60_000,
      first: JSON.stringify({ resourceSubscriptions: [uri] }),
      awaitFirst: { refusal: refused, withinMs: 2_000 },
    });
    expect(res.status).toBe(200);
    const stream = new SseReader(res);
    expect((await stream.next())?.json?.method).toBe("notifications/subscriptions/acknowledged");
    await publish(edgeEnv, { type: "resourceUpdated", uri }, { shard: hub, shards: 1 });
    expect((await stream.next())?.json).toMatchObject({ method: "notifications/resources/updated", params: { uri } });
    await stream.cancel();
  });
});
