#!/usr/bin/env node
// `mcp-edge doctor <url>`: checks a running or deployed MCP server the way hosted connectors
// meet it (reachable, TLS, allowed hosts and CORS, both eras' tools/list, the state secret, auth
// metadata and the Server Card, the hub and task bindings) and prints each finding with its fix.
// Plain Node >= 22, no dependency: fetch for everything, node:http(s) for the one request whose
// Host header fetch cannot set (the DNS-rebinding check). Exit code 1 when any check fails.
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";

const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";
const TASKS = "io.modelcontextprotocol/tasks";
const FOREIGN_ORIGIN = "https://mcp-edge-doctor.invalid";
const FOREIGN_HOST = "mcp-edge-doctor.invalid";
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);
const USAGE = `Usage: mcp-edge doctor <url> [options]

Checks an MCP server (e.g. https://my-server.example.workers.dev/mcp) as hosted connectors meet it.

Options:
  --json                     print the findings as JSON (one object: { url, ok, findings })
  --token <token>            send "Authorization: Bearer <token>" (servers with auth)
  --origin <origin>          also check that this browser origin is allowed (CORS preflight)
  --interactive-tool <name>  the tool to run a 2026-07-28 interactive round with (the state secret check);
                             default: a tool without required arguments whose description says it asks
  --task-tool <name>         run this tool once as a task (servers with the tasks extension)
  --task-args <json>         its arguments (default {})
  --timeout <ms>             per request (default 10000)
  -h, --help                 this text`;

/** @typedef {{ check: string, status: "ok" | "warn" | "fail" | "skip", message: string, fix?: string }} Finding */

/** @param {string[]} argv */
function parseArgs(argv) {
  const options = {
    json: false,
    token: undefined,
    origin: undefined,
    interactiveTool: undefined,
    taskTool: undefined,
    taskArgs: {},
    timeoutMs: 10_000,
    url: undefined,
  };
  const rest = [...argv];
  const command = rest.shift();
  if (command === "-h" || command === "--help" || command === undefined) return { help: true };
  if (command !== "doctor") return { error: `unknown command "${command}" (the one command is "doctor")` };
  while (rest.length > 0) {
    const arg = rest.shift();
    const value = () => {
      const next = rest.shift();
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === "--json") options.json = true;
    else if (arg === "--token") options.token = value();
    else if (arg === "--origin") options.origin = value();
    else if (arg === "--interactive-tool") options.interactiveTool = value();
    else if (arg === "--task-tool") options.taskTool = value();
    else if (arg === "--task-args") options.taskArgs = jsonObject(value());
    else if (arg === "--timeout") options.timeoutMs = Number(value());
    else if (arg === "-h" || arg === "--help") return { help: true };
    else if (arg.startsWith("-")) return { error: `unknown option ${arg}` };
    else if (options.url === undefined) options.url = arg;
    else return { error: `one URL only (got "${options.url}" and "${arg}")` };
  }
  if (options.url === undefined)
    return { error: "doctor needs the server's URL, e.g. mcp-edge doctor https://my-server.example.workers.dev/mcp" };
  if (!Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0) return { error: "--timeout takes a number of milliseconds" };
  return { options };
}

function jsonObject(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`--task-args takes a JSON object, e.g. '{"seconds":0}' (got ${text})`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("--task-args takes a JSON object");
  return value;
}

/** The `_meta` envelope of a 2026-07-28 request. */
function envelope(capabilities = {}) {
  return {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": { name: "mcp-edge-doctor", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": capabilities,
  };
}

/** Reads a JSON-RPC answer from a JSON body or an SSE stream (the message with this id). */
async function readReply(res, id) {
  const type = res.headers.get("Content-Type") ?? "";
  const text = await res.text();
  if (!type.includes("text/event-stream")) {
    try {
      return JSON.parse(text);
    } catch {
      return { unparsed: text.slice(0, 200) };
    }
  }
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).trimStart())
      .join("\n");
    if (!data) continue;
    try {
      const message = JSON.parse(data);
      if (message.id === id) return message;
    } catch {}
  }
  return { unparsed: text.slice(0, 200) };
}

class Doctor {
  constructor(options) {
    this.options = options;
    this.url = new URL(options.url);
    /** @type {Finding[]} */
    this.findings = [];
    this.nextId = 1;
    this.discovered = undefined;
  }

