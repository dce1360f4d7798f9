// The built-in authorization server's `tokenExchange` hook (issue 43): workers-oauth-provider's
// tokenExchangeCallback, passed through, runs at the token endpoint for the code exchange and
// each refresh; what it returns as the access token's props is what `verify` hands handlers.
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createAuthorizationServer, type AuthorizationServerOptions } from "../../src/auth/index";
import { demoAuthorize } from "../../src/demo/consent";

const ORIGIN = "http://127.0.0.1:8787";
const RESOURCE = `${ORIGIN}/mcp`;
const REDIRECT = "http://127.0.0.1:9/oauth/callback";
type Env = { OAUTH_KV: KVNamespace };
const bindings = env as unknown as Env;

async function s256(verifier: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return btoa(String.fromCharCode(...digest))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** A grant made the way an authorize page makes one, then its code exchanged: the token endpoint's answer. */
async function signIn(options: Partial<AuthorizationServerOptions<Env>>) {
  const built = createAuthorizationServer<Env>({ issuer: ORIGIN, resource: RESOURCE, authorize: demoAuthorize, ...options });
  const oauth = built.provider.getOAuthApi(bindings);
  const { clientId } = await oauth.createClient({ redirectUris: [REDIRECT], tokenEndpointAuthMethod: "none" });
  const verifier = crypto.randomUUID() + crypto.randomUUID();
  const query = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: await s256(verifier),
    code_challenge_method: "S256",
    resource: RESOURCE,
    state: "s",
  });
  const authRequest = await oauth.parseAuthRequest(new Request(`${ORIGIN}/authorize?${query}`));
  const { redirectTo } = await oauth.completeAuthorization({
    request: authRequest,
    userId: "octocat",
    metadata: {},
    scope: [],
    props: { login: "octocat" },
  });
  const code = new URL(redirectTo).searchParams.get("code") as string;
  const form = {
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT,
    client_id: clientId,
    code_verifier: verifier,
    resource: RESOURCE,
  };
  const request = new Request(`${ORIGIN}/oauth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
  });
  const response = (await built.fetch(request, bindings, createExecutionContext())) as Response;
  return { built, tokens: (await response.json()) as { access_token: string } };
}

describe("createAuthorizationServer({ tokenExchange })", () => {
  it("is called for the code exchange, and the props it returns are what handlers see", async () => {
    const seen: string[] = [];
    const { built, tokens } = await signIn({
      tokenExchange: ({ grantType, props }) => {
        seen.push(grantType);
        return { accessTokenProps: { ...props, plan: "pro" } };
      },
    });
    expect(seen).toEqual(["authorization_code"]);
    const verified = await built.verify(tokens.access_token, { resource: RESOURCE, env: bindings });
    expect(verified?.claims).toEqual({ login: "octocat", plan: "pro" });
  });

  it("without it, handlers see the props the grant was made with", async () => {
    const { built, tokens } = await signIn({});
    const verified = await built.verify(tokens.access_token, { resource: RESOURCE, env: bindings });
    expect(verified?.claims).toEqual({ login: "octocat" });
  });
});
