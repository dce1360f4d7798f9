// Documents beside the endpoint: the protected-resource metadata (RFC 9728), the Server Card, and
// whether test sign-in (mcp-edge/testing's testAuth()) answers on a deployed host.
import { createHmac, randomBytes } from "node:crypto";
import { cause, isLoopback, isObject, MODERN } from "./client.mjs";

/** The issuer of mintTestToken()'s tokens (src/testing/test-auth.ts): no production verifier trusts it. */
const TEST_TOKEN_ISSUER = "mcp-edge-testing";

/** GET a JSON document: { status, json? , error? } (a body that is not JSON counts as none). */
export async function getJson(doctor, url, headers = {}) {
  try {
    const res = await doctor.fetch(url, { headers: { Accept: "application/json", ...headers } });
    if (res.status !== 200) {
      doctor.discard(res);
      return { status: res.status, res };
    }
    const text = await doctor.readText(res);
    try {
      return { status: 200, json: JSON.parse(text), res };
    } catch {
      return { status: 200, res };
    }
  } catch (error) {
    if (doctor.expired()) throw error;
    return { status: 0, error: cause(error) };
  }
}

/** The protected-resource metadata the server serves (the 401's resource_metadata, else the well-known paths): { url, json } or undefined. */
export async function findProtectedResource(doctor) {
  if (doctor.protectedResource !== undefined) return doctor.protectedResource || undefined;
  const { origin, pathname } = doctor.url;
  const fromChallenge = /resource_metadata="([^"]+)"/.exec(doctor.authChallenge ?? "")?.[1];
  const candidates = [
    fromChallenge,
    `${origin}/.well-known/oauth-protected-resource${pathname.replace(/\/$/, "")}`,
    `${origin}/.well-known/oauth-protected-resource`,
  ];
  doctor.protectedResource = false;
  for (const url of new Set(candidates.filter(Boolean))) {
    const { status, json } = await getJson(doctor, url);
    if (status === 200 && isObject(json)) {
      doctor.protectedResource = { url, json };
      break;
    }
  }
  return doctor.protectedResource || undefined;
}

export async function checkProtectedResource(doctor) {
  const found = await findProtectedResource(doctor);
  const expected = `${doctor.url.origin}${doctor.url.pathname}`;
  if (!found) {
    if (doctor.authChallenge !== undefined)
      doctor.add(
        "auth-metadata",
        "fail",
        "the server asks for a token but serves no protected-resource metadata: clients cannot find where to get one",
        "Serve /.well-known/oauth-protected-resource (createMcpEdge's auth option does)",
      );
    else doctor.add("auth-metadata", "skip", "no protected-resource metadata (the server takes no token)");
    return;
  }
  const { url, json } = found;
  const resource = String(json.resource ?? "");
  const servers = json.authorization_servers;
  if (resource.replace(/\/$/, "") !== expected.replace(/\/$/, ""))
    doctor.add(
      "auth-metadata",
      "fail",
      `${url} names the resource "${resource}", not this endpoint (${expected}): clients will refuse the tokens' audience`,
      `Set the auth option's resource to the URL clients use: createMcpEdge(server, { auth: { resource: "${expected}", … } }) (with createAuthorizationServer, its issuer on the same origin)`,
    );
  else if (!Array.isArray(servers) || servers.length === 0 || !servers.every((s) => typeof s === "string"))
    doctor.add(
      "auth-metadata",
      "fail",
      `${url} lists no authorization_servers`,
      "Name the issuer in the auth option's authorizationServers (or use createAuthorizationServer)",
    );
  else doctor.add("auth-metadata", "ok", `protected-resource metadata names this endpoint and ${servers.join(", ")}`);
}

/** The fix when there is no card: what the project's defineServer still needs, then `discovery`. */
function cardFix(info) {
  const steps = [];
  const reverseDns = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/.test(String(info?.name ?? ""));
  if (info && !reverseDns) steps.push(`name: "com.example/${String(info.name).replace(/[^a-zA-Z0-9._-]+/g, "-")}"`);
  if (info && (typeof info.description !== "string" || info.description.length === 0))
    steps.push('description: "<what it does, 1-100 characters>"');
  const define = steps.length > 0 ? `give defineServer({ ${steps.join(", ")}, … }), then ` : "";
  return `Optional: ${define}pass discovery() from mcp-edge/discovery among the features of createMcpEdge (docs/discovery.md)`;
}