  add(check, status, message, fix) {
    this.findings.push(fix === undefined ? { check, status, message } : { check, status, message, fix });
  }

  headers(extra = {}) {
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...extra };
    if (this.options.token) headers.Authorization = `Bearer ${this.options.token}`;
    return headers;
  }

  fetch(url, init = {}) {
    return fetch(url, { ...init, redirect: "manual", signal: init.signal ?? AbortSignal.timeout(this.options.timeoutMs) });
  }

  /** One 2026-07-28 request (headers and `_meta` as a conforming client sends them): { res, reply }. */
  async post2026(method, params = {}, { capabilities, headers } = {}) {
    const id = this.nextId++;
    const standard = { "MCP-Protocol-Version": MODERN, "Mcp-Method": method };
    if (method === "tools/call") standard["Mcp-Name"] = params.name;
    if (method.startsWith("tasks/")) standard["Mcp-Name"] = params.taskId;
    const body = { jsonrpc: "2.0", id, method, params: { ...params, _meta: envelope(capabilities) } };
    const res = await this.fetch(this.url, {
      method: "POST",
      headers: this.headers({ ...standard, ...headers }),
      body: JSON.stringify(body),
    });
    return { res, reply: await readReply(res, id) };
  }

  /** One 2025-era request: { res, reply }. */
  async post2025(message, sessionId) {
    const extra = sessionId ? { "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": LEGACY } : {};
    const res = await this.fetch(this.url, { method: "POST", headers: this.headers(extra), body: JSON.stringify(message) });
    return { res, reply: "id" in message ? await readReply(res, message.id) : undefined };
  }
}

/** Why a JSON-RPC reply failed, in one line. */
function describeError(res, reply) {
  if (reply?.error) return `HTTP ${res.status}, JSON-RPC ${reply.error.code}: ${firstLine(reply.error.message)}`;
  if (reply?.unparsed !== undefined) return `HTTP ${res.status}, not JSON-RPC: ${JSON.stringify(reply.unparsed)}`;
  return `HTTP ${res.status}`;
}

/** A message's first sentence or line, without the fix mcp-edge appends (the finding's fix carries it). */
function firstLine(text) {
  const line = String(text ?? "").split("\n")[0];
  const fix = line.search(/ (Add to wrangler\.toml|Generate one with)/);
  return fix > 0 ? line.slice(0, fix) : line;
}

/** The fix a misconfiguration error names (mcp-edge quotes the wrangler.toml lines), else undefined. */
function fixOf(reply) {
  const data = reply?.error?.data;
  const message = String(reply?.error?.message ?? "");
  if (data?.wranglerToml) {
    const exportLine = /export the class from the Worker entry: .*$/.exec(message)?.[0];
    return `Add to wrangler.toml:\n${data.wranglerToml}${exportLine ? `\nand ${exportLine}` : ""}`;
  }
  const at = message.indexOf("Generate one with");
  return at >= 0 ? message.slice(at) : undefined;
}

function cause(error) {
  const inner = error?.cause;
  if (error?.name === "TimeoutError") return "no answer in time (--timeout)";
  return inner ? `${error.message}: ${inner.code ?? ""} ${inner.message ?? ""}`.trim() : String(error?.message ?? error);
}

/** URL scheme and TLS: https everywhere except a local server. */
function checkTransport(doctor) {
  const { protocol, hostname } = doctor.url;
  if (protocol === "https:") return;
  if (protocol !== "http:") {
    doctor.add("tls", "fail", `${doctor.url} is not an http(s) URL`, "Give the server's Streamable HTTP endpoint, e.g. https://host/mcp");
  } else if (LOOPBACK.has(hostname)) {
    doctor.add("tls", "ok", "plain http: fine for a local server (hosted connectors need https once deployed)");
  } else {
    doctor.add(
      "tls",
      "fail",
      `plain http to ${hostname}: hosted connectors (Claude, ChatGPT) and browsers refuse it, and tokens would travel in clear text`,
      "Serve the endpoint over https (a workers.dev or custom domain on Cloudflare has TLS by default)",
    );
  }
}

