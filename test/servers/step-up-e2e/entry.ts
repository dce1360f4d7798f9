/**
 * A resource server for the step-up end-to-end test: test tokens (testAuth) issued by an external
 * authorization server (AS_ISSUER), a baseline scope, a tool whose scope follows its arguments, and
 * tools that ask for more scope (`needScopes`) or a new sign-in (`reauthenticate`) from their handlers.
 */
import { createMcpEdge, defineServer, needScopes, reauthenticate, text, type EdgeEnv, type WorkerFetch } from "../../../src/index";
import { sessions } from "../../../src/features/sessions/index";
import { auth } from "../../../src/features/auth/index";
import { testAuth } from "../../../src/testing/index";

interface Env extends EdgeEnv {
  MCP_PUBLIC_URL: string;
  AS_ISSUER: string;
}

const server = defineServer<Env>({ name: "step-up-e2e", version: "1.0.0" })
  .tool("whoami", { description: "The caller and its scopes" }, (_args, ctx) => ({
    content: [text(`${ctx.principal?.subject} ${ctx.principal?.scopes.join(" ")}`)],
  }))
  .tool("write_file", { description: "Needs files:write, asked for by the handler" }, (_args, ctx) => {
    if (!ctx.principal?.scopes.includes("files:write")) throw needScopes(["files:write"], "writing files needs files:write");
    return { content: [text("written")] };
  })
  .tool(
    "delete_repo",
    {
      description: "Needs the admin scope of the repository it names",
      input: { type: "object", properties: { repo: { type: "string" } }, required: ["repo"] },
      scopes: ({ arguments: args }) => [`repo:${String(args.repo)}:admin`],
    },
    (args) => ({ content: [text(`deleted ${String((args as { repo: unknown }).repo)}`)] }),
  )
  .tool("upstream", { description: "Asks for a new sign-in while the upstream link behind the token is revoked" }, (_args, ctx) => {
    if (ctx.principal?.claims.upstream !== "linked") throw reauthenticate("the upstream grant was revoked; sign in again");
    return { content: [text("upstream ok")] };
  });

const workers = new Map<string, { fetch: WorkerFetch<Env> }>();

function workerFor(env: Env): { fetch: WorkerFetch<Env> } {
  const key = `${env.MCP_PUBLIC_URL} ${env.AS_ISSUER}`;
  let worker = workers.get(key);
  if (!worker) {
    const options = testAuth({ resource: `${env.MCP_PUBLIC_URL}/mcp`, requiredScopes: ["mcp"] });
    const gate = auth({ ...options, authorizationServers: [env.AS_ISSUER] });
    worker = createMcpEdge(server, { features: [sessions(), gate] }).worker as {
      fetch: WorkerFetch<Env>;
    };
    workers.set(key, worker);
  }
  return worker;
}

export default {
  fetch: (request, env, ctx) => workerFor(env).fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;

export const { McpSession } = createMcpEdge(server, { features: [sessions()] }).objects;
