#!/usr/bin/env node
// `mcp-edge doctor <url>`: checks a running or deployed MCP server the way hosted connectors
// meet it (reachable, TLS, allowed hosts and CORS, both eras' tools/list, the state secret, auth
// metadata and the Server Card, the hub and task bindings) and prints each finding with its fix.
// Plain Node >= 22, no dependency: fetch for everything, node:http(s) for the one request whose
// Host header fetch cannot set (the DNS-rebinding check). Exit code 1 when any check fails.
import { runDoctor } from "./doctor/run.mjs";

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
  --directory                also check what directories review before listing a server (Claude, ChatGPT,
                             VS Code, Gemini): tool titles and annotations, names, icons, output schemas,
                             the ChatGPT domain check, auth metadata and CORS (docs/publishing.md)
  --timeout <ms>             per request (default 10000)
  --deadline <ms>            the whole run (default 60000): what has not finished by then is reported
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
    deadlineMs: 60_000,
    directory: false,
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
    else if (arg === "--deadline") options.deadlineMs = Number(value());
    else if (arg === "--directory") options.directory = true;
    else if (arg === "-h" || arg === "--help") return { help: true };
    else if (arg.startsWith("-")) return { error: `unknown option ${arg}` };
    else if (options.url === undefined) options.url = arg;
    else return { error: `one URL only (got "${options.url}" and "${arg}")` };
  }
  if (options.url === undefined)
    return { error: "doctor needs the server's URL, e.g. mcp-edge doctor https://my-server.example.workers.dev/mcp" };
  if (!Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0) return { error: "--timeout takes a number of milliseconds" };
  if (!Number.isFinite(options.deadlineMs) || options.deadlineMs <= 0) return { error: "--deadline takes a number of milliseconds" };
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

const MARK = { ok: "ok  ", warn: "warn", fail: "FAIL", skip: "skip" };

/**
 * Text as a terminal shows it harmlessly: every control character (C0, DEL, C1), line and
 * paragraph separator and bidirectional override becomes a visible escape (\x1b, \r, \u202e), so a
 * server's words can neither move the cursor, erase a line nor start a line of their own that
 * reads like a finding. `keepNewlines`: our own fixes span lines; each goes on indented.
 */
function visible(text, keepNewlines = false) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  return String(text).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    if (c === "\n" && keepNewlines) return c;
    if (c === "\n") return "\\n";
    if (c === "\r") return "\\r";
    if (c === "\t") return "\\t";
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

function print(url, findings) {
  console.log(`mcp-edge doctor ${visible(url)}\n`);
  for (const f of findings) {
    console.log(`${MARK[f.status]}  ${f.check}: ${visible(f.message)}`);
    if (f.fix && f.status !== "ok") console.log(`        fix: ${visible(f.fix, true).replace(/\n/g, "\n             ")}`);
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
    console.error(`mcp-edge: "${visible(options.url)}" is not a URL (e.g. https://my-server.example.workers.dev/mcp)`);
    return 2;
  }
  const findings = await runDoctor(options);
  const ok = !findings.some((f) => f.status === "fail");
  if (options.json) console.log(JSON.stringify({ url: options.url, ok, findings }, null, 2));
  else print(options.url, findings);
  return ok ? 0 : 1;
}

// The run closes its connections when it ends; should anything still hold the process (a socket
// a server keeps open), it exits anyway once the findings are printed.
function exit(code) {
  process.exitCode = code;
  setTimeout(() => process.exit(code), 1000).unref();
}

main(process.argv.slice(2)).then(exit, (error) => {
  console.error(`mcp-edge: ${error?.stack ?? error}`);
  exit(2);
});