/**
 * Reachable, and the first answer: server/discover (2026-07-28). Returns false when nothing
 * more can be checked (unreachable, refused host, auth needed and no token).
 */
async function checkReachable(doctor) {
  let answer;
  try {
    answer = await doctor.post2026("server/discover");
  } catch (error) {
    const tls = /certificate|SSL|TLS/i.test(cause(error));
    doctor.add(
      tls ? "tls" : "reachable",
      "fail",
      `${doctor.url} could not be reached: ${cause(error)}`,
      tls
        ? "Fix the certificate of the host (or use the workers.dev URL)"
        : "Check the URL, that the Worker is deployed (wrangler deploy) or running (npm run dev)",
    );
    return false;
  }
  const { res, reply } = answer;
  if (doctor.url.protocol === "https:") doctor.add("tls", "ok", "https with a certificate Node trusts");
  doctor.add("reachable", "ok", `${doctor.url} answers (HTTP ${res.status})`);
  return checkFirstAnswer(doctor, res, reply);
}

/** Reads the first answer: a refused host, auth, a wrong path, or server/discover's result. */
async function checkFirstAnswer(doctor, res, reply) {
  const message = String(reply?.error?.message ?? "");
  if (res.status === 403 && message.includes("not an allowed host")) {
    const host = /host "([^"]+)"/.exec(message)?.[1] ?? doctor.url.hostname;
    doctor.add(
      "allowed-hosts",
      "fail",
      `the server refuses the host name it is reached by: ${firstLine(message)}`,
      `Add "${host}" to the allowedHosts option of createMcpEdge, or to MCP_ALLOWED_HOSTS in wrangler.toml [vars] (comma-separated)`,
    );
    return false;
  }
  doctor.add("allowed-hosts", "ok", `requests to ${doctor.url.host} are accepted`);
  if (res.status === 401) {
    doctor.authChallenge = res.headers.get("WWW-Authenticate") ?? "";
    if (!doctor.options.token) {
      doctor.add(
        "auth",
        "warn",
        "the server asks for a token (401): checks that need one are skipped",
        "Pass --token <access token> to check the rest",
      );
      doctor.metadataOnly = true;
      return false;
    }
    doctor.add("auth", "fail", "the token given with --token is refused (401)", "Pass a valid, unexpired access token for this resource");
    return false;
  }
  if (res.status === 404 || res.status === 405) {
    doctor.add(
      "endpoint",
      "fail",
      `no MCP endpoint at ${doctor.url.pathname} (HTTP ${res.status})`,
      "Give the path the server is mounted on (createMcpEdge's path, default /mcp)",
    );
    return false;
  }
  doctor.discoverReply = { res, reply };
  return true;
}

/** Both eras: 2026-07-28 (server/discover, stateless tools/list) and 2025-11-25 (a session's tools/list). */
async function checkEras(doctor) {
  const { res, reply } = doctor.discoverReply;
  const serverInfo = reply?.result?._meta?.["io.modelcontextprotocol/serverInfo"] ?? reply?.result?.serverInfo;
  if (serverInfo) {
    doctor.discovered = { ...reply.result, serverInfo };
    const versions = reply.result.supportedVersions ?? [];
    doctor.add("era-2026", "ok", `server/discover: ${serverInfo.name} ${serverInfo.version}, versions ${versions.join(", ")}`);
    const list = await doctor.post2026("tools/list");
    const tools = list.reply?.result?.tools;
    if (Array.isArray(tools)) {
      doctor.tools = tools;
      doctor.add("tools-2026", "ok", `tools/list (2026-07-28, stateless) answers ${tools.length} tool(s)`);
    } else doctor.add("tools-2026", "fail", `tools/list (2026-07-28) failed: ${describeError(list.res, list.reply)}`, fixOf(list.reply));
  } else {
    doctor.add(
      "era-2026",
      "warn",
      `server/discover (2026-07-28) failed: ${describeError(res, reply)}`,
      "Clients on 2026-07-28 cannot use this server; serve both eras (mcp-edge's default)",
    );
  }
  await checkEra2025(doctor);
}

