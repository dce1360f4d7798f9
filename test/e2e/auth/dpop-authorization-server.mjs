// A small external authorization server for test/e2e/auth/dpop-flow.test.ts, in Node: RFC 8414
// metadata, a JWKS, and a token endpoint for the client credentials grant (client_secret_basic)
// that binds the token to the DPoP proof's key (RFC 9449 §5, §6: `cnf.jkt`, token_type DPoP).
import { createServer } from "node:http";
import { calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, exportJWK, generateKeyPair, jwtVerify, SignJWT } from "jose";

export async function startAuthorizationServer({ clients }) {
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "as-1", alg: "ES256", use: "sig" };
  const tokenRequests = [];
  let issuer = "";
  const json = (res, status, body) => {
    res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
    res.end(JSON.stringify(body));
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    if (req.method === "GET" && url.pathname === "/.well-known/oauth-authorization-server") {
      return json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`, // required by RFC 8414; never used by a service
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        grant_types_supported: ["client_credentials"],
        token_endpoint_auth_methods_supported: ["client_secret_basic"],
        dpop_signing_alg_values_supported: ["ES256"],
        response_types_supported: ["code"],
      });
    }
    if (req.method === "GET" && url.pathname === "/jwks") return json(res, 200, { keys: [jwk] });
    if (req.method !== "POST" || url.pathname !== "/token") return json(res, 404, { error: "not_found" });
    let body = "";
    for await (const chunk of req) body += chunk;
    const form = new URLSearchParams(body);
    const [id, secret] = Buffer.from((req.headers.authorization ?? "").replace(/^Basic /, ""), "base64")
      .toString()
      .split(":")
      .map(decodeURIComponent);
    const proof = req.headers.dpop;
    tokenRequests.push({ grantType: form.get("grant_type"), resource: form.get("resource"), dpop: typeof proof === "string" });
    if (!id || clients[id] !== secret) return json(res, 401, { error: "invalid_client" });
    if (form.get("grant_type") !== "client_credentials") return json(res, 400, { error: "unsupported_grant_type" });
    if (typeof proof !== "string") return json(res, 400, { error: "invalid_dpop_proof", error_description: "a DPoP proof is required" });
    let jkt;
    try {
      const { payload } = await jwtVerify(proof, EmbeddedJWK, { typ: "dpop+jwt" });
      if (payload.htm !== "POST" || payload.htu !== `${issuer}/token`) throw new Error("htm/htu");
      jkt = await calculateJwkThumbprint(decodeProtectedHeader(proof).jwk, "sha256");
    } catch {
      return json(res, 400, { error: "invalid_dpop_proof" });
    }
    const accessToken = await new SignJWT({ scope: form.get("scope") ?? "mcp", client_id: id, cnf: { jkt } })
      .setProtectedHeader({ alg: "ES256", kid: "as-1", typ: "at+jwt" })
      .setIssuer(issuer)
      .setSubject(id)
      .setAudience(form.get("resource") ?? "")
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(privateKey);
    return json(res, 200, { access_token: accessToken, token_type: "DPoP", expires_in: 300, scope: form.get("scope") ?? "mcp" });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${server.address().port}`;
  return {
    issuer,
    tokenRequests,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
