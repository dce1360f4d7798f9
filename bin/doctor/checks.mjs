// The doctor's protocol checks: TLS and reachability, both eras' tools/list, origins and hosts,
// the state secret, the hub (listen) and tasks. Each reads the server's answers as untrusted:
// a shape it does not expect is a finding, never an exception.
import { cause, describeError, firstLine, fixOf, isLoopback, isObject, LEGACY, TASKS } from "./client.mjs";

const FOREIGN_ORIGIN = "https://mcp-edge-doctor.invalid";
const FOREIGN_HOST = "mcp-edge-doctor.invalid";

/** URL scheme and TLS: https everywhere except a local server. */
export function checkTransport(doctor) {
  const { protocol, hostname } = doctor.url;
  if (protocol === "https:") return;
  if (protocol !== "http:") {
    doctor.add("tls", "fail", `${doctor.url} is not an http(s) URL`, "Give the server's Streamable HTTP endpoint, e.g. https://host/mcp");
  } else if (isLoopback(hostname)) {
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
export async function checkReachable(doctor) {
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
function checkFirstAnswer(doctor, res, reply) {
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

/** What is wrong with a server/discover result's shape, or undefined. */
function discoverProblem(result, serverInfo) {
  if (!isObject(serverInfo)) return "its serverInfo is not an object";
  if (typeof serverInfo.name !== "string" || typeof serverInfo.version !== "string")
    return "serverInfo.name and serverInfo.version must be strings";
  if (!Array.isArray(result.supportedVersions) || !result.supportedVersions.every((v) => typeof v === "string"))
    return `supportedVersions is not a list of version strings (got ${JSON.stringify(result.supportedVersions) ?? "nothing"})`;
  if (result.capabilities !== undefined && !isObject(result.capabilities)) return "capabilities is not an object";
  return undefined;
}

/** What is wrong with a tools/list result's tools, or undefined: each must be an object with a string name and an input schema. */
export function toolsProblem(tools) {
  if (!Array.isArray(tools)) return "its result has no tools list";
  for (const [index, tool] of tools.entries()) {
    if (!isObject(tool)) return `tool #${index + 1} is ${JSON.stringify(tool) ?? "undefined"}, not an object`;
    if (typeof tool.name !== "string") return `tool #${index + 1} has no string name`;
    if (!isObject(tool.inputSchema)) return `the tool "${tool.name}" has no inputSchema object`;
  }
  return undefined;
}

/** Both eras: 2026-07-28 (server/discover, stateless tools/list) and 2025-11-25 (a session's tools/list). */
export async function checkEras(doctor) {
  const { res, reply } = doctor.discoverReply;
  const result = reply?.result;
  const serverInfo = result?._meta?.["io.modelcontextprotocol/serverInfo"] ?? result?.serverInfo;
  if (!isObject(result) || serverInfo === undefined) {
    doctor.add(
      "era-2026",
      "warn",
      `server/discover (2026-07-28) failed: ${describeError(res, reply)}`,
      "Clients on 2026-07-28 cannot use this server; serve both eras (mcp-edge's default)",
    );
  } else if (discoverProblem(result, serverInfo)) {
    doctor.add("era-2026", "fail", `server/discover answered a malformed result: ${discoverProblem(result, serverInfo)}`);
  } else {
    doctor.discovered = { ...result, serverInfo, capabilities: result.capabilities ?? {} };
    doctor.add(
      "era-2026",
      "ok",
      `server/discover: ${serverInfo.name} ${serverInfo.version}, versions ${result.supportedVersions.join(", ")}`,
    );
    await listTools2026(doctor);
  }
  await checkEra2025(doctor);
}

async function listTools2026(doctor) {
  const list = await doctor.post2026("tools/list");
  const tools = list.reply?.result?.tools;
  if (list.reply?.result === undefined)
    return doctor.add("tools-2026", "fail", `tools/list (2026-07-28) failed: ${describeError(list.res, list.reply)}`, fixOf(list.reply));
  const problem = toolsProblem(tools);
  if (problem) return doctor.add("tools-2026", "fail", `tools/list (2026-07-28) answered a malformed list: ${problem}`);
  doctor.tools = tools;
  doctor.add("tools-2026", "ok", `tools/list (2026-07-28, stateless) answers ${tools.length} tool(s)`);
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
  if (!isObject(reply?.result)) {
    doctor.add(
      "era-2025",
      "warn",
      `initialize (2025-11-25) failed: ${describeError(res, reply)}`,
      fixOf(reply) ?? "Clients on 2025-11-25 (most today) cannot use this server",
    );
    return;
  }
  doctor.initialized = reply.result;
  const session = sessionId ? ", session" : ", stateless";
  doctor.add("era-2025", "ok", `initialize (2025-11-25): protocol ${String(reply.result.protocolVersion)}${session}`);
  await doctor.post2025({ jsonrpc: "2.0", method: "notifications/initialized" }, sessionId);
  const list = await doctor.post2025({ jsonrpc: "2.0", id: doctor.nextId++, method: "tools/list" }, sessionId);
  const problem = toolsProblem(list.reply?.result?.tools);
  if (list.reply?.result === undefined)
    doctor.add("tools-2025", "fail", `tools/list (2025-11-25) failed: ${describeError(list.res, list.reply)}`, fixOf(list.reply));
  else if (problem) doctor.add("tools-2025", "fail", `tools/list (2025-11-25) answered a malformed list: ${problem}`);
  else {
    doctor.tools ??= list.reply.result.tools;
    const where = sessionId ? ", in the session" : "";
    doctor.add("tools-2025", "ok", `tools/list (2025-11-25${where}) answers ${list.reply.result.tools.length} tool(s)`);
  }
  if (sessionId) await endSession(doctor, sessionId);
}

async function endSession(doctor, sessionId) {
  const end = await doctor.fetch(doctor.url, {
    method: "DELETE",
    headers: doctor.headers({ "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": LEGACY }),
  });
  doctor.discard(end);
  if (end.status >= 400 && end.status !== 405) doctor.add("tools-2025", "warn", `DELETE of the session answered HTTP ${end.status}`);
}

/** A request from a foreign browser origin is refused; a preflight from it gets no CORS grant. */
export async function checkOrigins(doctor) {
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

/** A CORS preflight for a POST with the headers MCP clients send. */
export async function preflight(doctor, origin) {
  const res = await doctor.fetch(doctor.url, {
    method: "OPTIONS",
    headers: {
      Origin: origin,
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": "content-type, mcp-protocol-version, mcp-session-id, mcp-method, authorization",
    },
  });
  doctor.discard(res);
  return res;
}

/** The MCP headers a granted preflight leaves out (none when it allows "*"). */
export function missingHeaders(res) {
  const headers = (res.headers.get("Access-Control-Allow-Headers") ?? "").toLowerCase();
  return ["mcp-protocol-version", "mcp-session-id", "authorization"].filter((h) => !headers.includes(h) && headers !== "*");
}

/** The origin given with --origin: its preflight is granted with the headers MCP clients send. */
async function checkOwnOrigin(doctor) {
  const origin = doctor.options.origin;
  const res = await preflight(doctor, origin);
  const granted = res.headers.get("Access-Control-Allow-Origin");
  const missing = missingHeaders(res);
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

/** A request naming a foreign Host (DNS rebinding) is refused. */
export async function checkForeignHost(doctor) {
  let status;
  try {
    status = await doctor.sendWithHost(FOREIGN_HOST);
  } catch (error) {
    if (doctor.expired()) throw error;
    doctor.add("dns-rebinding", "ok", `a request naming a foreign Host is not served (${cause(error)})`);
    return;
  }
  if (status >= 400) doctor.add("dns-rebinding", "ok", `a request naming a foreign Host (${FOREIGN_HOST}) is refused (HTTP ${status})`);
  else
    doctor.add(
      "dns-rebinding",
      isLoopback(doctor.url.hostname) ? "fail" : "warn",
      `a request naming a foreign Host (${FOREIGN_HOST}) is served (HTTP ${status}): a web page could reach this server through DNS rebinding`,
      'Remove "*" from allowedHosts / MCP_ALLOWED_HOSTS and list the host names the server is reached by',
    );
}

/** Tools to try: --interactive-tool, else up to three that say they ask and need no arguments. */
function interactiveCandidates(doctor) {
  if (doctor.options.interactiveTool) return [doctor.options.interactiveTool];
  const asks = (tool) => {
    const required = tool.inputSchema.required;
    const none = !Array.isArray(required) || required.length === 0;
    return none && /\b(asks?|elicits?|elicitation)\b/i.test(String(tool.description ?? ""));
  };
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
  const asked = isObject(result.inputRequests) ? Object.keys(result.inputRequests) : [];
  const inputResponses = Object.fromEntries(asked.map((key) => [key, { action: "decline" }]));
  const params = { name, arguments: {}, inputResponses, requestState: result.requestState };
  const retry = await doctor.post2026("tools/call", params, { capabilities });
  if (isObject(retry.reply?.result))
    return ["ok", `a 2026-07-28 interactive round with "${name}" completes (its request state signed, then verified)`];
  return [
    "fail",
    `the retry of "${name}" with its request state failed: ${describeError(retry.res, retry.reply)}`,
    fixOf(retry.reply) ?? "Every instance must have the same MCP_STATE_SECRET (wrangler secret put MCP_STATE_SECRET)",
  ];
}

export async function checkStateSecret(doctor) {
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

/**
 * Tasks, when declared: `tasks/get` of a made-up id must be -32602 "Task not found" (the task
 * binding is there); with --task-tool, one task-augmented call must create a task that
 * `tasks/get` then finds (the task object runs: its binding and migration are right).
 */
export async function checkTasks(doctor) {
  const extensions = doctor.discovered?.capabilities?.extensions;
  if (!isObject(extensions) || !(TASKS in extensions)) return;
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

/** tasks/get until the task ends or --timeout passes (at the interval it asks for, 200 ms to 2 s): the last answer. */
async function settledTask(doctor, taskId, capabilities) {
  const until = Date.now() + doctor.options.timeoutMs;
  for (;;) {
    const got = await doctor.post2026("tasks/get", { taskId }, { capabilities });
    const result = got.reply?.result;
    if (result?.status !== "working" || Date.now() >= until) return got;
    const wait = Math.min(Math.max(Number(result.pollInterval) || 500, 200), 2000);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

async function taskRound(doctor, capabilities) {
  const name = doctor.options.taskTool;
  const created = await doctor.post2026("tools/call", { name, arguments: doctor.options.taskArgs }, { capabilities });
  const taskId = created.reply?.result?.taskId;
  if (created.reply?.result?.resultType !== "task" || typeof taskId !== "string") {
    const what = isObject(created.reply?.result)
      ? `resultType ${String(created.reply.result.resultType)}`
      : describeError(created.res, created.reply);
    return doctor.add("tasks", "fail", `a task-augmented call of "${name}" created no task (${what})`, fixOf(created.reply));
  }
  const got = await settledTask(doctor, taskId, capabilities);
  const status = got.reply?.result?.status;
  if (typeof status !== "string")
    return doctor.add(
      "tasks",
      "fail",
      `tasks/get of the task "${name}" created failed: ${describeError(got.res, got.reply)}`,
      fixOf(got.reply),
    );
  if (status === "failed" || status === "cancelled") {
    const why = got.reply.result.statusMessage ? `: ${firstLine(got.reply.result.statusMessage)}` : "";
    return doctor.add(
      "tasks",
      "fail",
      `"${name}" ran as a task (the task object works), but the task ended ${status}${why}`,
      "The tool threw or was cancelled with these arguments: pass the ones it needs with --task-args '<json>'",
    );
  }
  doctor.add("tasks", "ok", `"${name}" ran as a task and tasks/get finds it (${status})`);
}
