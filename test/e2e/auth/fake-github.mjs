// A local stand-in for GitHub's OAuth endpoints and API on 127.0.0.1, for the upstream sign-in
// test (github-oauth.test.ts): /login/oauth/authorize approves at once (302 back with a code and
// the state), /login/oauth/access_token exchanges a code (PKCE S256 checked, one use) or a refresh
// token (rotated, counted), /user answers for a live access token. The test can shorten token
// lifetimes, expire every access token, revoke every grant, and make the next token answer an
// HTML error page. It answers the way GitHub does: JSON when asked, 200 with an `error` field for
// a bad code (bad_verification_code) or refresh token (bad_refresh_token).
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:http";

const USER = { id: 583231, login: "octocat", name: "The Octocat" };

/** @param {{ clientId: string, clientSecret: string }} app */
export async function startFakeGitHub(app) {
  const codes = new Map(); // code → { challenge, redirectUri }
  const access = new Map(); // token → { expiresAt, live }
  const refresh = new Map(); // token → live
  const state = { refreshes: 0, accessTtl: 3600, failNext: false };

  function issue() {
    const token = `gho_${randomBytes(12).toString("hex")}`;
    const refreshToken = `ghr_${randomBytes(12).toString("hex")}`;
    access.set(token, { expiresAt: Date.now() / 1000 + state.accessTtl, live: true });
    refresh.set(refreshToken, true);
    return { access_token: token, token_type: "bearer", scope: "read:user", expires_in: state.accessTtl, refresh_token: refreshToken };
  }

  function exchange(form) {
    if (form.get("client_id") !== app.clientId || form.get("client_secret") !== app.clientSecret)
      return { error: "incorrect_client_credentials" };
    if (form.get("grant_type") === "refresh_token") {
      const old = form.get("refresh_token") ?? "";
      if (refresh.get(old) !== true) return { error: "bad_refresh_token" };
      refresh.set(old, false); // rotated: one use
      state.refreshes += 1;
      return issue();
    }
    const code = codes.get(form.get("code") ?? "");
    codes.delete(form.get("code") ?? "");
    const verifier = form.get("code_verifier") ?? "";
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    if (!code || code.challenge !== challenge || code.redirectUri !== form.get("redirect_uri")) return { error: "bad_verification_code" };
    return issue();
  }

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const send = (status, body, type = "application/json") => {
      response.writeHead(status, { "Content-Type": type });
      response.end(typeof body === "string" ? body : JSON.stringify(body));
    };
    if (url.pathname === "/login/oauth/authorize") {
      const code = randomBytes(10).toString("hex");
      codes.set(code, { challenge: url.searchParams.get("code_challenge"), redirectUri: url.searchParams.get("redirect_uri") });
      const back = new URL(url.searchParams.get("redirect_uri") ?? "");
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      response.writeHead(302, { Location: back.href });
      return response.end();
    }
    if (url.pathname === "/login/oauth/access_token" && request.method === "POST") {
      if (state.failNext) {
        state.failNext = false;
        return send(500, "<html><body>Unicorn! secret-internal-detail</body></html>", "text/html");
      }
      return send(200, exchange(new URLSearchParams(Buffer.concat(chunks).toString())));
    }
    if (url.pathname === "/user") {
      const token = (request.headers.authorization ?? "").replace(/^Bearer /, "");
      const known = access.get(token);
      if (!known?.live || known.expiresAt < Date.now() / 1000) return send(401, { message: "Bad credentials" });
      return send(200, USER);
    }
    send(404, { message: "Not Found" });
  });
  await new Promise((resolve) => server.listen({ host: "127.0.0.1", port: 0 }, resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    user: USER,
    get refreshes() {
      return state.refreshes;
    },
    /** Lifetime (expires_in, seconds) of the access tokens issued from now on. */
    setAccessTtl(seconds) {
      state.accessTtl = seconds;
    },
    /** Every access token issued so far stops working at the API (401), as an expired one does. */
    expireAccessTokens() {
      for (const entry of access.values()) entry.live = false;
    },
    /** The user revoked the app: every access and refresh token stops working. */
    revokeAll() {
      for (const entry of access.values()) entry.live = false;
      for (const key of refresh.keys()) refresh.set(key, false);
    },
    /** The next token request is answered with an HTML 500 page. */
    failNextTokenRequest() {
      state.failNext = true;
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
