/**
 * Rate limits on Workers' Rate Limiting binding (Miniflare simulates `[[ratelimits]]`): the call
 * over a rule's limit gets HTTP 429 with Retry-After and a JSON-RPC error carrying its id, in
 * every place a call runs, and nothing runs (no handler, no session object work, no task).
 */
import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { request } from "../helpers/mcp";
import { inOneWindow } from "../helpers/rate-window";
import { envelope, headers2026, toolCall2026 } from "../helpers/era-2026";
import { startSession } from "../helpers/session";
import { misconfigured, trail } from "../servers/operate/entry";
import { callIn, PLACES, postRpc, textOf, toolFor, type Answer } from "../operate/helpers";

let address = 0;
/** A client address of its own: each test spends a fresh budget. */
function client(): Record<string, string> {
  address++;
  return { "CF-Connecting-IP": `192.0.2.${address}` };
}

describe.each(PLACES)("a rate limit in the %s", (place) => {
  /** Three calls that run, then a fourth from the same client: its answer. */
  async function fourthCall(): Promise<Response> {
    const headers = client();
    const name = toolFor(place, "limited_");
    for (let i = 0; i < 3; i++) expect(textOf(await callIn(place, name, { headers }))).toMatch(/ran$/);
    trail.length = 0;

    const params = { name, arguments: {} };
    const modern = place === "worker 2026" || place === "task run";
    const meta = modern ? envelope(place === "task run" ? { extensions: { "io.modelcontextprotocol/tasks": {} } } : {}) : undefined;
    const session = modern ? {} : await sessionHeaders();
    const res = await postRpc(
      { jsonrpc: "2.0", id: 41, method: "tools/call", params: { ...params, _meta: meta } },
      { ...(modern ? headers2026("tools/call", params) : session), ...headers },
    );
    return res;
  }

  it("answers the 4th call over 3 per minute with 429, Retry-After and the request's id; the handler never runs", async () => {
    const res = await inOneWindow(60, fourthCall);
    const modern = place === "worker 2026" || place === "task run";
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBe("60");
    const body = (await res.json()) as Answer & { id: number };
    expect(body.id).toBe(41);
    // The limit code of the request's era: -32003 (2025), -31003 (2026-07-28).
    expect(body.error).toMatchObject({ code: modern ? -31003 : -32003, data: { retryAfterSeconds: 60 } });
    expect(trail).toEqual([]);
  });

  it("counts each client apart: another address still gets through", async () => {
    const name = toolFor(place, "limited_");
    const first = client();
    for (let i = 0; i < 4; i++) await callIn(place, name, { headers: first });
    expect(textOf(await callIn(place, name, { headers: client() }))).toMatch(/ran$/);
  });
});

let sessionId: Record<string, string> | undefined;
async function sessionHeaders(): Promise<Record<string, string>> {
  if (sessionId) return sessionId;
  const s = await startSession("2025-11-25");
  sessionId = { "Mcp-Session-Id": s.sessionId, "MCP-Protocol-Version": s.version };
  return sessionId;
}

describe("a rate limit on the 2024-11-05 HTTP+SSE transport", () => {
  it("answers the POST of the 4th call over the limit with 429 before it reaches the session object", async () => {
    const headers = client();
    const stream = await request("http://127.0.0.1:8787/sse", { method: "GET", headers: { Accept: "text/event-stream", ...headers } });
    expect(stream.status).toBe(200);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    let text = "";
    while (!text.includes("\n\n")) text += new TextDecoder().decode((await reader.read()).value);
    const endpoint = `http://127.0.0.1:8787${/data: (.*)\n/.exec(text)?.[1] ?? ""}`;
    // The answers arrive on the stream: keep reading it.
    const drained = (async () => {
      while (!(await reader.read().catch(() => ({ done: true }))).done);
    })();
    const send = (body: Record<string, unknown>) => postTo(endpoint, body, headers);
    const init = { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "t", version: "1" } };
    expect((await send({ jsonrpc: "2.0", id: 0, method: "initialize", params: init })).status).toBe(202);
    const call = (id: number) => send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "limited_simple", arguments: {} } });
    for (let id = 1; id <= 3; id++) expect((await call(id)).status).toBe(202);
    const refused = await call(4);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe("60");
    expect(((await refused.json()) as { id: number }).id).toBe(4);
    await reader.cancel();
    await drained;
  });
});

/** POSTs to the legacy transport's endpoint. */
function postTo(url: string, body: Record<string, unknown>, headers: Record<string, string>): Promise<Response> {
  return request(url, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });
}

describe("rate limit rules", () => {
  it("count only the calls they match", async () => {
    const headers = client();
    for (let i = 0; i < 5; i++) expect(textOf(await callIn("worker 2026", "simple", { headers }))).toBe("simple ran");
  });

  it("use the rule's key and period: two calls per tenant per ten seconds, whatever the address", async () => {
    const res = await inOneWindow(10, async () => {
      const tenant = { "X-Tenant": `acme-${crypto.randomUUID().slice(0, 8)}` };
      await callIn("worker 2026", "tenant_limited_simple", { headers: { ...tenant, ...client() } });
      await callIn("worker 2026", "tenant_limited_simple", { headers: { ...tenant, ...client() } });
      const params = { name: "tenant_limited_simple", arguments: {} };
      return postRpc(
        { jsonrpc: "2.0", id: 9, method: "tools/call", params: { ...params, _meta: envelope() } },
        { ...headers2026("tools/call", params), ...tenant, ...client() },
      );
    });
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBe("10");
    const other = await callIn("worker 2026", "tenant_limited_simple", {
      headers: { "X-Tenant": `globex-${crypto.randomUUID().slice(0, 8)}` },
    });
    expect(textOf(other)).toBe("simple ran");
  });

  it("a rule whose binding is missing fails with 500 naming the wrangler.toml lines", async () => {
    const request = toolCall2026("simple");
    const res = await misconfigured.worker.fetch(request, env as never, createExecutionContext());
    expect(res.status).toBe(500);
    const body = (await res.json()) as Answer;
    expect(body.error?.message).toContain("[[ratelimits]]");
    expect(body.error?.message).toContain('name = "NO_SUCH_LIMIT"');
    expect(body.error?.data).toMatchObject({ missingBinding: "NO_SUCH_LIMIT" });
  });
});
