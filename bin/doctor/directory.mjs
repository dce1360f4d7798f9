// `--directory`: what the directories (Claude's connectors directory, ChatGPT's apps, VS Code's MCP
// gallery, Gemini's extensions) review before they list a server, checked on the deployment itself.
// docs/publishing.md has the checklist and where each rule comes from.
import { cause, describeError, isLoopback, isObject } from "./client.mjs";
import { missingHeaders, preflight } from "./checks.mjs";
import { findProtectedResource, getJson } from "./metadata.mjs";

/** Claude's review criteria: tool names of 64 characters or fewer. */
const MAX_NAME = 64;
/** The spec's tool name characters (2025-11-25 and 2026-07-28 "Tool Names"). */
const NAME_CHARACTERS = /^[A-Za-z0-9_.-]+$/;
const HINTS = ["readOnlyHint", "destructiveHint", "openWorldHint"];
/** The browser origins of the hosted connectors' web apps. */
const CONNECTOR_ORIGINS = ["https://claude.ai", "https://chatgpt.com"];
/** The user agents the hosted connectors call with (a firewall's "AI bots" rule may refuse them). */
const CONNECTOR_AGENTS = ["Claude-User", "ChatGPT-User"];
const APP_MIME_TYPE = "text/html;profile=mcp-app";

/** "a, b and 3 more": names for a finding, at most five. */
function some(names) {
  const shown = names.slice(0, 5).map((n) => `"${n}"`);
  return names.length > 5 ? `${shown.join(", ")} and ${names.length - 5} more` : shown.join(", ");
}

/** Each tool's title (its own, or annotations.title) and the three hints, as the directories ask. */
function checkAnnotations(doctor, tools) {
  const untitled = tools.filter((t) => typeof t.title !== "string" && typeof t.annotations?.title !== "string").map((t) => t.name);
  const unhinted = tools.filter((t) => HINTS.some((hint) => typeof t.annotations?.[hint] !== "boolean")).map((t) => t.name);
  if (untitled.length === 0 && unhinted.length === 0)
    return doctor.add(
      "tool-annotations",
      "ok",
      `every tool has a title and sets readOnlyHint, destructiveHint and openWorldHint (${tools.length})`,
    );
  const problems = [];
  if (untitled.length > 0) problems.push(`no title: ${some(untitled)}`);
  if (unhinted.length > 0) problems.push(`not all of readOnlyHint, destructiveHint, openWorldHint set: ${some(unhinted)}`);
  doctor.add(
    "tool-annotations",
    "fail",
    `tools the directories would refuse (Claude: a title and the applicable hint on every tool; ChatGPT: all three hints): ${problems.join("; ")}`,
    'Give each tool a title and its hints in defineServer: .tool("name", { title: "…", description: "…", annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false } }, handler)',
  );
}

function checkNames(doctor, tools) {
  const long = tools.filter((t) => t.name.length > MAX_NAME).map((t) => t.name);
  const odd = tools.filter((t) => !NAME_CHARACTERS.test(t.name)).map((t) => t.name);
  const twice = tools.map((t) => t.name).filter((name, index, names) => names.indexOf(name) !== index);
  if (long.length + odd.length + twice.length === 0)
    return doctor.add("tool-names", "ok", `every tool name has 1-${MAX_NAME} characters of A-Z a-z 0-9 _ - . and is unique`);
  const problems = [];
  if (long.length > 0) problems.push(`longer than ${MAX_NAME} characters (Claude's limit): ${some(long)}`);
  if (odd.length > 0) problems.push(`characters other than A-Z a-z 0-9 _ - . (the spec's tool name rule): ${some(odd)}`);
  if (twice.length > 0) problems.push(`listed twice: ${some(twice)}`);
  doctor.add(
    "tool-names",
    "fail",
    `tool names: ${problems.join("; ")}`,
    "Rename the tools in defineServer (snake_case, at most 64 characters)",
  );
}

function checkIcons(doctor) {
  if (!isObject(doctor.initialized?.serverInfo)) return;
  const icons = doctor.initialized.serverInfo.icons;
  if (Array.isArray(icons) && icons.length > 0) {
    const insecure = icons.filter((i) => !isObject(i) || !/^(https:|data:image\/)/.test(String(i.src))).length;
    if (insecure === 0) return doctor.add("icons", "ok", `serverInfo names ${icons.length} icon(s), each on https or a data: URL`);
    return doctor.add("icons", "fail", `${insecure} of serverInfo's icons are not on https (or a data: URL): clients do not load them`);
  }
  doctor.add(
    "icons",
    "warn",
    "serverInfo names no icons: clients (VS Code, Claude, ChatGPT) show a generic one (the directories' forms also ask for one)",
    'defineServer({ …, icons: [{ src: "https://example.com/icon.png", mimeType: "image/png", sizes: ["64x64"] }] })',
  );
}