async function checkEra2025(doctor) {
  const init = {
    jsonrpc: "2.0",
    id: doctor.nextId++,
    method: "initialize",
    params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "mcp-edge-doctor", version: "1" } },
  };
  const { res, reply } = await doctor.post2025(init);
  const sessionId = res.headers.get("Mcp-Session-Id") ?? undefined;
  if (!reply?.result) {
    doctor.add(
      "era-2025",
      "warn",
      `initialize (2025-11-25) failed: ${describeError(res, reply)}`,
      fixOf(reply) ?? "Clients on 2025-11-25 (most today) cannot use this server",
    );
    return;
  }
  doctor.add(
    "era-2025",
    "ok",
    `initialize (2025-11-25): protocol ${reply.result.protocolVersion}${sessionId ? ", session" : ", stateless"}`,
  );
  await doctor.post2025({ jsonrpc: "2.0", method: "notifications/initialized" }, sessionId);
  const list = await doctor.post2025({ jsonrpc: "2.0", id: doctor.nextId++, method: "tools/list" }, sessionId);
  const tools = list.reply?.result?.tools;
  if (Array.isArray(tools))
    doctor.add("tools-2025", "ok", `tools/list (2025-11-25${sessionId ? ", in the session" : ""}) answers ${tools.length} tool(s)`);
  else doctor.add("tools-2025", "fail", `tools/list (2025-11-25) failed: ${describeError(list.res, list.reply)}`, fixOf(list.reply));
  if (!sessionId) return;
  const end = await doctor.fetch(doctor.url, {
    method: "DELETE",
    headers: doctor.headers({ "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": LEGACY }),
  });
  await end.body?.cancel();
  if (end.status >= 400 && end.status !== 405) doctor.add("tools-2025", "warn", `DELETE of the session answered HTTP ${end.status}`);
}

/** A request from a foreign browser origin is refused; a preflight from it gets no CORS grant. */
async function checkOrigins(doctor) {
  const foreign = await doctor.post2026("tools/list", {}, { headers: { Origin: FOREIGN_ORIGIN } });
  if (foreign.res.status === 403) doctor.add("origin", "ok", `a request from a foreign Origin (${FOREIGN_ORIGIN}) is refused (403)`);
  else if (foreign.res.headers.get("Access-Control-Allow-Origin") === "*" || foreign.res.status < 300)
    doctor.add(
      "origin",
      "warn",
      `a request from any browser origin is served (HTTP ${foreign.res.status}): any web page can call this server with its users' credentials`,
      'Unless that is intended, list the origins of the browser clients you serve in allowedOrigins (or MCP_ALLOWED_ORIGINS) instead of "*"',
    );
  else doctor.add("origin", "ok", `a request from a foreign Origin is not served (HTTP ${foreign.res.status})`);
  const pre = await preflight(doctor, FOREIGN_ORIGIN);
  const granted = pre.headers.get("Access-Control-Allow-Origin");
  if (granted === FOREIGN_ORIGIN || granted === "*")
    doctor.add("cors", "warn", `a preflight from a foreign origin is granted (Access-Control-Allow-Origin: ${granted})`);
  else doctor.add("cors", "ok", `a preflight (OPTIONS) from a foreign origin gets no CORS grant (HTTP ${pre.status})`);
  if (doctor.options.origin) await checkOwnOrigin(doctor);
}

async function preflight(doctor, origin) {
  const res = await doctor.fetch(doctor.url, {
    method: "OPTIONS",
    headers: {
      Origin: origin,
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": "content-type, mcp-protocol-version, mcp-session-id, mcp-method, authorization",
    },
  });
  await res.body?.cancel();
  return res;
}

/** The origin given with --origin: its preflight is granted with the headers MCP clients send. */
async function checkOwnOrigin(doctor) {
  const origin = doctor.options.origin;
  const res = await preflight(doctor, origin);
  const granted = res.headers.get("Access-Control-Allow-Origin");
  const headers = (res.headers.get("Access-Control-Allow-Headers") ?? "").toLowerCase();
  const missing = ["mcp-protocol-version", "mcp-session-id", "authorization"].filter((h) => !headers.includes(h) && headers !== "*");
  if (granted !== origin && granted !== "*")
    doctor.add(
      "cors",
      "fail",
      `a browser client at ${origin} is refused (preflight HTTP ${res.status}, no Access-Control-Allow-Origin for it)`,
      `Add "${origin}" to the allowedOrigins option of createMcpEdge, or to MCP_ALLOWED_ORIGINS`,
    );
  else if (missing.length > 0) doctor.add("cors", "fail", `the preflight for ${origin} does not allow the headers ${missing.join(", ")}`);
  else doctor.add("cors", "ok", `a browser client at ${origin} may call the server (preflight granted)`);
}

