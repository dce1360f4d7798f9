/**
 * What handlers see and what each operation needs: the verified principal (subject, scopes,
 * claims, client) reaches a handler's context — never the raw token — and per-tool and
 * per-resource scopes are checked before anything runs or is forwarded: 403 insufficient_scope
 * naming every scope the operation needs, on the Worker lane, the session object lane, batches
 * and the legacy endpoint.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { TRANSPORT_ERROR } from "../../src/jsonrpc/errors";
import { defineServer } from "../../src/mcp/definition/server";
import { text } from "../../src/mcp/definition/content";
import type { McpServer } from "../../src/mcp/definition/server";
import { expectResult, expectRpcError } from "../helpers/rpc-expect";
import {
  accessToken,
  authOptions,
  bearer,
  challengeOf,
  edgeFetch,
  jwksOf,
  MCP_URL,
  METADATA_URL,
  ORIGIN,
  openAuthSession,
  postTo,
  signingKey,
  type Fetch,
  type SigningKey,
} from "./fixtures";

const STATELESS = `${ORIGIN}/stateless/mcp`;
let key: SigningKey;

beforeAll(async () => {
  key = await signingKey("k1");
});

const call = (name: string, args: Record<string, unknown> = {}, id: number | string = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});
const read = (uri: string, id = 1) => ({ jsonrpc: "2.0", id, method: "resources/read", params: { uri } });

describe("the principal in a handler's context", () => {
  const whoami = defineServer({ name: "whoami", version: "1" });
  whoami.tool("whoami", { description: "who is calling" }, async (_args, ctx) => ({
    content: [text(JSON.stringify({ principal: ctx.principal, sessionSubject: ctx.session?.subject ?? null }))],
  }));
  const server = whoami as unknown as McpServer<never>;

  async function whoamiAs(
    fetch: Fetch,
    token: string,
    headers: Record<string, string> = {},
    url = MCP_URL,
  ): Promise<Record<string, unknown>> {
    const result = await expectResult(await postTo(fetch, call("whoami"), { ...bearer(token), ...headers }, url));
    return JSON.parse((result.content as { text: string }[])[0]?.text ?? "{}") as Record<string, unknown>;
  }

  it("carries subject, scopes, client and claims, and never the token", async () => {
    const fetch = edgeFetch({ sessions: false, path: "/stateless/mcp", auth: authOptions(jwksOf(key)) }, server);
    const token = await accessToken(key, { sub: "alice", scope: "mcp files:read", client_id: "client-1", name: "Alice" });
    const seen = await whoamiAs(fetch, token, {}, STATELESS);
    expect(seen.principal).toMatchObject({
      subject: "alice",
      scopes: ["mcp", "files:read"],
      clientId: "client-1",
      claims: { sub: "alice", name: "Alice", iss: "https://auth.example.com" },
    });
    expect(JSON.stringify(seen)).not.toContain(token);
    expect(JSON.stringify(seen)).not.toContain(token.split(".")[2]);
  });

  it("is the same in a session, whose info names its creator", async () => {
    const fetch = edgeFetch({ auth: authOptions(jwksOf(key)) }, server);
    const token = await accessToken(key, { sub: "carol" });
    const sessionId = await openAuthSession(fetch, token);
    const seen = await whoamiAs(fetch, token, { "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "2025-06-18" });
    expect(seen).toMatchObject({ principal: { subject: "carol" }, sessionSubject: "carol" });
  });

  it("is undefined without auth", async () => {
    const fetch = edgeFetch({ sessions: false, path: "/stateless/mcp" }, server);
    const seen = await whoamiAs(fetch, "ignored", {}, STATELESS);
    expect(seen).toEqual({ sessionSubject: null });
  });
});

describe("per-tool and per-resource scopes", () => {
  let fetch: Fetch;

  beforeAll(() => {
    fetch = edgeFetch({
      statelessPath: "/stateless/mcp",
      auth: authOptions(jwksOf(key), {
        toolScopes: { add: ["math"], test_tool_with_logging: ["logs"] },
        resourceScopes: { "test://static-text": ["docs"], "test://template/*": ["templates"] },
      }),
    });
  });

  it("refuses a tool call without the tool's scope: 403 naming baseline and tool scopes", async () => {
    const res = await postTo(fetch, call("add", { a: 1, b: 2 }), bearer(await accessToken(key)), STATELESS);
    await expectRpcError(res, 403, TRANSPORT_ERROR);
    expect(challengeOf(res)).toMatchObject({ resource_metadata: METADATA_URL, error: "insufficient_scope", scope: "mcp math" });
  });

  it("serves the tool call with the scope", async () => {
    const res = await postTo(fetch, call("add", { a: 1, b: 2 }), bearer(await accessToken(key, { scope: "mcp math" })), STATELESS);
    expect(await expectResult(res)).toMatchObject({ content: [{ type: "text" }] });
  });

  it("leaves tools without configured scopes to the baseline", async () => {
    const res = await postTo(fetch, call("echo", { message: "hi" }), bearer(await accessToken(key)), STATELESS);
    expect(res.status).toBe(200);
  });

  it("refuses an interactive tool before it is forwarded to the session object", async () => {
    const token = await accessToken(key);
    const sessionId = await openAuthSession(fetch, token);
    const res = await postTo(fetch, call("test_tool_with_logging"), {
      ...bearer(token),
      "Mcp-Session-Id": sessionId,
      "MCP-Protocol-Version": "2025-06-18",
    });
    await expectRpcError(res, 403, TRANSPORT_ERROR);
    expect(challengeOf(res).scope).toBe("mcp logs");
  });

  it("refuses a read of a resource with its own scope, exact URI", async () => {
    const res = await postTo(fetch, read("test://static-text"), bearer(await accessToken(key)), STATELESS);
    expect(res.status).toBe(403);
    expect(challengeOf(res).scope).toBe("mcp docs");
    const ok = await postTo(fetch, read("test://static-text"), bearer(await accessToken(key, { scope: "mcp docs" })), STATELESS);
    expect(ok.status).toBe(200);
  });

  it("refuses a read under a prefix rule", async () => {
    const res = await postTo(fetch, read("test://template/42/data"), bearer(await accessToken(key)), STATELESS);
    expect(challengeOf(res)).toMatchObject({ error: "insufficient_scope", scope: "mcp templates" });
  });

  it("refuses a whole batch when one request lacks its scope", async () => {
    const batch = [{ jsonrpc: "2.0", id: 1, method: "ping" }, call("add", { a: 1, b: 2 }, 2)];
    const res = await postTo(fetch, batch, { ...bearer(await accessToken(key)), "MCP-Protocol-Version": "2025-03-26" }, STATELESS);
    expect(res.status).toBe(403);
  });

  it("refuses a legacy POST before its 202", async () => {
    const token = await accessToken(key);
    const stream = await fetch(`${ORIGIN}/sse`, { method: "GET", headers: { Accept: "text/event-stream", ...bearer(token) } });
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    let head = "";
    while (!head.includes("\n\n")) head += new TextDecoder().decode((await reader.read()).value);
    const endpoint = /data: (.*)\n/.exec(head)?.[1] ?? "";
    const res = await postTo(fetch, call("add", { a: 1, b: 2 }), bearer(token), `${ORIGIN}${endpoint}`);
    expect(res.status).toBe(403);
    await reader.cancel();
  });
});
