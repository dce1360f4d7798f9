// The doctor's side of the wire: every request it sends, bounded twice (each request by --timeout,
// the whole run by --deadline, whose abort reaches every pending fetch, body read and node:http
// request), every body read with a size cap, and every answer read as untrusted input.
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";

export const MODERN = "2026-07-28";
export const LEGACY = "2025-11-25";
export const TASKS = "io.modelcontextprotocol/tasks";
/** The most of a body the doctor reads: an answer longer than this is cut (and cancelled). */
const MAX_BODY_BYTES = 1024 * 1024;

/** Host names that reach this machine only: 127.0.0.0/8, ::1, localhost. */
export function isLoopback(hostname) {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

/** A plain object (not null, not an array): the only shape a JSON-RPC result or a tool may have. */
export function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Thrown (as the abort reason) when the run's --deadline passes. */
export class DeadlineError extends Error {
  name = "DeadlineError";
}

/** The `_meta` envelope of a 2026-07-28 request. */
export function envelope(capabilities = {}) {
  return {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": { name: "mcp-edge-doctor", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": capabilities,
  };
}

/** The data of each SSE event in `text` (comments and keep-alives skipped), and what is left unfinished. */
export function sseData(text) {
  const blocks = text.split(/\r?\n\r?\n/);
  const rest = blocks.pop() ?? "";
  const data = [];
  for (const block of blocks) {
    const lines = block.split(/\r?\n/).filter((line) => line.startsWith("data:"));
    if (lines.length > 0) data.push(lines.map((line) => line.slice(5).trimStart()).join("\n"));
  }
  return { data, rest };
}

function parseJson(text) {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

export class Doctor {
  constructor(options) {
    this.options = options;
    this.url = new URL(options.url);
    /** @type {{ check: string, status: "ok" | "warn" | "fail" | "skip", message: string, fix?: string }[]} */
    this.findings = [];
    this.nextId = 1;
    this.discovered = undefined;
    this.run = new AbortController();
    this.deadlineTimer = setTimeout(() => this.run.abort(new DeadlineError()), options.deadlineMs);
  }

  add(check, status, message, fix) {
    this.findings.push(fix === undefined ? { check, status, message } : { check, status, message, fix });
  }

  /** Whether the run's deadline has passed (every request since has been aborted). */
  expired() {
    return this.run.signal.reason instanceof DeadlineError;
  }

  /** Stops the deadline timer and cuts whatever is still open (a body still streaming, a socket). */
  close() {
    clearTimeout(this.deadlineTimer);
    if (!this.run.signal.aborted) this.run.abort(new Error("the doctor finished"));
  }

  /** A signal for one request: its own --timeout, or the end of the run, whichever comes first. */
  signal() {
    return AbortSignal.any([this.run.signal, AbortSignal.timeout(this.options.timeoutMs)]);
  }

  headers(extra = {}) {
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...extra };
    if (this.options.token) headers.Authorization = `Bearer ${this.options.token}`;
    return headers;
  }

  /** fetch, never following redirects; the signal also bounds reading the body. */
  fetch(url, init = {}) {
    return fetch(url, { ...init, redirect: "manual", signal: init.signal ?? this.signal() });
  }

  /** The body as text, at most MAX_BODY_BYTES (the rest is cancelled); bounded by the request's signal. */
  async readText(res) {
    if (!res.body) return "";
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let text = "";
    let bytes = 0;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        text += decoder.decode(value, { stream: true });
        if (bytes >= MAX_BODY_BYTES) break;
      }
    } finally {
      reader.cancel().catch(() => {});
    }
    return text;
  }

  /** An answer the doctor does not read: its body is cancelled, so its connection closes. */
  discard(res) {
    res.body?.cancel().catch(() => {});
  }

  /** A JSON-RPC answer from a JSON body or an SSE stream (the message with this id), else { unparsed }. */
  async readReply(res, id) {
    const text = await this.readText(res);
    if (!(res.headers.get("Content-Type") ?? "").includes("text/event-stream"))
      return parseJson(text)?.value ?? { unparsed: text.slice(0, 200) };
    const { data } = sseData(`${text}\n\n`);
    for (const item of data) {
      const message = parseJson(item)?.value;
      if (isObject(message) && message.id === id) return message;
    }
    return { unparsed: text.slice(0, 200) };
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
    return { res, reply: await this.readReply(res, id) };
  }

  /** One 2025-era request: { res, reply } (a notification's answer is not read). */
  async post2025(message, sessionId) {
    const extra = sessionId ? { "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": LEGACY } : {};
    const res = await this.fetch(this.url, { method: "POST", headers: this.headers(extra), body: JSON.stringify(message) });
    if (!("id" in message)) {
      this.discard(res);
      return { res, reply: undefined };
    }
    return { res, reply: await this.readReply(res, message.id) };
  }

  /**
   * One POST naming another Host (fetch cannot set Host, so node:http): its status code. A hard
   * timer (not the socket's idle timeout, which a server dribbling bytes keeps resetting) and the
   * run's deadline both destroy it; the body is never read.
   */
  sendWithHost(host) {
    const { url } = this;
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const body = JSON.stringify({ jsonrpc: "2.0", id: this.nextId++, method: "ping" });
    return new Promise((resolve, reject) => {
      const req = send(url, {
        method: "POST",
        headers: { ...this.headers(), Host: host, "Content-Length": Buffer.byteLength(body) },
        servername: url.hostname,
        signal: this.signal(),
      });
      req.on("response", (res) => {
        resolve(res.statusCode ?? 0);
        res.destroy();
      });
      req.on("error", (error) => reject(error.name === "AbortError" && req.destroyed ? abortCause(error) : error));
      req.end(body);
    });
  }
}