/** A request naming a foreign Host (DNS rebinding) is refused: node:http, as fetch cannot set Host. */
function sendWithHost(doctor, host) {
  const { url } = doctor;
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const body = JSON.stringify({ jsonrpc: "2.0", id: doctor.nextId++, method: "ping" });
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: "POST",
        headers: { ...doctor.headers(), Host: host, "Content-Length": Buffer.byteLength(body) },
        servername: url.hostname,
        timeout: doctor.options.timeoutMs,
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("timeout", () => req.destroy(new Error("no answer in time")));
    req.on("error", reject);
    req.end(body);
  });
}

async function checkForeignHost(doctor) {
  let status;
  try {
    status = await sendWithHost(doctor, FOREIGN_HOST);
  } catch (error) {
    doctor.add("dns-rebinding", "ok", `a request naming a foreign Host is not served (${cause(error)})`);
    return;
  }
  if (status >= 400) doctor.add("dns-rebinding", "ok", `a request naming a foreign Host (${FOREIGN_HOST}) is refused (HTTP ${status})`);
  else
    doctor.add(
      "dns-rebinding",
      LOOPBACK.has(doctor.url.hostname) ? "fail" : "warn",
      `a request naming a foreign Host (${FOREIGN_HOST}) is served (HTTP ${status}): a web page could reach this server through DNS rebinding`,
      'Remove "*" from allowedHosts / MCP_ALLOWED_HOSTS and list the host names the server is reached by',
    );
}

/** Tools to try: --interactive-tool, else up to three that say they ask and need no arguments. */
function interactiveCandidates(doctor) {
  if (doctor.options.interactiveTool) return [doctor.options.interactiveTool];
  const asks = (tool) =>
    (tool.inputSchema?.required ?? []).length === 0 && /\b(asks?|elicits?|elicitation)\b/i.test(`${tool.description ?? ""}`);
  return (doctor.tools ?? [])
    .filter(asks)
    .slice(0, 3)
    .map((tool) => tool.name);
}

/**
 * The state secret: one 2026-07-28 interactive round, input_required then a retry that declines
 * every question. Returns a finding, or undefined when the tool did not ask (try the next).
 */
async function interactiveRound(doctor, name) {
  const capabilities = { elicitation: { form: {}, url: {} } };
  const first = await doctor.post2026("tools/call", { name, arguments: {} }, { capabilities });
  const message = String(first.reply?.error?.message ?? "");
  if (message.includes("MCP_STATE_SECRET"))
    return ["fail", `the interactive tool "${name}" cannot ask the user: ${firstLine(message)}`, fixOf(first.reply)];
  const result = first.reply?.result;
  if (result?.resultType !== "input_required") return undefined;
  const inputResponses = Object.fromEntries(Object.keys(result.inputRequests ?? {}).map((key) => [key, { action: "decline" }]));
  const params = { name, arguments: {}, inputResponses, requestState: result.requestState };
  const retry = await doctor.post2026("tools/call", params, { capabilities });
  if (retry.reply?.result)
    return ["ok", `a 2026-07-28 interactive round with "${name}" completes (its request state signed, then verified)`];
  return [
    "fail",
    `the retry of "${name}" with its request state failed: ${describeError(retry.res, retry.reply)}`,
    fixOf(retry.reply) ?? "Every instance must have the same MCP_STATE_SECRET (wrangler secret put MCP_STATE_SECRET)",
  ];
}

async function checkStateSecret(doctor) {
  if (!doctor.discovered) return;
  const names = interactiveCandidates(doctor);
  for (const name of names) {
    const finding = await interactiveRound(doctor, name);
    if (finding) return doctor.add("state-secret", ...finding);
  }
  doctor.add(
    "state-secret",
    "skip",
    names.length === 0
      ? "could not check MCP_STATE_SECRET: no tool says it asks the user (and needs no arguments)"
      : `could not check MCP_STATE_SECRET: ${names.join(", ")} did not ask for input`,
    "Pass --interactive-tool <name> naming a tool that elicits without arguments; the doctor declines what it asks",
  );
}

