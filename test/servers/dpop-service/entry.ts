/**
 * A resource server for services: it takes DPoP-bound access tokens from one external
 * authorization server (AS_ISSUER), checked with jwtVerifier (its JWKS) and dpopVerifier (with
 * server nonces), and
 * lists the OAuth client credentials extension in server/discover (docs/auth.md "Machine-to-machine clients").
 */
import { defineServer, createMcpEdge, text, type EdgeEnv, type WorkerFetch } from "../../../src/index";
import { sessions } from "../../../src/features/sessions/index";
import { auth } from "../../../src/features/auth/index";
import { dpopVerifier, jwtVerifier } from "../../../src/auth/index";

interface Env extends EdgeEnv {
  MCP_PUBLIC_URL: string;
  AS_ISSUER: string;
  DPOP_NONCE_SECRET: string;
}

const server = defineServer<Env>({
  name: "dpop-e2e",
  version: "1.0.0",
  extensions: { "io.modelcontextprotocol/oauth-client-credentials": {} },
});
server.tool("whoami", { description: "The calling service and the key its token is bound to" }, (_args, ctx) => ({
  content: [text(JSON.stringify({ subject: ctx.principal?.subject, clientId: ctx.principal?.clientId, cnf: ctx.principal?.claims.cnf }))],
}));

const workers = new Map<string, { fetch: WorkerFetch<Env> }>();

function workerFor(env: Env): { fetch: WorkerFetch<Env> } {
  const key = `${env.MCP_PUBLIC_URL} ${env.AS_ISSUER}`;
  let worker = workers.get(key);
  if (!worker) {
    worker = createMcpEdge(server, {
      features: [
        sessions(),
        auth({
          resource: `${env.MCP_PUBLIC_URL}/mcp`,
          authorizationServers: [env.AS_ISSUER],
          verify: jwtVerifier({ issuer: env.AS_ISSUER, jwksUri: `${env.AS_ISSUER}/jwks` }),
          dpop: dpopVerifier({ required: true, nonce: { secret: env.DPOP_NONCE_SECRET } }),
          requiredScopes: ["mcp"],
        }),
      ],
    }).worker as { fetch: WorkerFetch<Env> };
    workers.set(key, worker);
  }
  return worker;
}

export default {
  fetch: (request, env, ctx) => workerFor(env).fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;

export const { McpSession } = createMcpEdge(server, { features: [sessions()] }).objects;