export async function checkServerCard(doctor) {
  const cardUrl = `${doctor.url.origin}${doctor.url.pathname.replace(/\/$/, "")}/server-card`;
  const { status, json } = await getJson(doctor, cardUrl);
  const info = doctor.discovered?.serverInfo;
  if (status !== 200 || !isObject(json)) {
    const what = status === 200 ? "not a JSON object" : `HTTP ${status}`;
    doctor.add(
      "server-card",
      "skip",
      `no Server Card at ${cardUrl} (${what}): registries and catalogs cannot describe the server`,
      cardFix(info),
    );
    return;
  }
  const problems = [];
  if (info && json.version !== info.version)
    problems.push(`version ${JSON.stringify(json.version)} but server/discover says ${info.version}`);
  if (info && json.description !== undefined && json.description !== info.description)
    problems.push("a description other than serverInfo's");
  const remotes = Array.isArray(json.remotes) ? json.remotes : [];
  const here = `${doctor.url.origin}${doctor.url.pathname}`;
  const named = remotes.map((r) => (isObject(r) ? String(r.url) : JSON.stringify(r)));
  if (!named.includes(here)) problems.push(`no remote names ${here} (${named.join(", ") || "none"})`);
  const name = typeof json.name === "string" ? json.name : JSON.stringify(json.name);
  const alias = info && name !== info.name ? ` (serverInfo.name is "${info.name}", which the card allows)` : "";
  if (problems.length === 0)
    doctor.add(
      "server-card",
      "ok",
      `the Server Card (${name} ${String(json.version)}) agrees with server/discover and names this endpoint${alias}`,
    );
  else
    doctor.add(
      "server-card",
      "fail",
      `the Server Card disagrees: ${problems.join("; ")}`,
      "The card names the origin the Worker was reached by (its Host): serve it from the deployment clients use, and route the public domain to the Worker itself (a Workers custom domain or route) rather than through a proxy that rewrites Host",
    );
}

function base64url(data) {
  return Buffer.from(data).toString("base64url");
}

/** A token shaped as mintTestToken() makes them, signed with a secret nobody has. */
function forgedTestToken() {
  const now = Math.floor(Date.now() / 1000);
  const claims = { scope: "", iss: TEST_TOKEN_ISSUER, sub: "mcp-edge-doctor", iat: now, exp: now + 300 };
  const input = `${base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }))}.${base64url(JSON.stringify(claims))}`;
  const signature = createHmac("sha256", randomBytes(32)).update(input).digest("base64url");
  return `${input}.${signature}`;
}

/** Whether --token is a test token (its payload names the test issuer). */
function isTestToken(token) {
  try {
    const payload = JSON.parse(Buffer.from(String(token).split(".")[1] ?? "", "base64url").toString("utf8"));
    return payload?.iss === TEST_TOKEN_ISSUER;
  } catch {
    return false;
  }
}

/**
 * How the server answers a forged test token: "accepted", "test-verifier" (refused by testAuth's words),
 * "test-verifier-off-loopback" (testAuth refusing every test token on a host that is not loopback), or "refused".
 */
async function tryForgedToken(doctor) {
  const headers = {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": MODERN,
    "Mcp-Method": "server/discover",
    Authorization: `Bearer ${forgedTestToken()}`,
  };
  const body = { jsonrpc: "2.0", id: doctor.nextId++, method: "server/discover", params: { _meta: {} } };
  const res = await doctor.fetch(doctor.url, { method: "POST", headers, body: JSON.stringify(body) });
  doctor.discard(res);
  if (res.status < 300) return "accepted";
  const challenge = res.headers.get("WWW-Authenticate") ?? "";
  if (/testAuth[^"]* is refused on /.test(challenge)) return "test-verifier-off-loopback";
  return /test (token|secret|verifier)/i.test(challenge) ? "test-verifier" : "refused";
}

/**
 * Test sign-in on a deployed host: testAuth() answers there when the metadata names the test
 * verifier, when a forged test token is refused in its words (or accepted), or when --token is a
 * test token the server took. Fine on a local server; a failure anywhere else.
 */
export async function checkTestAuth(doctor) {
  const takesTokens = doctor.authChallenge !== undefined || (await findProtectedResource(doctor)) !== undefined;
  const tokenAccepted = doctor.options.token && isTestToken(doctor.options.token) && doctor.discoverReply !== undefined;
  if (!takesTokens && !tokenAccepted) return;
  const metadata = await findProtectedResource(doctor);
  const named = /test verifier/i.test(String(metadata?.json?.resource_name ?? ""));
  const forged = await tryForgedToken(doctor);
  const evidence = [];
  if (tokenAccepted) evidence.push("the test token given with --token was accepted");
  if (forged === "accepted") evidence.push("a test token signed with a random secret was accepted");
  if (forged === "test-verifier") evidence.push("a forged test token is refused in testAuth()'s words");
  if (named) evidence.push(`the metadata names "${metadata.json.resource_name}"`);
  if (forged === "test-verifier-off-loopback" && !isLoopback(doctor.url.hostname))
    return doctor.add(
      "test-auth",
      "warn",
      `the test-only entry answers at ${doctor.url.host}: testAuth() refuses test tokens on this host, so nobody signs in at all`,
      "Deploy the entry whose auth option is your real verifier (keep testAuth() in a test-only entry and config)",
    );
  if (evidence.length === 0) return doctor.add("test-auth", "ok", "test tokens (mintTestToken) are not accepted here");
  if (isLoopback(doctor.url.hostname))
    return doctor.add(
      "test-auth",
      "ok",
      `test sign-in (testAuth()) on a local server, fine for tests and wrangler dev: ${evidence.join("; ")}`,
    );
  doctor.add(
    "test-auth",
    "fail",
    `test sign-in (testAuth()) answers at ${doctor.url.host}: ${evidence.join("; ")}. Whoever holds MCP_TEST_AUTH_SECRET signs in as anyone`,
    "Deploy an entry whose auth option is your real verifier (keep testAuth() in a test-only entry and config), and remove the secret: npx wrangler secret delete MCP_TEST_AUTH_SECRET",
  );
}
