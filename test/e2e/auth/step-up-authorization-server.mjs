// A small external authorization server for test/e2e/auth/step-up.test.ts, in Node: RFC 8414
// metadata, dynamic registration, an authorization endpoint that approves at once (the user's
// consent, automated) with PKCE, and a token endpoint for the authorization code and client
// credentials grants. Tokens are minted by the test (mintTestToken, checked by the Worker's
// testAuth()) with the scope the client asked for; `extraClaims` are added to every later token.
import { createHash, randomUUID } from "node:crypto";
import { createServer } from "node:http";

export async function startAuthorizationServer({ mint, clients = {} }) {
  const codes = new Map();
  const state = { issuer: "", authorizeRequests: [], tokenRequests: [], extraClaims: {} };
  const json = (res, status, body) => {
    res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
    res.end(JSON.stringify(body));
  };
  const readForm = async (req) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    return new URLSearchParams(body);
  };
  const issue = async (res, { subject, scope, resource }) => {
    const scopes = (scope ?? "").split(" ").filter((s) => s.length > 0);
    const accessToken = await mint({ subject, scopes, audience: resource ?? undefined, claims: { ...state.extraClaims } });
    json(res, 200, { access_token: accessToken, token_type: "Bearer", expires_in: 300, scope: scopes.join(" ") });
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", state.issuer);
    if (req.method === "GET" && url.pathname === "/.well-known/oauth-authorization-server") {
      return json(res, 200, {
        issuer: state.issuer,
        authorization_endpoint: `${state.issuer}/authorize`,
        token_endpoint: `${state.issuer}/token`,
        registration_endpoint: `${state.issuer}/register`,
        grant_types_supported: ["authorization_code", "client_credentials"],
        response_types_supported: ["code"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
      });
    }
    if (req.method === "POST" && url.pathname === "/register") {
      let body = "";
      for await (const chunk of req) body += chunk;
      const metadata = JSON.parse(body || "{}");
      return json(res, 201, { ...metadata, client_id: `public-${randomUUID()}`, token_endpoint_auth_method: "none" });
    }
    if (req.method === "GET" && url.pathname === "/authorize") {
      const p = url.searchParams;
      state.authorizeRequests.push({ scope: p.get("scope"), resource: p.get("resource") });
      const code = randomUUID();
      codes.set(code, { scope: p.get("scope"), resource: p.get("resource"), challenge: p.get("code_challenge") });
      const back = new URL(p.get("redirect_uri") ?? "");
      back.searchParams.set("code", code);
      if (p.get("state") !== null) back.searchParams.set("state", p.get("state"));
      res.writeHead(302, { Location: back.toString() });
      return res.end();
    }
    if (req.method !== "POST" || url.pathname !== "/token") return json(res, 404, { error: "not_found" });
    const form = await readForm(req);
    const grantType = form.get("grant_type");
    state.tokenRequests.push({ grantType, scope: form.get("scope"), resource: form.get("resource") });
    if (grantType === "authorization_code") {
      const grant = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      if (!grant || createHash("sha256").update(verifier).digest("base64url") !== grant.challenge)
        return json(res, 400, { error: "invalid_grant" });
      return issue(res, { subject: "ada", scope: grant.scope, resource: form.get("resource") ?? grant.resource });
    }
    if (grantType === "client_credentials") {
      const basic = Buffer.from((req.headers.authorization ?? "").replace(/^Basic /, ""), "base64")
        .toString()
        .split(":")
        .map(decodeURIComponent);
      const [id, secret] = basic[0] ? basic : [form.get("client_id"), form.get("client_secret")];
      if (!id || clients[id] !== secret) return json(res, 401, { error: "invalid_client" });
      return issue(res, { subject: id, scope: form.get("scope"), resource: form.get("resource") });
    }
    return json(res, 400, { error: "unsupported_grant_type" });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.issuer = `http://127.0.0.1:${server.address().port}`;
  return {
    get issuer() {
      return state.issuer;
    },
    authorizeRequests: state.authorizeRequests,
    tokenRequests: state.tokenRequests,
    /** Claims every token issued from now on carries (e.g. an upstream link made while signing in again). */
    setExtraClaims(claims) {
      state.extraClaims = claims;
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