/** The hub: a 2026-07-28 subscriptions/listen opens and is acknowledged. */
async function checkListen(doctor) {
  if (!doctor.discovered) return;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), doctor.options.timeoutMs);
  try {
    const id = doctor.nextId++;
    const body = {
      jsonrpc: "2.0",
      id,
      method: "subscriptions/listen",
      params: { notifications: listenFilter(doctor), _meta: envelope(listenCapabilities(doctor)) },
    };
    const headers = doctor.headers({ "MCP-Protocol-Version": MODERN, "Mcp-Method": "subscriptions/listen" });
    const res = await fetch(doctor.url, { method: "POST", headers, body: JSON.stringify(body), signal: controller.signal });
    if (!(res.headers.get("Content-Type") ?? "").includes("text/event-stream")) {
      const reply = await readReply(res, id);
      if (reply?.error?.code === -32601)
        doctor.add("listen", "skip", "subscriptions/listen is not served (-32601): no notifications to check");
      else doctor.add("listen", listenMatters(doctor) ? "fail" : "warn", listenFailure(doctor, res, reply), fixOf(reply));
      return;
    }
    const first = await firstEvent(res);
    controller.abort();
    if (first?.method === "notifications/subscriptions/acknowledged")
      doctor.add("listen", "ok", listenAcknowledged(doctor, first.params?.notifications));
    else
      doctor.add(
        "listen",
        "fail",
        `subscriptions/listen opened, but its first message is not the acknowledgement: ${JSON.stringify(first)?.slice(0, 200)}`,
      );
  } catch (error) {
    doctor.add("listen", "fail", `subscriptions/listen: ${controller.signal.aborted ? "no acknowledgement in time" : cause(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What the doctor listens for: tool list changes, and with the Tasks extension a made-up task id
 * too, because task status comes only through the hub (a Worker without it answers such a listen
 * with its misconfiguration error, while a listen for list changes alone is acknowledged with the
 * empty set when the server declares none).
 */
function listenFilter(doctor) {
  const filter = { toolsListChanged: true };
  if (TASKS in (doctor.discovered?.capabilities?.extensions ?? {})) filter.taskIds = ["mcp-edge-doctor-probe"];
  return filter;
}

/** A listen naming task ids declares the Tasks extension, as a task-aware client does. */
function listenCapabilities(doctor) {
  return TASKS in (doctor.discovered?.capabilities?.extensions ?? {}) ? { extensions: { [TASKS]: {} } } : {};
}

function listenAcknowledged(doctor, honoured) {
  const empty = honoured === undefined || honoured === null || Object.keys(honoured).length === 0;
  if (empty && !listenMatters(doctor))
    return "subscriptions/listen is acknowledged with the empty set: the server declares nothing a listen carries, so it needs no hub yet (bind MCP_HUB when it declares list changes, subscriptions or tasks)";
  return "subscriptions/listen opens and is acknowledged (the hub answers)";
}

/** Whether the server declares something a listen stream would carry (list changes, resource updates, tasks). */
function listenMatters(doctor) {
  const caps = doctor.discovered?.capabilities ?? {};
  const changes = ["tools", "prompts", "resources"].some((kind) => caps[kind]?.listChanged === true);
  return changes || caps.resources?.subscribe === true || TASKS in (caps.extensions ?? {});
}

function listenFailure(doctor, res, reply) {
  const what = `subscriptions/listen failed: ${describeError(res, reply)}`;
  return listenMatters(doctor) ? what : `${what} (the server declares nothing to listen for yet, but clients that listen get this error)`;
}

/** The first SSE message of a stream (comments and keepalives skipped). */
async function firstEvent(res) {
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return undefined;
    buffered += value;
    const blocks = buffered.split(/\r?\n\r?\n/);
    buffered = blocks.pop() ?? "";
    for (const block of blocks) {
      const data = block
        .split(/\r?\n/)
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).trimStart())
        .join("\n");
      if (data) {
        reader.cancel().catch(() => {});
        return JSON.parse(data);
      }
    }
  }
}

/**
 * Tasks, when declared: `tasks/get` of a made-up id must be -32602 "Task not found" (the task
 * binding is there); with --task-tool, one task-augmented call must create a task that
 * `tasks/get` then finds (the task object runs: its binding and migration are right).
 */
async function checkTasks(doctor) {
  const extensions = doctor.discovered?.capabilities?.extensions ?? {};
  if (!(TASKS in extensions)) return;
  const capabilities = { extensions: { [TASKS]: {} } };
  const { res, reply } = await doctor.post2026("tasks/get", { taskId: "0".repeat(64) }, { capabilities });
  if (reply?.error?.code === -32602) doctor.add("tasks", "ok", "the tasks extension is declared and tasks/get reaches the task store");
  else if (reply?.result) doctor.add("tasks", "warn", "tasks/get of a made-up task id answered a result");
  else return doctor.add("tasks", "fail", `tasks/get failed: ${describeError(res, reply)}`, fixOf(reply));
  if (doctor.options.taskTool) await taskRound(doctor, capabilities);
  else
    doctor.add(
      "tasks",
      "skip",
      "no task was created (the doctor calls no tool on its own)",
      "Pass --task-tool <name> [--task-args <json>] to run one task",
    );
}

async function taskRound(doctor, capabilities) {
  const name = doctor.options.taskTool;
  const created = await doctor.post2026("tools/call", { name, arguments: doctor.options.taskArgs }, { capabilities });
  const taskId = created.reply?.result?.taskId;
  if (created.reply?.result?.resultType !== "task" || typeof taskId !== "string") {
    const what = created.reply?.result ? `resultType ${created.reply.result.resultType}` : describeError(created.res, created.reply);
    return doctor.add("tasks", "fail", `a task-augmented call of "${name}" created no task (${what})`, fixOf(created.reply));
  }
  const got = await doctor.post2026("tasks/get", { taskId }, { capabilities });
  const status = got.reply?.result?.status;
  if (typeof status === "string") doctor.add("tasks", "ok", `"${name}" ran as a task and tasks/get finds it (${status})`);
  else
    doctor.add("tasks", "fail", `tasks/get of the task "${name}" created failed: ${describeError(got.res, got.reply)}`, fixOf(got.reply));
}

/** Auth metadata (RFC 9728) and the Server Card agree with the endpoint and with server/discover. */
async function checkMetadata(doctor) {
  await checkProtectedResource(doctor);
  await checkServerCard(doctor);
}

async function getJson(doctor, url) {
  try {
    const res = await doctor.fetch(url, { headers: { Accept: "application/json" } });
    if (res.status !== 200) {
      await res.body?.cancel();
      return { status: res.status };
    }
    return { status: 200, json: await res.json() };
  } catch (error) {
    return { status: 0, error: cause(error) };
  }
}

async function checkProtectedResource(doctor) {
  const { origin, pathname } = doctor.url;
  const fromChallenge = /resource_metadata="([^"]+)"/.exec(doctor.authChallenge ?? "")?.[1];
  const candidates = [
    fromChallenge,
    `${origin}/.well-known/oauth-protected-resource${pathname.replace(/\/$/, "")}`,
    `${origin}/.well-known/oauth-protected-resource`,
  ];
  for (const url of candidates.filter(Boolean)) {
    const { status, json } = await getJson(doctor, url);
    if (status !== 200 || !json) continue;
    const resource = String(json.resource ?? "");
    const expected = `${origin}${pathname}`;
    if (resource.replace(/\/$/, "") !== expected.replace(/\/$/, ""))
      doctor.add(
        "auth-metadata",
        "fail",
        `${url} names the resource "${resource}", not this endpoint (${expected}): clients will refuse the tokens' audience`,
        "Set the auth option's resource (or MCP_PUBLIC_URL) to the URL clients use",
      );
    else if (!Array.isArray(json.authorization_servers) || json.authorization_servers.length === 0)
      doctor.add("auth-metadata", "fail", `${url} lists no authorization_servers`, "Configure the auth option's authorization server");
    else doctor.add("auth-metadata", "ok", `protected-resource metadata names this endpoint and ${json.authorization_servers.join(", ")}`);
    return;
  }
  if (doctor.authChallenge !== undefined)
    doctor.add(
      "auth-metadata",
      "fail",
      "the server asks for a token but serves no protected-resource metadata: clients cannot find where to get one",
      "Serve /.well-known/oauth-protected-resource (mcp-edge's auth option does)",
    );
  else doctor.add("auth-metadata", "skip", "no protected-resource metadata (the server takes no token)");
}