function checkOutputSchemas(doctor, tools) {
  const without = tools.filter((t) => !isObject(t.outputSchema)).map((t) => t.name);
  if (without.length === 0) return doctor.add("output-schemas", "ok", "every tool declares an outputSchema");
  doctor.add(
    "output-schemas",
    "warn",
    `${without.length} of ${tools.length} tool(s) declare no outputSchema (${some(without)}): a tool whose result has structuredContent should describe it (ChatGPT's Apps SDK reads structuredContent; clients validate it against the schema)`,
    'Declare it in defineServer: .tool("name", { …, output: z.object({ … }) }, handler), and return structuredContent',
  );
}

/** The search/fetch pair deep-research clients call: search(query) and fetch(id), each one string. */
function checkSearchFetch(doctor, tools) {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const takes = (name, argument) => {
    const schema = byName.get(name)?.inputSchema;
    return schema?.properties?.[argument]?.type === "string" && Array.isArray(schema.required) && schema.required.includes(argument);
  };
  if (!byName.has("search") && !byName.has("fetch"))
    return doctor.add(
      "search-fetch",
      "skip",
      "no search and fetch tools: deep-research clients (ChatGPT deep research and company knowledge) use only those two",
      "Optional: docs/publishing.md has the search/fetch recipe",
    );
  if (takes("search", "query") && takes("fetch", "id"))
    return doctor.add("search-fetch", "ok", "search(query) and fetch(id) take the one string argument deep-research clients send");
  doctor.add(
    "search-fetch",
    "fail",
    "search and fetch are not the pair deep-research clients call: search takes a required string query, fetch a required string id",
    "docs/publishing.md has the search/fetch recipe",
  );
}

async function checkChallenge(doctor) {
  const url = `${doctor.url.origin}/.well-known/openai-apps-challenge`;
  const res = await doctor.fetch(url, { headers: { Accept: "text/plain" } });
  let text = "";
  if (res.status === 200) text = (await doctor.readText(res)).trim();
  else doctor.discard(res);
  if (res.status === 200 && text.length > 0 && !text.startsWith("{") && !text.startsWith("<"))
    return doctor.add("chatgpt-domain", "ok", `${url} answers a token (${text.length} characters) for ChatGPT's domain check`);
  doctor.add(
    "chatgpt-domain",
    "warn",
    `${url} answers no token (HTTP ${res.status}): ChatGPT's app submission verifies the domain there`,
    "When you submit to ChatGPT: serve the token it gives you as text/plain at /.well-known/openai-apps-challenge (createMcpEdge's fallback option can answer it); other directories do not need it",
  );
}

/** MCP Apps: each ui:// resource names its own origin in _meta.ui.domain, one for the whole app. */
async function checkUiDomain(doctor) {
  const list = await doctor.post2026("resources/list");
  const resources = Array.isArray(list.reply?.result?.resources) ? list.reply.result.resources.filter(isObject) : [];
  const apps = resources.filter((r) => r.mimeType === APP_MIME_TYPE || String(r.uri).startsWith("ui://"));
  if (apps.length === 0) return;
  const missing = apps.filter((r) => typeof r._meta?.ui?.domain !== "string").map((r) => String(r.uri));
  const domains = new Set(apps.map((r) => r._meta?.ui?.domain).filter((d) => typeof d === "string"));
  if (missing.length > 0)
    return doctor.add(
      "ui-domain",
      "fail",
      `MCP App page(s) without _meta.ui.domain: ${some(missing)}: ChatGPT renders an app's pages on the app's own domain and its review asks for one`,
      'server.add(uiResource("ui://…", { …, domain: "https://<your app>.example.com" }, html)) (mcp-edge/apps): one dedicated origin for the app, not shared with another app',
    );
  if (domains.size > 1)
    return doctor.add("ui-domain", "warn", `the app's pages name ${domains.size} domains (${[...domains].join(", ")}): an app has one`);
  doctor.add("ui-domain", "ok", `every MCP App page names the app's domain ${[...domains][0]}`);
}

/** The authorization server's metadata, reachable from the public internet (not a local or private host). */
async function checkPublicAuth(doctor) {
  const found = await findProtectedResource(doctor);
  if (!found) return;
  const issuers = Array.isArray(found.json.authorization_servers) ? found.json.authorization_servers.map(String) : [];
  for (const issuer of issuers) {
    let url;
    try {
      url = new URL(issuer);
    } catch {
      doctor.add("public-auth", "fail", `the authorization server "${issuer}" is not a URL`);
      continue;
    }
    if (!isLoopback(doctor.url.hostname) && (url.protocol !== "https:" || isLoopback(url.hostname)))
      doctor.add(
        "public-auth",
        "fail",
        `the authorization server ${issuer} is not a public https origin: hosted connectors cannot reach it`,
      );
    else await checkIssuerMetadata(doctor, issuer);
  }
}

