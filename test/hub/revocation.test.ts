import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { endStreamsOf } from "../../src/platform/end-streams";
import { publishAndCount } from "../../src/features/hub/publish";
import { DEFAULT_HUB_SHARDS } from "../../src/platform/addresses";
import { envelope, headers2026 } from "../helpers/era-2026";
import { SseReader } from "../helpers/sse";
import { edgeEnv, hubRegistrations, hubStubOf } from "../helpers/listen";
import {
  accessToken,
  authOptions,
  bearer,
  edgeFetch,
  jwksOf,
  MCP_URL,
  ORIGIN,
  openAuthSession,
  postTo,
  signingKey,
  type Fetch,
} from "../auth/fixtures";

const V = "2025-06-18";
const LIFETIME = { experimental: { "io.modelcontextprotocol/subscription-lifetime": {} } };

/** A Worker behind JWT auth, and a token for each of two principals. */
async function twoPrincipals(): Promise<{ fetch: Fetch; alice: Record<string, string>; bob: Record<string, string> }> {
  const key = await signingKey(`k-${crypto.randomUUID()}`);
  const fetch = edgeFetch({ auth: authOptions(jwksOf(key)) });
  return { fetch, alice: bearer(await accessToken(key, { sub: "alice" })), bob: bearer(await accessToken(key, { sub: "bob" })) };
}

/** A 2026 listen stream through the Worker's lane, following `uri`; the reader after its acknowledgement. */
async function listenOn(fetch: Fetch, headers: Record<string, string>, id: string, uri: string, capabilities = {}): Promise<SseReader> {
  const params = { _meta: envelope(capabilities), notifications: { resourceSubscriptions: [uri] } };
  const res = await postTo(
    fetch,
    { jsonrpc: "2.0", id, method: "subscriptions/listen", params },
    { ...headers, ...headers2026("subscriptions/listen", params) },
  );
  expect(res.status).toBe(200);
  const stream = new SseReader(res);
  expect((await stream.next())?.json?.method).toBe("notifications/subscriptions/acknowledged");
  return stream;
}

/** A 2025 session of `headers`' principal subscribed to `uri`, and its standalone GET stream. */
async function getStreamOf(fetch: Fetch, headers: Record<string, string>, uri: string): Promise<{ sessionId: string; res: Response }> {
  const sessionId = await openAuthSession(fetch, headers.Authorization!.slice("Bearer ".length));
  const inSession = { ...headers, "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": V };
  const subscribed = await postTo(fetch, { jsonrpc: "2.0", id: 1, method: "resources/subscribe", params: { uri } }, inSession);
  expect(await subscribed.json()).toMatchObject({ result: {} });
  const res = await fetch(MCP_URL, { method: "GET", headers: { ...inSession, Accept: "text/event-stream" } });
  expect(res.status).toBe(200);
  return { sessionId, res };
}

/** Whether any shard of the server's hub holds an alarm. */
async function hubAlarms(): Promise<(number | null)[]> {
  return Promise.all(
    Array.from({ length: DEFAULT_HUB_SHARDS }, (_, i) =>
      runInDurableObject(hubStubOf(undefined, i), (_o, state) => state.storage.getAlarm()),
    ),
  );
}

describe("revoking a principal's grant", () => {
  it("ends its 2026 listen stream and its 2025 GET stream at once; another principal's streams go on", async () => {
    const { fetch, alice, bob } = await twoPrincipals();
    const uri = `test://template/revoke-${crypto.randomUUID()}/data`;
    // Alice's listen stream follows another URI: the count below never races her socket's close at the hub.
    const aliceListen = await listenOn(fetch, alice, "alice-listen", `${uri}-alice`, LIFETIME);
    const aliceGet = await getStreamOf(fetch, alice, uri);
    const bobListen = await listenOn(fetch, bob, "bob-listen", uri);
    const bobGet = await getStreamOf(fetch, bob, uri);

    expect(await endStreamsOf(edgeEnv, "alice")).toEqual({ listenStreams: 1, sessions: 1 });

    // Alice's listen stream ends with the draft's AuthorizationEnded (she declared it), reason "revoked".
    expect((await aliceListen.all()).map((e) => e.json)).toEqual([
      {
        jsonrpc: "2.0",
        id: "alice-listen",
        error: { code: -32028, message: "Authorization ended: the grant was revoked; authorize again", data: { reason: "revoked" } },
      },
    ]);
    // Her GET stream ends with the reason as a comment and a retry field (her next GET gets 401).
    const ended = await aliceGet.res.text();
    expect(ended.endsWith(": authorization ended: the grant was revoked\nretry: 1000\n\n")).toBe(true);

    // Bob's streams still deliver; alice's listen stream is gone from the hub. (Her session stays hers:
    // it stores the update for her GET stream to replay once she authorizes again.)
    expect(await publishAndCount(edgeEnv, { type: "resourceUpdated", uri })).toEqual({ listenStreams: 1, sessions: 2 });
    expect((await bobListen.next())?.json).toMatchObject({ method: "notifications/resources/updated", params: { uri } });
    expect((await new SseReader(bobGet.res).next())?.json).toMatchObject({ method: "notifications/resources/updated", params: { uri } });
  });

  it("ends its 2024-11-05 /sse stream with the reason as a comment", async () => {
    const { fetch, alice } = await twoPrincipals();
    const res = await fetch(`${ORIGIN}/sse`, { headers: { ...alice, Accept: "text/event-stream" } });
    expect(res.status).toBe(200);
    expect(await endStreamsOf(edgeEnv, "alice")).toMatchObject({ sessions: 1 });
    const text = await res.text();
    expect(text.startsWith("event: endpoint\n")).toBe(true);
    expect(text.endsWith(": authorization ended: the grant was revoked\n\n")).toBe(true);
  });

  it("costs one registration row per session, no alarm on any shard, and the session's end removes the row", async () => {
    const { fetch, alice } = await twoPrincipals();
    const sessionId = await openAuthSession(fetch, alice.Authorization!.slice("Bearer ".length));
    const inSession = { ...alice, "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": V };
    const first = await fetch(MCP_URL, { method: "GET", headers: { ...inSession, Accept: "text/event-stream" } });
    // A second GET stream of the same session registers nothing more.
    const again = await fetch(MCP_URL, { method: "GET", headers: { ...inSession, Accept: "text/event-stream" } });
    expect([first.status, again.status]).toEqual([200, 200]);
    const rows = async () => (await hubRegistrations()).filter((row) => row.session_id === sessionId).map((row) => row.topic);
    expect(await rows()).toEqual(["subject:alice"]);
    expect((await hubAlarms()).filter((alarm) => alarm !== null)).toEqual([]);
    await endStreamsOf(edgeEnv, "alice");
    await again.text();
    await first.body?.cancel();
    // The session's end removes its registration (it subscribed to nothing, so only the subject's shard is asked).
    expect((await fetch(MCP_URL, { method: "DELETE", headers: inSession })).status).toBe(204);
    expect(await rows()).toEqual([]);
  });
});