async function checkServerCard(doctor) {
  const cardUrl = `${doctor.url.origin}${doctor.url.pathname.replace(/\/$/, "")}/server-card`;
  const { status, json } = await getJson(doctor, cardUrl);
  if (status !== 200 || !json) {
    doctor.add(
      "server-card",
      "skip",
      `no Server Card at ${cardUrl} (HTTP ${status}): registries and catalogs cannot describe the server`,
      'Optional: pass discovery: { name: "com.example/my-server" } to createMcpEdge (docs/discovery.md)',
    );
    return;
  }
  const problems = [];
  const info = doctor.discovered?.serverInfo;
  if (info && json.version !== info.version) problems.push(`version ${json.version} but server/discover says ${info.version}`);
  if (info && json.description !== undefined && json.description !== info.description)
    problems.push("a description other than serverInfo's");
  const remotes = Array.isArray(json.remotes) ? json.remotes : [];
  const here = `${doctor.url.origin}${doctor.url.pathname}`;
  if (!remotes.some((r) => r?.url === here)) problems.push(`no remote names ${here} (${remotes.map((r) => r?.url).join(", ") || "none"})`);
  if (info && json.name !== info.name)
    doctor.add(
      "server-card",
      "warn",
      `the Server Card's name "${json.name}" is not serverInfo.name "${info.name}"`,
      `Name the server "${json.name}" in defineServer too, so registries and clients see one name`,
    );
  if (problems.length === 0)
    doctor.add("server-card", "ok", `the Server Card (${json.name} ${json.version}) agrees with server/discover and names this endpoint`);
  else
    doctor.add(
      "server-card",
      "fail",
      `the Server Card disagrees: ${problems.join("; ")}`,
      "Serve the card from the same deployment and URL clients use (behind a proxy, set MCP_PUBLIC_URL)",
    );
}

