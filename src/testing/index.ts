/**
 * mcp-edge/testing: a tiny MCP client for your own tests. It speaks JSON-RPC over Streamable
 * HTTP to any fetcher (the Workers Vitest integration's `SELF` or `exports.default`, a Worker's
 * fetch, a local URL), in either era:
 * - 2025 revisions (the default): opens a session, reads SSE answers and answers the server's
 *   requests on the call's stream;
 * - "2026-07-28": no session; every request carries its `_meta` envelope and standard headers, and
 *   an `input_required` answer (basic/patterns/mrtr.mdx) is answered with the same callbacks and
 *   retried with `inputResponses` and the echoed `requestState`, as a client does. `rounds` tells
 *   how many requests the last call took, so a test can pin down a handler's re-runs.
 */
import { readSseMessages } from "./sse";

/** Anything with a fetch: `SELF` from "cloudflare:test", a service binding, `{ fetch }`. */
export interface Fetcher {
  fetch(request: Request): Promise<Response> | Response;
}

export interface TestClientOptions {
  /** The MCP endpoint URL (default "http://localhost/mcp"; only its path matters to a fetcher). */
  url?: string;
  /**
   * The revision the client speaks (default "2025-11-25"): a 2025 revision is asked for in
   * initialize; "2026-07-28" (or later) sends every request with its `_meta` envelope instead.
   */
  protocolVersion?: string;
  /** Capabilities the client declares; answering requests below declares them for you. */
  capabilities?: Record<string, unknown>;
  /** Answers the server's requests during interactive calls, by method. */
  onElicit?: (params: Record<string, unknown>) => Record<string, unknown> | Promise<Record<string, unknown>>;
  onSample?: (params: Record<string, unknown>) => Record<string, unknown> | Promise<Record<string, unknown>>;
  onListRoots?: () => Array<{ uri: string; name?: string }> | Promise<Array<{ uri: string; name?: string }>>;
  /** Extra headers on every request (e.g. Authorization). */
  headers?: Record<string, string>;
}

/** A JSON-RPC error answer, thrown by the client's methods. */
export class TestRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "TestRpcError";
  }
}

export interface ToolCallResult {
  content: Array<Record<string, unknown>>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [key: string]: unknown;
}

export interface TestClient {
  /** The session id once initialized (undefined for a stateless endpoint). */
  readonly sessionId: string | undefined;
  /** Notifications the server sent on call streams, oldest first. */
  readonly notifications: Array<{ method: string; params?: Record<string, unknown> }>;
  /**
   * Requests the last call (`request`, `callTool`, a page of `listTools`) sent: 1 when it was answered
   * at once; on 2026-07-28, one more per `input_required` round (MRTR). A handler that asks twice runs
   * three times: the work before its last ask may run again, and this is how a test sees it.
   */
  readonly rounds: number;
  /** Sends any request (initializing first if needed, answering `input_required` rounds) and returns its result. */
  request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  listTools(): Promise<Array<{ name: string; description?: string; inputSchema: Record<string, unknown>; [key: string]: unknown }>>;
  callTool(name: string, args?: Record<string, unknown>): Promise<ToolCallResult>;
  /** Ends the session (DELETE); nothing to end on 2026-07-28. */
  close(): Promise<void>;
}

type Message = {
  jsonrpc: "2.0";
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
};

/** 2026-07-28 requests that may answer `input_required` (mrtr.mdx "Supported Requests"). */
const MRTR_METHODS = new Set(["tools/call", "prompts/get", "resources/read"]);
/** The body field each method mirrors into `Mcp-Name` (streamable-http.mdx "Standard Request Headers"). */
const NAME_FIELDS: Record<string, string> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};
/** A server that keeps asking is a bug the test should see, not a hang. */
const MAX_ROUNDS = 16;

/** A header value: as is when plain visible ASCII, else the spec's `=?base64?…?=` form of its UTF-8. */
function headerValue(value: string): string {
  if (/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !value.startsWith("=?base64?")) return value;
  let binary = "";
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}

