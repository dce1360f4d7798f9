// Enterprise-managed authorization in the built-in authorization server: the ID-JAG grant
// (jwt-bearer, RFC 7523) is the library's; mcp-edge passes `enterpriseManagedAuthorization` through.
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createAuthorizationServer, type AuthorizationServerOptions } from "../../src/auth/index";
import { demoAuthorize } from "../../src/demo/consent";

const ORIGIN = "http://127.0.0.1:8787";
const RESOURCE = `${ORIGIN}/mcp`;
const REDIRECT = "http://127.0.0.1:9/oauth/callback";

describe("enterprise-managed authorization (ID-JAG via the jwt-bearer grant), passed through to the library", () => {
  type Env = { OAUTH_KV: KVNamespace };
  const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

  async function tokenWithAssertion(options: Partial<AuthorizationServerOptions<Env>>): Promise<Response> {
    const built = createAuthorizationServer<Env>({ issuer: ORIGIN, resource: RESOURCE, authorize: demoAuthorize, ...options });
    const oauth = built.provider.getOAuthApi(env as unknown as Env);
    const { clientId, clientSecret } = await oauth.createClient({
      redirectUris: [REDIRECT],
      tokenEndpointAuthMethod: "client_secret_post",
    });
    const request = new Request(`${ORIGIN}/oauth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: JWT_BEARER,
        assertion: "e30.e30.sig",
        client_id: clientId,
        client_secret: clientSecret ?? "",
      }),
    });
    return (await built.fetch(request, env as unknown as Env, createExecutionContext())) as Response;
  }

  it("without the option, the grant is not supported", async () => {
    expect(await (await tokenWithAssertion({})).json()).toMatchObject({ error: "unsupported_grant_type" });
  });

  it("with it, the token endpoint takes the grant and judges the assertion (a malformed one: invalid_grant)", async () => {
    const res = await tokenWithAssertion({
      enterpriseManagedAuthorization: {
        trustedIssuers: async () => null,
        mapClaims: async () => null,
      },
    });
    expect(await res.json()).toMatchObject({ error: "invalid_grant" });
  });
});