/** node:http's AbortError carries the signal's reason as its cause: a timeout reads as one. */
function abortCause(error) {
  return error.cause instanceof Error ? error.cause : error;
}

/** Why a JSON-RPC reply failed, in one line. */
export function describeError(res, reply) {
  if (isObject(reply?.error)) return `HTTP ${res.status}, JSON-RPC ${String(reply.error.code)}: ${firstLine(reply.error.message)}`;
  if (reply?.unparsed !== undefined) return `HTTP ${res.status}, not JSON-RPC: ${JSON.stringify(reply.unparsed)}`;
  if (isObject(reply) && !("result" in reply)) return `HTTP ${res.status}, neither a result nor an error`;
  return `HTTP ${res.status}`;
}

/** A message's first sentence or line, without the fix mcp-edge appends (the finding's fix carries it). */
export function firstLine(text) {
  const line = String(text ?? "").split("\n")[0];
  const fix = line.search(/ (Add to wrangler\.toml|Generate one with)/);
  return fix > 0 ? line.slice(0, fix) : line;
}

/** The fix a misconfiguration error names (mcp-edge quotes the wrangler.toml lines), else undefined. */
export function fixOf(reply) {
  const data = reply?.error?.data;
  const message = String(reply?.error?.message ?? "");
  if (typeof data?.wranglerToml === "string") {
    const exportLine = /export the class from the Worker entry: .*$/.exec(message)?.[0];
    return `Add to wrangler.toml:\n${data.wranglerToml}${exportLine ? `\nand ${exportLine}` : ""}`;
  }
  const at = message.indexOf("Generate one with");
  return at >= 0 ? message.slice(at) : undefined;
}

/** What went wrong with a request, in words (a timeout, the deadline, a network error and its code). */
export function cause(error) {
  if (error?.name === "TimeoutError") return "no answer in time (--timeout)";
  if (error instanceof DeadlineError || error?.cause instanceof DeadlineError) return "stopped at the --deadline";
  const inner = error?.cause;
  return inner ? `${error.message}: ${inner.code ?? ""} ${inner.message ?? ""}`.trim() : String(error?.message ?? error);
}
