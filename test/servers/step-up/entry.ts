/**
 * Test-only Worker: scopes per operation and step-up from a handler, with the public API only.
 * The fixtures of the SEP-2350 draft conformance scenario (`sep-2350-server-scope-challenge`:
 * test_simple_text, test://static-text, test://template/{id}/data, test_simple_prompt) with its
 * opaque tokens, and tools that ask for more scope or a new sign-in from inside their handler.
 */
import { createMcpEdge, defineServer, needScopes, reauthenticate, text, type EdgeEnv } from "../../../src/index";
import { TokenError, type VerifiedToken } from "../../../src/auth/index";
import { sessions } from "../../../src/features/sessions/index";
import { auth } from "../../../src/features/auth/index";

export const RESOURCE = "https://mcp.example.com/mcp";
const CONFORMANCE = "mcp:conformance";
const BASELINE = `${CONFORMANCE}:baseline`;

/** The scenario's tokens: the low one holds only the baseline, the full one every scope its four fixtures need. */
const OPAQUE_TOKENS: Record<string, readonly string[]> = {
  "mcp-conformance-scope-low": [BASELINE],
  "mcp-conformance-scope-full": [
    BASELINE,
    `${CONFORMANCE}:tools:call`,
    `${CONFORMANCE}:tools:test_simple_text`,
    `${CONFORMANCE}:resources:read`,
    `${CONFORMANCE}:resources:static`,
    `${CONFORMANCE}:resources:template:123`,
    `${CONFORMANCE}:prompts:get`,
    `${CONFORMANCE}:prompts:test_simple_prompt`,
  ],
};

/**
 * Opaque tokens: the scenario's two, and `user:<subject>:<scope>+<scope>` for the other tests
 * (`+linked` in the subject's place marks an upstream link that is still valid: `ada+linked`).
 */
async function verify(token: string): Promise<VerifiedToken> {
  const fixed = OPAQUE_TOKENS[token];
  if (fixed) return { subject: "conformance", scopes: fixed, audience: RESOURCE, claims: {} };
  const match = /^user:([a-z]+)(\+linked)?:([\x21-\x7E]*)$/.exec(token);
  if (!match) throw new TokenError("unknown token");
  const scopes = (match[3] as string).split("+").filter((s) => s.length > 0);
  return { subject: match[1] as string, scopes, audience: RESOURCE, claims: { upstream: match[2] ? "linked" : "revoked" } };
}

const server = defineServer<EdgeEnv>({ name: "step-up-test", version: "1.0.0" })
  .tool(
    "test_simple_text",
    { description: "The scenario's tool", scopes: [`${CONFORMANCE}:tools:call`, `${CONFORMANCE}:tools:test_simple_text`] },
    () => ({ content: [text("This is a simple text response for testing.")] }),
  )
  .resource(
    "test://static-text",
    { name: "static-text", mimeType: "text/plain", scopes: [`${CONFORMANCE}:resources:read`, `${CONFORMANCE}:resources:static`] },
    (uri) => ({ uri, text: "This is the content of the static text resource." }),
  )
  .resourceTemplate(
    "test://template/{id}/data",
    {
      name: "template-data",
      mimeType: "text/plain",
      // Computed from the call: the template's variable names the scope.
      scopes: ({ variables }) => [`${CONFORMANCE}:resources:read`, `${CONFORMANCE}:resources:template:${variables.id}`],
    },
    (uri, { id }) => ({ uri, text: `Data for item ${id}` }),
  )
  .prompt(
    "test_simple_prompt",
    { description: "The scenario's prompt", scopes: [`${CONFORMANCE}:prompts:get`, `${CONFORMANCE}:prompts:test_simple_prompt`] },
    () => ({ messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }] }),
  )
  .tool(
    "delete_repo",
    {
      description: "Needs the admin scope of the repository it names (computed from the arguments)",
      input: { type: "object", properties: { repo: { type: "string" } }, required: ["repo"] },
      scopes: ({ arguments: args }) => [`repo:${String(args.repo)}:admin`],
    },
    (args) => ({ content: [text(`deleted ${String((args as { repo: string }).repo)}`)] }),
  )
  .tool(
    "broken_scopes",
    {
      description: "Its scope function fails (a bug of the server)",
      scopes: () => {
        throw new Error("scope lookup failed (simulated)");
      },
    },
    () => ({ content: [text("never")] }),
  )
  .tool("write_file", { description: "Asks for files:write from the handler when the token lacks it" }, (_args, ctx) => {
    if (!ctx.principal?.scopes.includes("files:write")) throw needScopes(["files:write"], "writing files needs files:write");
    return { content: [text(`written by ${ctx.principal.subject}`)] };
  })
  .tool("upstream", { description: "Asks for a new sign-in when the upstream link behind the token was revoked" }, (_args, ctx) => {
    if (ctx.principal?.claims.upstream !== "linked") throw reauthenticate("the upstream grant was revoked; sign in again");
    return { content: [text(`upstream ok for ${ctx.principal.subject}`)] };
  })
  .interactiveTool("write_after_progress", { description: "Reports progress, then asks for files:write" }, async (_args, ctx) => {
    await ctx.progress(1, 2, "checking permissions");
    if (!ctx.principal?.scopes.includes("files:write")) throw needScopes(["files:write"]);
    return { content: [text("written")] };
  });

const edge = createMcpEdge(server, {
  features: [
    sessions(),
    auth({
      resource: RESOURCE,
      authorizationServers: ["https://auth.example.com"],
      verify,
      requiredScopes: [BASELINE],
      toolScopes: { write_file: ["files:read"] },
    }),
  ],
  allowedHosts: ["mcp.example.com"],
});
export default edge.worker;
export const { McpSession } = edge.objects;
