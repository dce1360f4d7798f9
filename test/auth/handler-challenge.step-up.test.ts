/**
 * Step-up and re-authentication from a handler (test/servers/step-up): `needScopes()` becomes 403
 * insufficient_scope and `reauthenticate()` 401 invalid_token, with the whole WWW-Authenticate
 * (resource_metadata, the complete scope set, error, error_description), on both eras, in the
 * Worker and in the session object, before any content is written. Once a stream's 200 is sent
 * (a 2025 session's SSE call, a 2026 call that streamed progress), the same JSON-RPC error
 * carries that challenge in `data` (docs/auth.md "Step-up and re-authentication").
 */
import { createExecutionContext } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createMcpEdge, defineServer, needScopes } from "../../src/index";
import { AUTHORIZATION_REQUIRED, AUTHORIZATION_REQUIRED_2026 } from "../../src/jsonrpc/errors";
import { envelope, headers2026 } from "../helpers/era-2026";
import { ACCEPT_BOTH, initializeParams } from "../helpers/mcp";
import { SseReader } from "../helpers/sse";

const worker = (exports as unknown as { default: Fetcher }).default;
const MCP_URL = "https://mcp.example.com/mcp";
const METADATA = 'resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"';
const BASELINE = "mcp:conformance:baseline";
const READER = `user:ada:${BASELINE}+files:read`;

function call2026(name: string, token: string, meta: Record<string, unknown> = {}): Promise<Response> {
  const params = { name, arguments: {} };
  return worker.fetch(MCP_URL, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: ACCEPT_BOTH,
      Authorization: `Bearer ${token}`,
      ...headers2026("tools/call", params),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { ...params, _meta: envelope({}, meta) } }),
  });
}

async function openSession(token: string): Promise<string> {
  const res = await worker.fetch(MCP_URL, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, Authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams("2025-06-18") }),
  });
  expect(res.status).toBe(200);
  return res.headers.get("Mcp-Session-Id") as string;
}

async function call2025(token: string, name: string, meta?: Record<string, unknown>): Promise<Response> {
  const sessionId = await openSession(token);
  return worker.fetch(MCP_URL, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: ACCEPT_BOTH,
      Authorization: `Bearer ${token}`,
      "Mcp-Session-Id": sessionId,
      "MCP-Protocol-Version": "2025-06-18",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name, arguments: {}, ...(meta ? { _meta: meta } : {}) },
    }),
  });
}

const ERAS = [
  { era: "2026-07-28", call: (name: string, token: string) => call2026(name, token) },
  { era: "2025-06-18 session", call: (name: string, token: string) => call2025(token, name) },
];

describe("needScopes() from a handler", () => {
  for (const { era, call } of ERAS) {
    it(`${era}: 403 insufficient_scope with the complete set, the description and the metadata`, async () => {
      const res = await call("write_file", READER);
      expect(res.status).toBe(403);
      expect(res.headers.get("WWW-Authenticate")).toBe(
        `Bearer ${METADATA}, error="insufficient_scope", error_description="writing files needs files:write", ` +
          `scope="${BASELINE} files:read files:write"`,
      );
    });

    it(`${era}: the retry with the scope succeeds`, async () => {
      const res = await call("write_file", `${READER}+files:write`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ result: { content: [{ type: "text", text: "written by ada" }] } });
    });
  }
});

describe("reauthenticate() from a handler", () => {
  for (const { era, call } of ERAS) {
    it(`${era}: 401 invalid_token naming the scopes to sign in with again`, async () => {
      const res = await call("upstream", `user:ada:${BASELINE}`);
      expect(res.status).toBe(401);
      expect(res.headers.get("WWW-Authenticate")).toBe(
        `Bearer ${METADATA}, error="invalid_token", error_description="the upstream grant was revoked; sign in again", scope="${BASELINE}"`,
      );
      expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { message: expect.stringMatching(/^Unauthorized/) } });
    });

    it(`${era}: after signing in again the call succeeds`, async () => {
      const res = await call("upstream", `user:ada+linked:${BASELINE}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ result: { content: [{ type: "text", text: "upstream ok for ada" }] } });
    });
  }
});

describe("once the stream's status is sent", () => {
  const inBand = (code: number) => ({
    jsonrpc: "2.0",
    id: 7,
    error: {
      code,
      message: "Forbidden: this operation needs the scope files:write",
      data: {
        status: 403,
        error: "insufficient_scope",
        error_description: "this operation needs the scope files:write",
        scope: `${BASELINE} files:write`,
        resource_metadata: "https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
        www_authenticate: `Bearer ${METADATA}, error="insufficient_scope", error_description="this operation needs the scope files:write", scope="${BASELINE} files:write"`,
      },
    },
  });

  it("2025 session, an SSE call: the progress, then a -32010 error carrying the challenge", async () => {
    const res = await call2025(`user:ada:${BASELINE}`, "write_after_progress", { progressToken: "p1" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/event-stream");
    const events: Record<string, unknown>[] = [];
    const reader = new SseReader(res);
    for (let event = await reader.next(); event; event = await reader.next()) if (event.json) events.push(event.json);
    expect(events[0]).toMatchObject({ method: "notifications/progress" });
    expect(events.at(-1)).toEqual(inBand(AUTHORIZATION_REQUIRED));
  });

  it("2026-07-28, a call that streamed its progress: a -31010 error carrying the challenge", async () => {
    const res = await call2026("write_after_progress", `user:ada:${BASELINE}`, { progressToken: "p1" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/event-stream");
    const events: Record<string, unknown>[] = [];
    const reader = new SseReader(res);
    for (let event = await reader.next(); event; event = await reader.next()) if (event.json) events.push(event.json);
    expect(events[0]).toMatchObject({ method: "notifications/progress" });
    expect(events.at(-1)).toEqual(inBand(AUTHORIZATION_REQUIRED_2026));
  });
});

describe("a server without auth", () => {
  const server = defineServer({ name: "no-auth", version: "1.0.0" })
    .tool("write_file", { description: "Asks for files:write" }, () => {
      throw needScopes(["files:write"]);
    })
    .interactiveTool("write_after_progress", { description: "Reports progress, then asks for files:write" }, async (_args, ctx) => {
      await ctx.progress(1, 2);
      throw needScopes(["files:write"]);
    });
  const edge = createMcpEdge(server, { sessions: false, allowedHosts: ["mcp.example.com"] });
  const call = (name: string, meta: Record<string, unknown> = {}) => {
    const params = { name, arguments: {} };
    const request = new Request(MCP_URL, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, ...headers2026("tools/call", params) },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { ...params, _meta: envelope({}, meta) } }),
    });
    return edge.worker.fetch(request, { MCP_STATE_SECRET: "test-only-state-secret-0123456789abcdef" }, createExecutionContext());
  };
  const error = {
    code: AUTHORIZATION_REQUIRED_2026,
    message: "Forbidden: this operation needs the scope files:write",
    data: {
      status: 403,
      error: "insufficient_scope",
      error_description: "this operation needs the scope files:write",
      scope: "files:write",
    },
  };

  it("answers a JSON call with the error as the handler made it (there is no challenge to give)", async () => {
    const res = await call("write_file");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ jsonrpc: "2.0", id: 7, error });
  });

  it("ends a streamed call with that error too", async () => {
    const res = await call("write_after_progress", { progressToken: "p1" });
    const events: Record<string, unknown>[] = [];
    const reader = new SseReader(res);
    for (let event = await reader.next(); event; event = await reader.next()) if (event.json) events.push(event.json);
    expect(events.at(-1)).toEqual({ jsonrpc: "2.0", id: 7, error });
  });
});
