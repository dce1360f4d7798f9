/**
 * What names a route's URL: the Server Card of `/mcp/acme` (at `/mcp/acme/server-card`), and,
 * with a resource naming the route parameter, the protected resource metadata of each route
 * (`/.well-known/oauth-protected-resource/mcp/acme`), the challenge pointing at it and the
 * token audience it requires: a token for one tenant is refused on another's path.
 */
import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createMcpEdge } from "../../src/edge";
import { auth } from "../../src/features/auth/index";
import type { VerifiedToken } from "../../src/auth/options";
import { defineServer } from "../../src/mcp/definition/server";
import { text } from "../../src/mcp/definition/content";
import { needScopes } from "../../src/mcp/definition/authorization";
import { BASE } from "../helpers/mcp";
import { send } from "../routes/helpers";

describe("the Server Card per route", () => {
  it("at /mcp/acme/server-card names /mcp/acme", async () => {
    const res = await send(`${BASE}/mcp/acme/server-card`, { method: "GET" });
    expect(res.status).toBe(200);
    const card = (await res.json()) as { remotes: { type: string; url: string }[] };
    expect(card.remotes.find((r) => r.type === "streamable-http")?.url).toBe(`${BASE}/mcp/acme`);
    const other = (await (await send(`${BASE}/mcp/globex/server-card`, { method: "GET" })).json()) as typeof card;
    expect(other.remotes[0]?.url).toBe(`${BASE}/mcp/globex`);
  });

  it("is listed in no AI Catalog: one entry cannot name every route", async () => {
    const res = await send(`${BASE}/.well-known/ai-catalog.json`, { method: "GET" });
    expect(res.status).toBe(404);
  });
});

const server = defineServer({ name: "routes-auth", version: "1.0.0" }).tool("hello", { description: "Says hello" }, () => ({
  content: [text("hello")],
}));

/** Accepts `tok-<tenant>`: a token issued for that tenant's resource. */
async function verify(token: string): Promise<VerifiedToken | null> {
  const tenant = /^tok-(\w+)$/.exec(token)?.[1];
  if (!tenant) return null;
  return { subject: `user-of-${tenant}`, scopes: [], audience: `https://mcp.example.com/mcp/${tenant}`, claims: {} };
}

const authed = createMcpEdge(server, {
  path: "/mcp/:tenant",
  features: [auth({ resource: "https://mcp.example.com/mcp/:tenant", authorizationServers: ["https://auth.example.com"], verify })],
});

function fetchAuthed(path: string, init: { method?: string; token?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = {
    Host: "127.0.0.1:8787",
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": "2025-11-25",
  };
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  const method = init.method ?? "POST";
  const body = method === "POST" ? JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }) : undefined;
  return authed.worker.fetch(new Request(`${BASE}${path}`, { method, headers, body }), {}, createExecutionContext());
}

describe("protected resource metadata per route (auth.resource naming :tenant)", () => {
  it("serves each route's document at its own path-suffixed URL, naming its own resource", async () => {
    const res = await fetchAuthed("/.well-known/oauth-protected-resource/mcp/acme", { method: "GET" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      resource: "https://mcp.example.com/mcp/acme",
      authorization_servers: ["https://auth.example.com"],
    });
    const globex = (await (await fetchAuthed("/.well-known/oauth-protected-resource/mcp/globex", { method: "GET" })).json()) as {
      resource: string;
    };
    expect(globex.resource).toBe("https://mcp.example.com/mcp/globex");
  });

  it("serves no bare well-known document (it could name only one route)", async () => {
    expect((await fetchAuthed("/.well-known/oauth-protected-resource", { method: "GET" })).status).toBe(404);
  });

  it("challenges a request without a token with its route's metadata URL", async () => {
    const res = await fetchAuthed("/mcp/acme");
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toContain(
      'resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp/acme"',
    );
  });

  it("refuses a token issued for another tenant's resource, and serves the tenant's own", async () => {
    const refused = await fetchAuthed("/mcp/acme", { token: "tok-globex" });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("WWW-Authenticate")).toContain("https://mcp.example.com/mcp/acme");
    const served = await fetchAuthed("/mcp/acme", { token: "tok-acme" });
    expect(served.status).toBe(200);
    expect(await served.json()).toMatchObject({ result: { tools: [{ name: "hello" }] } });
  });
});

describe("scopes per operation on a route (auth.resource naming :tenant)", () => {
  const scoped = defineServer({ name: "routes-scopes", version: "1.0.0" })
    .tool("report", { description: "Needs the tenant's own scope", scopes: ({ params }) => [`reports:${params.tenant}`] }, () => ({
      content: [text("report")],
    }))
    .tool("export", { description: "Asks for export from its handler" }, (_args, ctx) => {
      if (!ctx.principal?.scopes.includes("export")) throw needScopes(["export"]);
      return { content: [text("exported")] };
    });
  /** `tok-<tenant>` with the scopes after a colon, `+`-separated: `tok-acme:reports:acme`. */
  const edge = createMcpEdge(scoped, {
    path: "/mcp/:tenant",
    features: [
      auth({
        resource: "https://mcp.example.com/mcp/:tenant",
        authorizationServers: ["https://auth.example.com"],
        verify: async (token) => {
          const match = /^tok-(\w+):?(.*)$/.exec(token);
          if (!match) return null;
          const scopes = (match[2] as string).split("+").filter((s) => s.length > 0);
          return { subject: `user-of-${match[1]}`, scopes, audience: `https://mcp.example.com/mcp/${match[1]}`, claims: {} };
        },
      }),
    ],
  });
  const call = (tenant: string, tool: string, token: string) =>
    edge.worker.fetch(
      new Request(`${BASE}/mcp/${tenant}`, {
        method: "POST",
        headers: {
          Host: "127.0.0.1:8787",
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "MCP-Protocol-Version": "2025-11-25",
          Authorization: `Bearer ${token}`,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: {} } }),
      }),
      {},
      createExecutionContext(),
    );

  it("computes the scope from the route's parameters and challenges with the route's own metadata URL", async () => {
    const refused = await call("acme", "report", "tok-acme:reports:globex");
    expect(refused.status).toBe(403);
    expect(refused.headers.get("WWW-Authenticate")).toBe(
      'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp/acme", error="insufficient_scope", ' +
        'error_description="the tool report needs the scope reports:acme", scope="reports:acme"',
    );
    expect((await call("acme", "report", "tok-acme:reports:acme")).status).toBe(200);
  });

  it("a handler's needScopes() on a route names that route's metadata too", async () => {
    const refused = await call("globex", "export", "tok-globex");
    expect(refused.status).toBe(403);
    expect(refused.headers.get("WWW-Authenticate")).toContain(
      'resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp/globex", error="insufficient_scope"',
    );
  });
});
