/**
 * The built-in authorization server's token revocation (RFC 7009 at /oauth/token) ends the
 * revoked user's streams at once (src/auth/revocation.ts, issue 43 item 4), on the demo Worker as
 * wrangler.auth.toml configures it: a client signs in, holds a 2025 GET stream and a 2026 listen
 * stream, revokes its refresh token (the grant), and both streams end; a revocation naming a
 * made-up token of that user answers 200 as RFC 7009 asks and ends nothing. Every wait is on an
 * event of the stream, never a timer.
 */
import { env, exports } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { publishAndCount } from "../../src/publish";
import type { EdgeEnv } from "../../src/kernel/env";
import { envelope, headers2026 } from "../helpers/era-2026";
import { ACCEPT_BOTH, initializeParams } from "../helpers/mcp";
import { SseReader } from "../helpers/sse";

const worker = (exports as unknown as { default: Fetcher }).default;
const ORIGIN = "http://127.0.0.1:8787";
const RESOURCE = `${ORIGIN}/mcp`;
const CLIENT_ID = "https://app.example.test/client.json";
const REDIRECT = "http://127.0.0.1:9/oauth/callback";
// PKCE (S256): RFC 7636 appendix B's verifier and its challenge.
const VERIFIER = "dBjftJeZ4CVP-mJ92ZS8ZDw6Wq5zV9yJ8W9f8rT0QFE";
const CHALLENGE = "k35XxJHzKzC-WLvsvHqXxTf_JFhvQQPvQLc9oItMkAk";
const V = "2025-06-18";

function call(path: string, init: RequestInit = {}): Promise<Response> {
  return worker.fetch(`${ORIGIN}${path}`, { redirect: "manual", ...init });
}

function form(path: string, fields: Record<string, string>): Promise<Response> {
  return call(path, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
}

/** Signs in through the consent page as the demo user; the access and refresh tokens. */
async function signIn(): Promise<{ access: string; refresh: string }> {
  const query = new URLSearchParams({
    response_type: "code",
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT,
    code_challenge: CHALLENGE,
    code_challenge_method: "S256",
    state: "st-1",
    scope: "mcp",
    resource: RESOURCE,
  });
  const page = await call(`/authorize?${query}`);
  const html = await page.text();
  expect(page.status, html).toBe(200);
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1] as string;
  const approved = await call(`/authorize?${query}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body: new URLSearchParams({ handle, decision: "approve", scope: "mcp" }),
  });
  const code = new URL(approved.headers.get("Location") as string).searchParams.get("code") as string;
  const token = await form("/oauth/token", {
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT,
    client_id: CLIENT_ID,
    code_verifier: VERIFIER,
    resource: RESOURCE,
  });
  const body = (await token.json()) as { access_token: string; refresh_token: string };
  expect(token.status, JSON.stringify(body)).toBe(200);
  return { access: body.access_token, refresh: body.refresh_token };
}

function mcp(token: string, body: unknown, headers: Record<string, string> = {}, method = "POST"): Promise<Response> {
  return worker.fetch(RESOURCE, {
    method,
    headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, Authorization: `Bearer ${token}`, ...headers },
    body: method === "POST" ? JSON.stringify(body) : undefined,
  });
}

/** A 2025 session subscribed to `uri` and its GET stream; a 2026 listen stream following `uri` (after its acknowledgement). */
async function openStreams(token: string, uri: string): Promise<{ get: Response; listen: SseReader }> {
  const init = await mcp(token, { jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams(V) });
  expect(init.status).toBe(200);
  const inSession = { "Mcp-Session-Id": init.headers.get("Mcp-Session-Id") as string, "MCP-Protocol-Version": V };
  expect((await mcp(token, { jsonrpc: "2.0", method: "notifications/initialized" }, inSession)).status).toBe(202);
  const subscribed = await mcp(token, { jsonrpc: "2.0", id: 1, method: "resources/subscribe", params: { uri } }, inSession);
  expect(await subscribed.json()).toMatchObject({ result: {} });
  const get = await mcp(token, undefined, { ...inSession, Accept: "text/event-stream" }, "GET");
  expect(get.status).toBe(200);
  const params = { _meta: envelope(), notifications: { resourceSubscriptions: [uri] } };
  const res = await mcp(
    token,
    { jsonrpc: "2.0", id: "listen", method: "subscriptions/listen", params },
    headers2026("subscriptions/listen", params),
  );
  expect(res.status).toBe(200);
  const listen = new SseReader(res);
  expect((await listen.next())?.json?.method).toBe("notifications/subscriptions/acknowledged");
  return { get, listen };
}

beforeEach(async () => {
  await fetch("https://app.example.test/__reset");
});

// Signing in through the consent page and the client's metadata document takes seconds on a loaded machine.
describe("revoking a grant at the built-in authorization server's token endpoint", { timeout: 20_000 }, () => {
  it("ends the user's 2025 GET stream and 2026 listen stream at once, and the token no longer opens /mcp", async () => {
    const { access, refresh } = await signIn();
    const { get, listen } = await openStreams(access, `test://template/revoked-${crypto.randomUUID()}/data`);

    const revoked = await form("/oauth/token", { token: refresh, token_type_hint: "refresh_token", client_id: CLIENT_ID });
    expect(revoked.status).toBe(200);

    // The listen stream ends with no response (this client did not declare the draft), its reason in a comment.
    expect(await listen.all()).toEqual([]);
    expect((await get.text()).endsWith(": authorization ended: the grant was revoked\nretry: 1000\n\n")).toBe(true);
    expect((await mcp(access, { jsonrpc: "2.0", id: 2, method: "ping" })).status).toBe(401);
  });

  it("a revocation naming a made-up token of that user answers 200 and ends none of its streams", async () => {
    const { access } = await signIn();
    const uri = `test://template/kept-${crypto.randomUUID()}/data`;
    const { get, listen } = await openStreams(access, uri);
    const user = access.split(":")[0] as string;

    const forged = await form("/oauth/token", { token: `${user}:no-such-grant:x`, client_id: CLIENT_ID });
    expect(forged.status).toBe(200);

    // Both streams still deliver what is published after it.
    expect(await publishAndCount(env as unknown as EdgeEnv, { type: "resourceUpdated", uri })).toEqual({ listenStreams: 1, sessions: 1 });
    expect((await listen.next())?.json).toMatchObject({ method: "notifications/resources/updated", params: { uri } });
    expect((await new SseReader(get).next())?.json).toMatchObject({ method: "notifications/resources/updated", params: { uri } });
  });
});
