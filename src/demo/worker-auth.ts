/**
 * The demo protected by the built-in authorization server (`npm run dev:auth`, wrangler.auth.toml;
 * it imports only what a user imports: `mcp-edge` and `mcp-edge/oauth`):
 * one Worker that is both the OAuth 2.1 authorization server (metadata, Client ID Metadata
 * Documents and dynamic registration, token endpoint; KV binding OAUTH_KV; the
 * global_fetch_strictly_public flag for the documents' fetches) with a demo consent page that approves a fixed demo
 * user, and the demo MCP server at /mcp as a resource server accepting only its tokens.
 * MCP_PUBLIC_URL (default http://127.0.0.1:8787) is the origin clients reach it at: the issuer,
 * and with /mcp the canonical resource URI tokens are bound to.
 */
import { createMcpEdge, text, type EdgeEnv, type WorkerFetch } from "../index";
import { legacySse, sessions } from "../features/sessions/index";
import { tasks } from "../features/tasks/index";
import { hub } from "../features/hub/index";
import { user } from "../features/user/index";
import { auth } from "../features/auth/index";
import { createAuthorizationServer, withAuthorizationServer } from "../auth/index";
import { demoAuthorize } from "./consent";
import { demoServer } from "./server";

/** The features every edge of this Worker serves. */
function demoFeatures() {
  return [sessions(), legacySse(), tasks(), hub(), user()];
}

interface Env extends EdgeEnv {
  OAUTH_KV: KVNamespace;
  MCP_PUBLIC_URL?: string;
}

const DEFAULT_PUBLIC_URL = "http://127.0.0.1:8787";
/** What the demo grants; every MCP request needs it. */
const SCOPES = ["mcp"];

// Two tools only this Worker has: who the token says you are, in the Worker and in the session object.
demoServer
  .tool(
    "whoami",
    { description: "The authenticated principal, as the server sees it (simple tool, runs in the Worker)." },
    (_args, ctx) => ({
      content: [text(JSON.stringify({ principal: ctx.principal, sessionSubject: ctx.session?.subject }))],
    }),
  )
  .interactiveTool(
    "whoami_interactive",
    { description: "The authenticated principal, seen by a tool running in the session object." },
    async (_args, ctx) => {
      await ctx.log("info", `called by ${ctx.principal?.subject ?? "nobody"}`);
      return { content: [text(JSON.stringify({ principal: ctx.principal, sessionSubject: ctx.session?.subject }))] };
    },
  );

/** The Worker for one public origin, built on first use (the origin comes from a variable). */
const workers = new Map<string, { fetch: WorkerFetch<Env> }>();

function workerFor(env: Env): { fetch: WorkerFetch<Env> } {
  const origin = (env.MCP_PUBLIC_URL ?? DEFAULT_PUBLIC_URL).replace(/\/+$/, "");
  let worker = workers.get(origin);
  if (worker) return worker;
  const resource = `${origin}/mcp`;
  const authorizationServer = createAuthorizationServer<Env>({
    issuer: origin,
    resource,
    scopesSupported: SCOPES,
    authorize: demoAuthorize,
  });
  const edge = createMcpEdge(demoServer, {
    path: "/mcp",
    features: [
      ...demoFeatures(),
      auth({
        resource,
        authorizationServers: [origin],
        verify: authorizationServer.verify,
        requiredScopes: SCOPES,
        resourceName: "mcp-edge demo",
      }),
    ],
  });
  worker = withAuthorizationServer(edge.worker, authorizationServer);
  workers.set(origin, worker);
  return worker;
}

export default {
  fetch: (request, env, ctx) => workerFor(env).fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;

// The object classes depend only on the server and its features, not on the origin.
export const { McpSession, McpHub, McpTask, McpUser } = createMcpEdge(demoServer, { features: demoFeatures() }).objects;