/** Runs every check; the findings in order. */
async function doctor(options) {
  const d = new Doctor(options);
  checkTransport(d);
  if (d.url.protocol !== "http:" && d.url.protocol !== "https:") return d.findings;
  if (await checkReachable(d)) {
    await checkEras(d);
    await checkOrigins(d);
    await checkForeignHost(d);
    await checkStateSecret(d);
    await checkListen(d);
    await checkTasks(d);
    await checkMetadata(d);
  } else if (d.metadataOnly) await checkMetadata(d);
  return d.findings;
}

const MARK = { ok: "ok  ", warn: "warn", fail: "FAIL", skip: "skip" };

function print(url, findings) {
  console.log(`mcp-edge doctor ${url}\n`);
  for (const f of findings) {
    console.log(`${MARK[f.status]}  ${f.check}: ${f.message}`);
    if (f.fix && f.status !== "ok") console.log(`        fix: ${f.fix.replace(/\n/g, "\n             ")}`);
  }
  const count = (status) => findings.filter((f) => f.status === status).length;
  console.log(`\n${count("ok")} ok, ${count("warn")} warning(s), ${count("fail")} failure(s), ${count("skip")} not checked`);
}

async function main(argv) {
  let parsed;
  try {
    parsed = parseArgs(argv);
  } catch (error) {
    parsed = { error: error.message };
  }
  if (parsed.help) {
    console.log(USAGE);
    return 0;
  }
  if (parsed.error) {
    console.error(`mcp-edge: ${parsed.error}\n\n${USAGE}`);
    return 2;
  }
  const { options } = parsed;
  try {
    new URL(options.url);
  } catch {
    console.error(`mcp-edge: "${options.url}" is not a URL (e.g. https://my-server.example.workers.dev/mcp)`);
    return 2;
  }
  const findings = await doctor(options);
  const ok = !findings.some((f) => f.status === "fail");
  if (options.json) console.log(JSON.stringify({ url: options.url, ok, findings }, null, 2));
  else print(options.url, findings);
  return ok ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(`mcp-edge: ${error?.stack ?? error}`);
    process.exitCode = 2;
  },
);
