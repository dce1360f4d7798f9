/**
 * A session belongs to the principal that created it (2025-06-18 Security Best Practices >
 * Session Hijacking). Another principal's valid token on that session id is answered 404
 * "session not found" — as if the session did not exist, so the id leaks nothing — on every
 * lane: simple POST (the Worker's confirm), interactive POST, GET and DELETE (the session
 * object), and the legacy transport. The object enforces it itself, from a principal only the
 * Worker can set; a client-supplied principal header never reaches it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { SESSION_NOT_FOUND } from "../../src/jsonrpc/errors";
import { encodePrincipal, HEADER_PRINCIPAL } from "../../durable-objects/sessions/contract";
import type { SessionState } from "../../src/mcp/definition/context";
import { expectAccepted, expectResult, expectRpcError } from "../helpers/rpc-expect";
import { sessionStub } from "../helpers/session";
import { SseReader } from "../helpers/sse";
import { ACCEPT_BOTH } from "../helpers/mcp";
import {
  accessToken,
  authOptions,
  bearer,
  edgeFetch,
  jwksOf,
  MCP_URL,
  ORIGIN,
  openAuthSession,
  PING,
  postTo,
  signingKey,
  type Fetch,
  type SigningKey,
} from "./fixtures";

let key: SigningKey;
let fetch: Fetch;
let alice: string;
let bob: string;

const V = "2025-06-18";
const inSession = (sessionId: string, token: string) => ({ ...bearer(token), "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": V });
const interactiveCall = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "test_tool_with_logging", arguments: {} } };

beforeAll(async () => {
  key = await signingKey("k1");
  fetch = edgeFetch({ auth: authOptions(jwksOf(key)) });
  alice = await accessToken(key, { sub: "alice" });
  bob = await accessToken(key, { sub: "bob" });
});

describe("the session records its creator", () => {
  it("stores the subject of the principal that sent initialize", async () => {
    const sessionId = await openAuthSession(fetch, alice);
    const state = (await sessionStub(sessionId).confirm("alice")) as SessionState | null;
    expect(state?.subject).toBe("alice");
  });

  it("confirms the session only for its creator", async () => {
    const sessionId = await openAuthSession(fetch, alice);
    expect(await sessionStub(sessionId).confirm("bob")).toBeNull();
    expect(await sessionStub(sessionId).confirm()).toBeNull();
  });
});

describe("another principal's valid token is answered 404", () => {
  it("on a simple POST (Worker lane)", async () => {
    const sessionId = await openAuthSession(fetch, alice);
    await expectRpcError(await postTo(fetch, PING, inSession(sessionId, bob)), 404, SESSION_NOT_FOUND);
    expect(await expectResult(await postTo(fetch, PING, inSession(sessionId, alice)))).toEqual({});
  });

  it("on an interactive POST (session object lane)", async () => {
    const sessionId = await openAuthSession(fetch, alice);
    await expectRpcError(await postTo(fetch, interactiveCall, inSession(sessionId, bob)), 404, SESSION_NOT_FOUND);
    const own = await postTo(fetch, interactiveCall, inSession(sessionId, alice));
    expect(own.headers.get("Content-Type")).toBe("text/event-stream");
    const reader = new SseReader(own);
    let last: Awaited<ReturnType<SseReader["next"]>>;
    for (let e = await reader.next(); e; e = await reader.next()) last = e;
    expect(last?.json?.id).toBe(7);
  });

  it("on a notification POST (session object lane)", async () => {
    const sessionId = await openAuthSession(fetch, alice);
    const note = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 99 } };
    await expectRpcError(await postTo(fetch, note, inSession(sessionId, bob)), 404, SESSION_NOT_FOUND);
    await expectAccepted(await postTo(fetch, note, inSession(sessionId, alice)));
  });

  it("on GET", async () => {
    const sessionId = await openAuthSession(fetch, alice);
    const get = (token: string) =>
      fetch(MCP_URL, { method: "GET", headers: { Accept: "text/event-stream", ...inSession(sessionId, token) } });
    await expectRpcError(await get(bob), 404, SESSION_NOT_FOUND);
    const own = await get(alice);
    expect(own.status).toBe(200);
    await own.body?.cancel();
  });

  it("on DELETE, which leaves the session alive", async () => {
    const sessionId = await openAuthSession(fetch, alice);
    await expectRpcError(await fetch(MCP_URL, { method: "DELETE", headers: inSession(sessionId, bob) }), 404, SESSION_NOT_FOUND);
    expect(await expectResult(await postTo(fetch, PING, inSession(sessionId, alice)))).toEqual({});
    expect((await fetch(MCP_URL, { method: "DELETE", headers: inSession(sessionId, alice) })).status).toBe(204);
  });

  it("even when the other principal sends the creator's principal header", async () => {
    const sessionId = await openAuthSession(fetch, alice);
    const forged = { [HEADER_PRINCIPAL]: encodePrincipal({ subject: "alice", scopes: ["mcp"], claims: {} }) };
    await expectRpcError(await postTo(fetch, interactiveCall, { ...inSession(sessionId, bob), ...forged }), 404, SESSION_NOT_FOUND);
    await expectRpcError(await postTo(fetch, PING, { ...inSession(sessionId, bob), ...forged }), 404, SESSION_NOT_FOUND);
  });

  it("and a new token of the same subject keeps working (the binding is the subject, not the token)", async () => {
    const sessionId = await openAuthSession(fetch, alice);
    const again = await accessToken(key, { sub: "alice", jti: "second" });
    expect(await expectResult(await postTo(fetch, PING, inSession(sessionId, again)))).toEqual({});
  });
});

describe("the session object enforces the binding itself", () => {
  const body = JSON.stringify(interactiveCall);
  const direct = (sessionId: string, headers: Record<string, string>) =>
    sessionStub(sessionId).fetch(
      new Request(MCP_URL, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, "Mcp-Session-Id": sessionId, ...headers },
        body,
      }),
    );

  it("answers 404 to a forwarded request without a principal", async () => {
    const sessionId = await openAuthSession(fetch, alice);
    await expectRpcError(await direct(sessionId, {}), 404, SESSION_NOT_FOUND);
  });

  it("answers 404 to another principal and an unreadable principal", async () => {
    const sessionId = await openAuthSession(fetch, alice);
    await expectRpcError(
      await direct(sessionId, { [HEADER_PRINCIPAL]: encodePrincipal({ subject: "bob", scopes: [], claims: {} }) }),
      404,
      SESSION_NOT_FOUND,
    );
    await expectRpcError(await direct(sessionId, { [HEADER_PRINCIPAL]: "%7Bnot-json" }), 404, SESSION_NOT_FOUND);
  });

  it("serves the creator's principal", async () => {
    const sessionId = await openAuthSession(fetch, alice);
    const res = await direct(sessionId, { [HEADER_PRINCIPAL]: encodePrincipal({ subject: "alice", scopes: ["mcp"], claims: {} }) });
    expect(res.status).toBe(200);
    await res.body?.cancel();
  });
});

describe("the legacy HTTP+SSE transport", () => {
  /** Opens GET /sse and reads the endpoint event (plain text, so not through SseReader, which parses JSON). */
  async function openLegacy(token: string): Promise<{ endpoint: string; response: Response }> {
    const response = await fetch(`${ORIGIN}/sse`, { method: "GET", headers: { Accept: "text/event-stream", ...bearer(token) } });
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let text = "";
    while (!text.includes("\n\n")) text += new TextDecoder().decode((await reader.read()).value);
    reader.releaseLock();
    expect(text).toMatch(/^event: endpoint\n/);
    return { endpoint: /data: (.*)\n/.exec(text)?.[1] ?? "", response };
  }

  it("refuses another principal's POST to the session's endpoint with 404", async () => {
    const { endpoint, response } = await openLegacy(alice);
    const init = {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    await expectRpcError(await postTo(fetch, init, bearer(bob), `${ORIGIN}${endpoint}`), 404, SESSION_NOT_FOUND);
    expect((await postTo(fetch, init, bearer(alice), `${ORIGIN}${endpoint}`)).status).toBe(202);
    await response.body?.cancel();
  });
});

describe("without auth", () => {
  it("removes a client-supplied principal header before it reaches the session object", async () => {
    const plain = edgeFetch({});
    const res = await postTo(plain, {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: V, capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    const sessionId = res.headers.get("Mcp-Session-Id") as string;
    const forged = {
      [HEADER_PRINCIPAL]: encodePrincipal({ subject: "mallory", scopes: [], claims: {} }),
      "Mcp-Session-Id": sessionId,
      "MCP-Protocol-Version": V,
    };
    // Had the header reached the object, it would see a principal the unbound session does not have, and answer 404.
    const call = await postTo(plain, interactiveCall, forged);
    expect(call.status).toBe(200);
    await call.body?.cancel();
    const get = await plain(MCP_URL, { method: "GET", headers: { Accept: "text/event-stream", ...forged } });
    expect(get.status).toBe(200);
    await get.body?.cancel();
  });
});