async function checkIssuerMetadata(doctor, issuer) {
  const { origin, pathname } = new URL(issuer);
  const path = pathname.replace(/\/$/, "");
  const candidates = [`${origin}/.well-known/oauth-authorization-server${path}`, `${origin}/.well-known/openid-configuration${path}`];
  for (const url of candidates) {
    const { json } = await getJson(doctor, url);
    if (!isObject(json)) continue;
    const missing = ["authorization_endpoint", "token_endpoint"].filter((key) => typeof json[key] !== "string");
    const registers = typeof json.registration_endpoint === "string" || json.client_id_metadata_document_supported === true;
    if (missing.length > 0) return doctor.add("public-auth", "fail", `${url} names no ${missing.join(" or ")}`);
    if (!registers)
      return doctor.add(
        "public-auth",
        "warn",
        `${url} offers neither dynamic registration nor Client ID Metadata Documents: Claude and ChatGPT register themselves through one of them`,
      );
    return doctor.add("public-auth", "ok", `the authorization server's metadata (${url}) is reachable and lets clients register`);
  }
  doctor.add("public-auth", "fail", `no authorization server metadata at ${candidates.join(" or ")}: clients cannot sign in`);
}

/** The connectors' user agents reach the server (a firewall rule against AI bots refuses them before it). */
async function checkAgents(doctor) {
  const refused = [];
  for (const agent of CONNECTOR_AGENTS) {
    const headers = doctor.headers({ "User-Agent": agent, "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover" });
    const body = JSON.stringify({ jsonrpc: "2.0", id: doctor.nextId++, method: "server/discover", params: {} });
    const res = await doctor.fetch(doctor.url, { method: "POST", headers, body });
    const text = await doctor.readText(res);
    const served = res.status < 400 || res.status === 401 || text.includes('"jsonrpc"');
    if (!served) refused.push(`${agent} (HTTP ${res.status}${res.headers.get("cf-mitigated") ? ", cf-mitigated" : ""})`);
  }
  if (refused.length === 0) return doctor.add("connector-agents", "ok", `requests as ${CONNECTOR_AGENTS.join(" and ")} reach the server`);
  doctor.add(
    "connector-agents",
    "fail",
    `requests as ${refused.join(", ")} are refused before they reach the server: a firewall rule blocks the connectors`,
    'In the Cloudflare dashboard, let the MCP path and /.well-known/ through the "Block AI bots" / AI Crawl Control rules (Claude calls as Claude-User, ChatGPT as ChatGPT-User)',
  );
}

/**
 * The connectors' web origins: Claude and ChatGPT call from their servers, without an Origin, so no
 * grant is needed; but a grant that is given must work (the MCP headers allowed, the POST served).
 */
async function checkConnectorCors(doctor) {
  for (const origin of CONNECTOR_ORIGINS) {
    const pre = await preflight(doctor, origin);
    const granted = pre.headers.get("Access-Control-Allow-Origin");
    if (granted !== origin && granted !== "*") {
      doctor.add("connector-cors", "ok", `${origin} gets no CORS grant: fine, the hosted connector calls from its servers (no Origin)`);
      continue;
    }
    const post = await doctor.post2026("server/discover", {}, { headers: { Origin: origin } });
    const missing = missingHeaders(pre);
    if (missing.length > 0 || post.res.status >= 400)
      doctor.add(
        "connector-cors",
        "fail",
        `${origin}'s preflight is granted but ${missing.length > 0 ? `leaves out ${missing.join(", ")}` : `the POST is refused (${describeError(post.res, post.reply)})`}`,
        `List "${origin}" in allowedOrigins (createMcpEdge) so the preflight and the request agree`,
      );
    else doctor.add("connector-cors", "ok", `${origin} is granted, with the MCP headers`);
  }
}

/** The directory checks; each a finding, none of them stopping the others. */
export async function checkDirectory(doctor) {
  const tools = doctor.tools;
  if (Array.isArray(tools)) {
    checkAnnotations(doctor, tools);
    checkNames(doctor, tools);
    checkOutputSchemas(doctor, tools);
    checkSearchFetch(doctor, tools);
  } else doctor.add("tool-annotations", "skip", "no tools/list to review (see the checks above; with auth, pass --token)");
  for (const [name, check] of [
    ["icons", checkIcons],
    ["chatgpt-domain", checkChallenge],
    ["ui-domain", checkUiDomain],
    ["public-auth", checkPublicAuth],
    ["connector-agents", checkAgents],
    ["connector-cors", checkConnectorCors],
  ]) {
    try {
      await check(doctor);
    } catch (error) {
      if (doctor.expired()) throw error;
      doctor.add(name, "fail", `the server's answer could not be read: ${cause(error)}`);
    }
  }
}
