// cloudflare/ai's remote-mcp-github-oauth (an OAuthProvider around an McpAgent, GitHub as the
// sign-in) on mcp-edge: the built-in authorization server signs users in at GitHub, keeps each
// user's GitHub grant sealed in their user object, and tools read a fresh GitHub token with
// `await github.token(ctx)`. docs/migrate-from-mcpagent.md walks through every change.
import { z } from "zod";
import { createMcpEdge, defineServer, text, ToolError, type EdgeEnv, type HandlerContext } from "mcp-edge";
import { legacySse, sessions } from "mcp-edge/sessions";
import { auth } from "mcp-edge/auth";
import { user } from "mcp-edge/user";
import { createAuthorizationServer, defineUpstream, perOrigin, withAuthorizationServer } from "mcp-edge/oauth";

interface Env extends EdgeEnv {
  OAUTH_KV: KVNamespace;
  GITHUB_CLIENT_ID: string;
  GITHUB_CLIENT_SECRET: string;
  MCP_UPSTREAM_SECRET: string;
  /** The public origin; without it, each request's own (wrangler dev on any port). */
  MCP_PUBLIC_URL?: string;
  /** GitHub's sign-in and API origins: left unset, the real ones (the test points them at a local fake). */
  GITHUB_URL?: string;
  GITHUB_API_URL?: string;
}

/** Users allowed the `generate_greeting` tool (McpAgent's example gated image generation the same way). */
const ALLOWED_USERNAMES = new Set(["octocat"]);

const githubUrl = (env: Env) => env.GITHUB_URL ?? "https://github.com";

const github = defineUpstream<Env>({
  name: "github",
  title: "GitHub",
  authorizeUrl: (env) => `${githubUrl(env)}/login/oauth/authorize`,
  tokenUrl: (env) => `${githubUrl(env)}/login/oauth/access_token`,
  clientId: (env) => env.GITHUB_CLIENT_ID,
  clientSecret: (env) => env.GITHUB_CLIENT_SECRET,
  scopes: ["read:user"],
  // Who signed in: the principal's subject and the props handlers read as ctx.principal.claims.
  identify: async ({ accessToken }, { env }) => {
    const user = await getJson<GitHubUser>(env, "/user", accessToken);
    return { userId: user.login, props: { login: user.login, name: user.name } };
  },
});

interface GitHubUser {
  login: string;
  name: string | null;
}

async function getJson<T>(env: Env, path: string, token: string): Promise<T> {
  const response = await gitHubApi(env, path, token);
  if (!response.ok) throw new Error(`GitHub answered ${path} with HTTP ${response.status}`);
  return (await response.json()) as T;
}

function gitHubApi(env: Env, path: string, token: string): Promise<Response> {
  return fetch(`${env.GITHUB_API_URL ?? "https://api.github.com"}${path}`, {
    headers: { Authorization: `Bearer ${token}`, Accept: "application/vnd.github+json", "User-Agent": "mcp-edge-github-oauth" },
  });
}

/** A GitHub API call as the signed-in user: a token GitHub refuses (401) is refreshed once and the call retried. */
async function asUser<T>(ctx: HandlerContext<Env>, path: string): Promise<T> {
  const token = await github.token(ctx);
  let response = await gitHubApi(ctx.env, path, token);
  if (response.status === 401) response = await gitHubApi(ctx.env, path, await github.token(ctx, { rejected: token }));
  if (!response.ok) throw new ToolError(`GitHub answered ${path} with HTTP ${response.status}`);
  return (await response.json()) as T;
}

const server = defineServer<Env>({ name: "Github OAuth Proxy Demo", version: "1.0.0" });

server.tool("add", { description: "Add two numbers the way only MCP can", input: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
  content: [text(String(a + b))],
}));

// McpAgent's userInfoOctokit: this.props.accessToken became a token read (and refreshed) on demand.
server.tool("user_info", { description: "Get user info from GitHub" }, async (_args, ctx) => {
  const user = await asUser<GitHubUser>(ctx, "/user");
  return { content: [text(JSON.stringify({ login: user.login, name: user.name }))] };
});

// this.props.login became ctx.principal.claims.login (the props identify returned).
server.tool("generate_greeting", { description: "Greets an allowed GitHub user by name" }, (_args, ctx) => {
  const login = String(ctx.principal?.claims.login ?? "");
  if (!ALLOWED_USERNAMES.has(login)) throw new ToolError(`${login} may not use this tool`);
  return { content: [text(`Hello, ${login}!`)] };
});

const SCOPES = ["mcp"];

export default perOrigin<Env>((origin) => {
  const resource = `${origin}/mcp`;
  const authorizationServer = createAuthorizationServer<Env>({ issuer: origin, resource, scopesSupported: SCOPES, upstream: github });
  const edge = createMcpEdge(server, {
    features: [
      sessions(),
      // The 2024-11-05 transport at /sse, which the McpAgent template served.
      legacySse(),
      user(),
      auth({ resource, authorizationServers: [origin], verify: authorizationServer.verify, requiredScopes: SCOPES }),
    ],
  });
  // /authorize, /callback, /oauth/* and the metadata first; /mcp (and the legacy /sse) after.
  return withAuthorizationServer(edge.worker, authorizationServer);
});

// The object classes depend only on the server and its features, not on the origin.
export const { McpSession, McpUser } = createMcpEdge(server, { features: [sessions(), legacySse(), user()] }).objects;
