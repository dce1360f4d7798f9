// An MCP server that only answers requests carrying a valid access token (JWT) from your
// authorization server, with your own routes (here /health) beside it.
import { z } from "zod";
import { createMcpEdge, defineServer, text, type EdgeEnv, type McpEdge } from "mcp-edge";
import { sessions } from "mcp-edge/sessions";
import { auth } from "mcp-edge/auth";
import { jwtVerifier } from "mcp-edge/oauth";

interface Env extends EdgeEnv {
  MCP_PUBLIC_ORIGIN: string;
  AUTH_ISSUER: string;
}

const server = defineServer<Env>({ name: "my-protected-mcp-server", version: "1.0.0" });

server.tool("whoami", { description: "Who the access token says you are" }, (_args, ctx) => ({
  content: [text(ctx.principal ? `${ctx.principal.subject} (${ctx.principal.scopes.join(" ")})` : "anonymous")],
}));

server.tool("delete_note", { description: "Deletes a note (needs notes:write)", input: { id: z.string() } }, ({ id }) => ({
  content: [text(`deleted ${id}`)],
}));

// Options that depend on env are built on the first request (env is not available at module load).
let edge: McpEdge<Env> | undefined;
function edgeFor(env: Env): McpEdge<Env> {
  edge ??= createMcpEdge(server, {
    features: [
      sessions(),
      auth({
        resource: `${env.MCP_PUBLIC_ORIGIN}/mcp`,
        authorizationServers: [env.AUTH_ISSUER],
        verify: jwtVerifier({ issuer: env.AUTH_ISSUER, jwksUri: `${env.AUTH_ISSUER}/.well-known/jwks.json` }),
        requiredScopes: ["mcp"],
        toolScopes: { delete_note: ["notes:write"] },
      }),
    ],
    allowedHosts: [new URL(env.MCP_PUBLIC_ORIGIN).hostname],
    fallback: (request) => (new URL(request.url).pathname === "/health" ? new Response("ok") : new Response("Not found", { status: 404 })),
  });
  return edge;
}

export default {
  fetch: (request, env, ctx) => edgeFor(env).worker.fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;

// The session class does not depend on the options above, only on the server and its features.
export const { McpSession } = createMcpEdge(server, { features: [sessions()] }).objects;
