/**
 * mcp-edge/testing: a tiny MCP client for your own tests. It speaks JSON-RPC over Streamable
 * HTTP to any fetcher (the Workers Vitest integration's `SELF` or `exports.default`, a Worker's
 * fetch, a local URL), opens a session, reads SSE answers and answers the server's requests.
 */
import { readSseMessages } from "./sse";

/** Anything with a fetch: `SELF` from "cloudflare:test", a service binding, `{ fetch }`. */
export interface Fetcher {
  fetch(request: Request): Promise<Response> | Response;
}

export interface TestClientOptions {
  /** The MCP endpoint URL (default "http://localhost/mcp"; only its path matters to a fetcher). */
  url?: string;
  /** Revision asked for in initialize (default "2025-11-25"). */
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
  /** Sends any request (initializing first if needed) and returns its result. */
  request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  listTools(): Promise<Array<{ name: string; description?: string; inputSchema: Record<string, unknown>; [key: string]: unknown }>>;
  callTool(name: string, args?: Record<string, unknown>): Promise<ToolCallResult>;
  /** Ends the session (DELETE). */
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

export function createTestClient(fetcher: Fetcher, options: TestClientOptions = {}): TestClient {
  const url = options.url ?? "http://localhost/mcp";
  const version = options.protocolVersion ?? "2025-11-25";
  const capabilities: Record<string, unknown> = { ...options.capabilities };
  if (options.onElicit && !capabilities.elicitation) capabilities.elicitation = { form: {}, url: {} };
  if (options.onSample && !capabilities.sampling) capabilities.sampling = {};
  if (options.onListRoots && !capabilities.roots) capabilities.roots = {};
  let sessionId: string | undefined;
  let initialized: Promise<void> | undefined;
  let nextId = 1;
  const notifications: TestClient["notifications"] = [];

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

  async function post(body: Message): Promise<Response> {
    return fetcher.fetch(new Request(url, { method: "POST", headers: headers(), body: JSON.stringify(body) }));
  }

  async function answerServer(message: Message): Promise<void> {
    let result: Record<string, unknown> | undefined;
    const params = message.params ?? {};
    if (message.method === "elicitation/create" && options.onElicit) result = await options.onElicit(params);
    else if (message.method === "sampling/createMessage" && options.onSample) result = await options.onSample(params);
    else if (message.method === "roots/list" && options.onListRoots) result = { roots: await options.onListRoots() };
    else if (message.method === "ping") result = {};
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
    const response = await post({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });
    const type = response.headers.get("Content-Type") ?? "";
    let answer: Message | undefined;
    if (type.startsWith("text/event-stream")) {
      for await (const message of readSseMessages(response)) {
        const m = message as Message;
        if (m.id === id && (m.result !== undefined || m.error !== undefined)) {
          answer = m;
          break;
        }
        if (m.method && m.id !== undefined && m.id !== null) await answerServer(m);
        else if (m.method) notifications.push({ method: m.method, ...(m.params ? { params: m.params } : {}) });
      }
    } else if (type.startsWith("application/json")) {
      answer = (await response.json()) as Message;
    } else {
      throw new TestRpcError(-32000, `HTTP ${response.status} without a JSON-RPC body: ${await response.text()}`);
    }
    if (!answer) throw new TestRpcError(-32000, `the stream for ${method} ended without an answer`);
    if (answer.error) throw new TestRpcError(answer.error.code, answer.error.message, answer.error.data);
    return { result: answer.result ?? {}, response };
  }

  async function ensureInitialized(): Promise<void> {
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
    notifications,
    async request(method, params) {
      await ensureInitialized();
      return (await send(method, params)).result;
    },
    async listTools() {
      await ensureInitialized();
      const tools: Array<{ name: string; inputSchema: Record<string, unknown> }> = [];
      let cursor: unknown;
      do {
        const { result } = await send("tools/list", cursor === undefined ? undefined : { cursor });
        tools.push(...((result.tools as typeof tools | undefined) ?? []));
        cursor = result.nextCursor;
      } while (typeof cursor === "string");
      return tools;
    },
    async callTool(name, args = {}) {
      await ensureInitialized();
      return (await send("tools/call", { name, arguments: args })).result as ToolCallResult;
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