/** `x-mcp-header` parameters of a listed tool: their path in the arguments and header name. */
function headerParams(schema: unknown, path: string[] = []): Array<{ path: string[]; header: string }> {
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  if (typeof properties !== "object" || properties === null) return [];
  const found: Array<{ path: string[]; header: string }> = [];
  for (const [key, child] of Object.entries(properties as Record<string, unknown>)) {
    if (typeof child !== "object" || child === null) continue;
    const header = (child as Record<string, unknown>)["x-mcp-header"];
    if (typeof header === "string") found.push({ path: [...path, key], header });
    found.push(...headerParams(child, [...path, key]));
  }
  return found;
}

export function createTestClient(fetcher: Fetcher, options: TestClientOptions = {}): TestClient {
  const url = options.url ?? "http://localhost/mcp";
  const version = options.protocolVersion ?? "2025-11-25";
  // Revisions are dates: from 2026-07-28 on, the protocol fields travel in every request's _meta.
  const modern = version >= "2026-07-28";
  const capabilities: Record<string, unknown> = { ...options.capabilities };
  if (options.onElicit && !capabilities.elicitation) capabilities.elicitation = { form: {}, url: {} };
  if (options.onSample && !capabilities.sampling) capabilities.sampling = {};
  if (options.onListRoots && !capabilities.roots) capabilities.roots = {};
  let sessionId: string | undefined;
  let initialized: Promise<void> | undefined;
  let nextId = 1;
  let rounds = 0;
  const notifications: TestClient["notifications"] = [];
  /** Header parameters by tool name, learned from listTools (2026-07-28 `Mcp-Param-*`). */
  const paramHeaders = new Map<string, Array<{ path: string[]; header: string }>>();

  function headers(extra: Record<string, string> = {}): Record<string, string> {
    const h: Record<string, string> = {
      Accept: "application/json, text/event-stream",
      "Content-Type": "application/json",
      ...options.headers,
      ...extra,
    };
    if (sessionId) {
      h["Mcp-Session-Id"] = sessionId;
      h["MCP-Protocol-Version"] = version;
    }
    return h;
  }

  /** The standard headers of a 2026-07-28 request: version, method, name, and the tool's parameter headers. */
  function modernHeaders(method: string, params: Record<string, unknown>): Record<string, string> {
    const h: Record<string, string> = { "MCP-Protocol-Version": version, "Mcp-Method": method };
    const field = NAME_FIELDS[method];
    const name = field === undefined ? undefined : params[field];
    if (typeof name === "string") h["Mcp-Name"] = headerValue(name);
    if (method === "tools/call" && typeof name === "string") {
      for (const { path, header } of paramHeaders.get(name) ?? []) {
        let value: unknown = params.arguments;
        for (const key of path) value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
        if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
          h[`Mcp-Param-${header}`] = headerValue(String(value));
      }
    }
    return h;
  }

  async function post(body: Message, extra?: Record<string, string>): Promise<Response> {
    return fetcher.fetch(new Request(url, { method: "POST", headers: headers(extra), body: JSON.stringify(body) }));
  }

  /** The callback's answer to one server request, or undefined when the test gave none. */
  async function answer(method: string | undefined, params: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
    if (method === "elicitation/create" && options.onElicit) return options.onElicit(params);
    if (method === "sampling/createMessage" && options.onSample) return options.onSample(params);
    if (method === "roots/list" && options.onListRoots) return { roots: await options.onListRoots() };
    if (method === "ping") return {};
    return undefined;
  }

  async function answerServer(message: Message): Promise<void> {
    const result = await answer(message.method, message.params ?? {});
    const reply: Message = result
      ? { jsonrpc: "2.0", id: message.id, result }
      : ({
          jsonrpc: "2.0",
          id: message.id,
          error: { code: -32601, message: `the test client does not answer ${message.method}` },
        } as Message);
    const res = await post(reply);
    await res.body?.cancel();
  }

  /** Sends one request and reads its answer from JSON or from the SSE stream. */
  async function send(
    method: string,
    params: Record<string, unknown> | undefined,
  ): Promise<{ result: Record<string, unknown>; response: Response }> {
    const id = nextId++;
    let body: Message = { jsonrpc: "2.0", id, method, ...(params ? { params } : {}) };
    let extra: Record<string, string> | undefined;
    if (modern) {
      const meta = {
        ...(params?._meta as Record<string, unknown> | undefined),
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientInfo": { name: "mcp-edge-testing", version: "1" },
        "io.modelcontextprotocol/clientCapabilities": capabilities,
      };
      body = { jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } };
      extra = modernHeaders(method, params ?? {});
    }
    const response = await post(body, extra);
    const type = response.headers.get("Content-Type") ?? "";
    let reply: Message | undefined;
    if (type.startsWith("text/event-stream")) {
      for await (const message of readSseMessages(response)) {
        const m = message as Message;
        if (m.id === id && (m.result !== undefined || m.error !== undefined)) {
          reply = m;
          break;
        }
        if (m.method && m.id !== undefined && m.id !== null) await answerServer(m);
        else if (m.method) notifications.push({ method: m.method, ...(m.params ? { params: m.params } : {}) });
      }
    } else if (type.startsWith("application/json")) {
      reply = (await response.json()) as Message;
    } else {
      throw new TestRpcError(-32000, `HTTP ${response.status} without a JSON-RPC body: ${await response.text()}`);
    }
    if (!reply) throw new TestRpcError(-32000, `the stream for ${method} ended without an answer`);
    if (reply.error) throw new TestRpcError(reply.error.code, reply.error.message, reply.error.data);
    return { result: reply.result ?? {}, response };
  }

  /**
   * One call, as a client makes it: on 2026-07-28 an `input_required` answer is answered with the
   * callbacks and the request retried (new id, `inputResponses`, the `requestState` echoed as is).
   */
  async function call(method: string, params: Record<string, unknown> | undefined): Promise<Record<string, unknown>> {
    rounds = 0;
    let retry: Record<string, unknown> = {};
    for (;;) {
      rounds++;
      const { result } = await send(method, Object.keys(retry).length > 0 ? { ...params, ...retry } : params);
      if (!modern || !MRTR_METHODS.has(method) || result.resultType !== "input_required") return result;
      if (rounds >= MAX_ROUNDS) throw new TestRpcError(-32000, `${method} still asked for input after ${MAX_ROUNDS} rounds`);
      const asks = (result.inputRequests ?? {}) as Record<string, { method?: string; params?: Record<string, unknown> }>;
      const inputResponses: Record<string, Record<string, unknown>> = {};
      for (const [key, ask] of Object.entries(asks)) {
        const given = await answer(ask.method, ask.params ?? {});
        if (!given) throw new TestRpcError(-32601, `the server asked for ${ask.method} but the test client has no callback for it`);
        inputResponses[key] = given;
      }
      retry = { inputResponses, ...(typeof result.requestState === "string" ? { requestState: result.requestState } : {}) };
    }
  }

  async function ensureInitialized(): Promise<void> {
    if (modern) return;
    initialized ??= (async () => {
      const { response } = await send("initialize", {
        protocolVersion: version,
        capabilities,
        clientInfo: { name: "mcp-edge-testing", version: "1" },
      });
      sessionId = response.headers.get("Mcp-Session-Id") ?? undefined;
      const res = await post({ jsonrpc: "2.0", method: "notifications/initialized" });
      await res.body?.cancel();
    })();
    return initialized;
  }

  return {
    get sessionId() {
      return sessionId;
    },
    get rounds() {
      return rounds;
    },
    notifications,
    async request(method, params) {
      await ensureInitialized();
      return call(method, params);
    },
    async listTools() {
      await ensureInitialized();
      const tools: Array<{ name: string; inputSchema: Record<string, unknown> }> = [];
      let cursor: unknown;
      do {
        const result = await call("tools/list", cursor === undefined ? undefined : { cursor });
        tools.push(...((result.tools as typeof tools | undefined) ?? []));
        cursor = result.nextCursor;
      } while (typeof cursor === "string");
      for (const tool of tools) paramHeaders.set(tool.name, headerParams(tool.inputSchema));
      return tools;
    },
    async callTool(name, args = {}) {
      await ensureInitialized();
      return (await call("tools/call", { name, arguments: args })) as ToolCallResult;
    },
    async close() {
      if (!sessionId) return;
      const res = await fetcher.fetch(new Request(url, { method: "DELETE", headers: headers() }));
      await res.body?.cancel();
      sessionId = undefined;
      initialized = undefined;
    },
  };
}
