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
import { headerParams, is2026, MAX_ROUNDS, type HeaderParam, type Client2026, request2026, MRTR_METHODS, retryParams } from "./era-2026";
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

/** One client's connection state and its request/answer steps, in either era. */
class TestWire implements Client2026 {
  readonly url: string;
  readonly version: string;
  readonly era2026: boolean;
  readonly capabilities: Record<string, unknown>;
  readonly paramHeaders = new Map<string, HeaderParam[]>();
  readonly notifications: TestClient["notifications"] = [];
  sessionId: string | undefined;
  rounds = 0;
  private initialized: Promise<void> | undefined;
  private nextId = 1;

  constructor(
    private readonly fetcher: Fetcher,
    private readonly options: TestClientOptions,
  ) {
    this.url = options.url ?? "http://localhost/mcp";
    this.version = options.protocolVersion ?? "2025-11-25";
    this.era2026 = is2026(this.version);
    this.capabilities = { ...options.capabilities };
    if (options.onElicit && !this.capabilities.elicitation) this.capabilities.elicitation = { form: {}, url: {} };
    if (options.onSample && !this.capabilities.sampling) this.capabilities.sampling = {};
    if (options.onListRoots && !this.capabilities.roots) this.capabilities.roots = {};
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    const h: Record<string, string> = {
      Accept: "application/json, text/event-stream",
      "Content-Type": "application/json",
      ...this.options.headers,
      ...extra,
    };
    if (this.sessionId) {
      h["Mcp-Session-Id"] = this.sessionId;
      h["MCP-Protocol-Version"] = this.version;
    }
    return h;
  }

  post(body: Message, extra?: Record<string, string>): Promise<Response> {
    return Promise.resolve(
      this.fetcher.fetch(new Request(this.url, { method: "POST", headers: this.headers(extra), body: JSON.stringify(body) })),
    );
  }

  /** The callback's answer to one server request, or undefined when the test gave none. */
  async answer(method: string | undefined, params: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
    const { onElicit, onSample, onListRoots } = this.options;
    if (method === "elicitation/create" && onElicit) return onElicit(params);
    if (method === "sampling/createMessage" && onSample) return onSample(params);
    if (method === "roots/list" && onListRoots) return { roots: await onListRoots() };
    if (method === "ping") return {};
    return undefined;
  }

  /** 2025: answers a server request that arrived on a call's stream, by POSTing the reply. */
  async answerServer(message: Message): Promise<void> {
    const result = await this.answer(message.method, message.params ?? {});
    const reply: Message = result
      ? { jsonrpc: "2.0", id: message.id, result }
      : { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: `the test client does not answer ${message.method}` } };
    const res = await this.post(reply);
    await res.body?.cancel();
  }

  /** Sends one request and reads its answer from JSON or from the SSE stream. */
  async send(
    method: string,
    params: Record<string, unknown> | undefined,
  ): Promise<{ result: Record<string, unknown>; response: Response }> {
    const id = this.nextId++;
    const shaped = this.era2026 ? request2026(this, method, params) : undefined;
    const sent = shaped?.params ?? params;
    const response = await this.post({ jsonrpc: "2.0", id, method, ...(sent ? { params: sent } : {}) }, shaped?.headers);
    const reply = await this.readReply(response, id);
    if (!reply) throw new TestRpcError(-32000, `the stream for ${method} ended without an answer`);
    if (reply.error) throw new TestRpcError(reply.error.code, reply.error.message, reply.error.data);
    return { result: reply.result ?? {}, response };
  }

  async readReply(response: Response, id: number): Promise<Message | undefined> {
    const type = response.headers.get("Content-Type") ?? "";
    if (type.startsWith("application/json")) return (await response.json()) as Message;
    if (!type.startsWith("text/event-stream"))
      throw new TestRpcError(-32000, `HTTP ${response.status} without a JSON-RPC body: ${await response.text()}`);
    for await (const message of readSseMessages(response)) {
      const m = message as Message;
      if (m.id === id && (m.result !== undefined || m.error !== undefined)) return m;
      if (m.method && m.id !== undefined && m.id !== null) await this.answerServer(m);
      else if (m.method) this.notifications.push({ method: m.method, ...(m.params ? { params: m.params } : {}) });
    }
    return undefined;
  }

  /**
   * One call, as a client makes it: on 2026-07-28 an `input_required` answer is answered with the
   * callbacks and the request retried (new id, `inputResponses`, the `requestState` echoed as is).
   */
  async call(method: string, params: Record<string, unknown> | undefined): Promise<Record<string, unknown>> {
    await this.ensureInitialized();
    this.rounds = 0;
    let retry: Record<string, unknown> | undefined;
    for (;;) {
      this.rounds++;
      const { result } = await this.send(method, retry ? { ...params, ...retry } : params);
      if (!this.era2026 || !MRTR_METHODS.has(method) || result.resultType !== "input_required") return result;
      if (this.rounds >= MAX_ROUNDS) throw new TestRpcError(-32000, `${method} still asked for input after ${MAX_ROUNDS} rounds`);
      retry = await retryParams(result, async (ask, askParams) => {
        const given = await this.answer(ask, askParams);
        if (!given) throw new TestRpcError(-32601, `the server asked for ${ask} but the test client has no callback for it`);
        return given;
      });
    }
  }

  /** 2025: initialize once (2026-07-28 has no initialization). */
  ensureInitialized(): Promise<void> {
    if (this.era2026) return Promise.resolve();
    this.initialized ??= (async () => {
      const { response } = await this.send("initialize", {
        protocolVersion: this.version,
        capabilities: this.capabilities,
        clientInfo: { name: "mcp-edge-testing", version: "1" },
      });
      this.sessionId = response.headers.get("Mcp-Session-Id") ?? undefined;
      const res = await this.post({ jsonrpc: "2.0", method: "notifications/initialized" });
      await res.body?.cancel();
    })();
    return this.initialized;
  }

  async close(): Promise<void> {
    if (!this.sessionId) return;
    const res = await this.fetcher.fetch(new Request(this.url, { method: "DELETE", headers: this.headers() }));
    await res.body?.cancel();
    this.sessionId = undefined;
    this.initialized = undefined;
  }
}

export function createTestClient(fetcher: Fetcher, options: TestClientOptions = {}): TestClient {
  const wire = new TestWire(fetcher, options);
  return {
    get sessionId() {
      return wire.sessionId;
    },
    get rounds() {
      return wire.rounds;
    },
    notifications: wire.notifications,
    request: (method, params) => wire.call(method, params),
    async listTools() {
      const tools: Array<{ name: string; inputSchema: Record<string, unknown> }> = [];
      let cursor: unknown;
      do {
        const result = await wire.call("tools/list", cursor === undefined ? undefined : { cursor });
        tools.push(...((result.tools as typeof tools | undefined) ?? []));
        cursor = result.nextCursor;
      } while (typeof cursor === "string");
      for (const tool of tools) wire.paramHeaders.set(tool.name, headerParams(tool.inputSchema));
      return tools;
    },
    callTool: async (name, args = {}) => (await wire.call("tools/call", { name, arguments: args })) as ToolCallResult,
    close: () => wire.close(),
  };
}
