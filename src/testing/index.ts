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
import { SseReader } from "./sse";
import { DEFAULT_TIMEOUT_MS, LiveNotificationStream, within, type NotificationStream, type TestNotification } from "./streams";
import { TASKS_EXTENSION, taskClient, type TaskWire, type TestTaskClient } from "./tasks";
import { EVENTS_EXTENSION, eventsClient, type EventsWire, type TestEventsClient } from "./events";
import type { ListenFilter as HubListenFilter } from "../../durable-objects/hub/contract";

export {
  mintTestToken,
  testAuth,
  TEST_AUTH_SECRET_BINDING,
  TEST_AUTH_MARKER,
  type MintTestTokenOptions,
  type TestAuthOptions,
} from "./test-auth";
export { TestTimeoutError, type NotificationMatch, type NotificationStream, type TestNotification } from "./streams";
export type { TestTask, TestTaskClient, TestTaskStatus } from "./tasks";
export type { TestEventOccurrence, TestEventsClient, TestEventStream, TestPollResult } from "./events";
export {
  connectWebhookReceiver,
  subscribeWebhook,
  unsubscribeWebhook,
  type ReceivedWebhook,
  type ReceiverScript,
  type WebhookReceiverHandle,
  type WebhookSubscription,
} from "./webhooks";

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
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** An access token sent as `Authorization: Bearer` on every request: `await mintTestToken({ … })` for a server with `testAuth()`. */
  token?: string;
  /** The bound on every wait (an answer, a notification, a task's status), in ms (default 10,000); a wait past it throws TestTimeoutError naming what it awaited. */
  timeoutMs?: number;
  /** Hears every notification the client receives, on any stream (call streams, listen and GET streams). */
  onNotification?: (notification: TestNotification) => void;
}

/** Per call: its notifications as they arrive (2025: on the call's stream; 2026-07-28: on its response stream). */
export interface CallOptions {
  /** `notifications/progress` of this call; sends a `progressToken` so the server reports progress at all. */
  onProgress?: (params: { progress: number; total?: number; message?: string; [key: string]: unknown }) => void;
  /** `notifications/message` (ctx.log) of this call. */
  onLog?: (params: { level: string; data: unknown; logger?: string }) => void;
  /** Every notification of this call. */
  onNotification?: (notification: TestNotification) => void;
  /**
   * 2026-07-28: the least level of this call's logs (`_meta["io.modelcontextprotocol/logLevel"]`;
   * without it the server sends none); `onLog` alone asks for "debug". On 2025 the session's
   * level applies (`request("logging/setLevel", { level })`).
   */
  logLevel?: string;
  /** This call's bound, in ms (default: the client's `timeoutMs`). */
  timeoutMs?: number;
}

/** What to listen to on 2026-07-28 (`subscriptions/listen`'s `notifications`); a 2025 GET stream gets what the session subscribed to. */
export interface ListenFilter extends HubListenFilter {
  /** Needs the Tasks extension: declared for this request when present. */
  taskIds?: string[];
  [key: string]: unknown;
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
  /** Every notification the server sent, on call streams and on open listen/GET streams, oldest first. */
  readonly notifications: TestNotification[];
  /**
   * Requests the last call (`request`, `callTool`, a page of `listTools`) sent: 1 when it was answered
   * at once; on 2026-07-28, one more per `input_required` round (MRTR). A handler that asks twice runs
   * three times: the work before its last ask may run again, and this is how a test sees it.
   */
  readonly rounds: number;
  /** Sends any request (initializing first if needed, answering `input_required` rounds) and returns its result. */
  request(method: string, params?: Record<string, unknown>, options?: CallOptions): Promise<Record<string, unknown>>;
  listTools(): Promise<Array<{ name: string; description?: string; inputSchema: Record<string, unknown>; [key: string]: unknown }>>;
  callTool(name: string, args?: Record<string, unknown>, options?: CallOptions): Promise<ToolCallResult>;
  /**
   * Opens the stream server notifications arrive on outside a call: on 2026-07-28 a
   * `subscriptions/listen` stream (resolves once acknowledged; `filter` says what to hear); on a
   * 2025 session its GET stream (what the session subscribed to, list changes). Close it when done.
   */
  listen(filter?: ListenFilter): Promise<NotificationStream>;
  /** The Tasks extension from the client side (2026-07-28). */
  readonly tasks: TestTaskClient;
  /** The Events extension from the client side: list, poll and stream events (docs/events.md "Testing"). */
  readonly events: TestEventsClient;
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

/** What a wait on a 2025 GET stream adds when it times out: why the notification may never come there. */
const GET_STREAM_HINT =
  'a 2025 session\'s GET stream hears resources/updated only for URIs the session subscribed to (client.listen({ resourceSubscriptions: [uri] }) subscribes them, or request("resources/subscribe", { uri })), and list changes only from a server defined with listChanged: true';

/** One client's connection state and its request/answer steps, in either era. */
class TestWire implements Client2026, TaskWire, EventsWire {
  readonly url: string;
  readonly version: string;
  readonly era2026: boolean;
  readonly capabilities: Record<string, unknown>;
  readonly timeoutMs: number;
  readonly paramHeaders = new Map<string, HeaderParam[]>();
  readonly notifications: TestNotification[] = [];
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
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.capabilities = { ...options.capabilities };
    if (options.onElicit && !this.capabilities.elicitation) this.capabilities.elicitation = { form: {}, url: {} };
    if (options.onSample && !this.capabilities.sampling) this.capabilities.sampling = {};
    if (options.onListRoots && !this.capabilities.roots) this.capabilities.roots = {};
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    const h: Record<string, string> = {
      Accept: "application/json, text/event-stream",
      "Content-Type": "application/json",
      ...(this.options.token !== undefined ? { Authorization: `Bearer ${this.options.token}` } : {}),
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

  /** Records a notification and tells whoever listens. */
  notified(notification: TestNotification, call?: CallOptions): void {
    this.notifications.push(notification);
    this.options.onNotification?.(notification);
    if (!call) return;
    call.onNotification?.(notification);
    const params = (notification.params ?? {}) as never;
    if (notification.method === "notifications/progress") call.onProgress?.(params);
    if (notification.method === "notifications/message") call.onLog?.(params);
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

  rpcError(code: number, message: string, data?: unknown): Error {
    return new TestRpcError(code, message, data);
  }

  /** 2025: answers a server request that arrived on a stream, by POSTing the reply. */
  async answerServer(message: Message): Promise<void> {
    const result = await this.answer(message.method, message.params ?? {});
    const reply: Message = result
      ? { jsonrpc: "2.0", id: message.id, result }
      : { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: `the test client does not answer ${message.method}` } };
    const res = await this.post(reply);
    await res.body?.cancel();
  }

  /** Sends one request and reads its answer from JSON or from the SSE stream, within the call's bound. */
  async send(
    method: string,
    params: Record<string, unknown> | undefined,
    call: CallOptions & { capabilities?: Record<string, unknown> } = {},
  ): Promise<{ result: Record<string, unknown>; response: Response }> {
    const id = this.nextId++;
    const client = call.capabilities ? { version: this.version, capabilities: call.capabilities, paramHeaders: this.paramHeaders } : this;
    const shaped = this.era2026 ? request2026(client, method, params) : undefined;
    const sent = shaped?.params ?? params;
    let reader: SseReader | undefined;
    let timedOut = false;
    const exchange = async () => {
      const response = await this.post({ jsonrpc: "2.0", id, method, ...(sent ? { params: sent } : {}) }, shaped?.headers);
      // An answer that starts after the wait gave up is released, not read in the background.
      if (timedOut) {
        await response.body?.cancel();
        return { response, reply: undefined };
      }
      reader = sseOf(response) ? new SseReader(response) : undefined;
      return { response, reply: await this.readReply(response, id, reader, call) };
    };
    const hint = method === "subscriptions/listen" ? " (a listen stream stays open: use client.listen())" : "";
    const { response, reply } = await within(exchange(), call.timeoutMs ?? this.timeoutMs, `the answer to ${method}${hint}`, () => {
      timedOut = true;
      void reader?.cancel();
    });
    if (!reply) throw new TestRpcError(-32000, `the stream for ${method} ended without an answer`);
    if (reply.error) throw new TestRpcError(reply.error.code, reply.error.message, reply.error.data);
    return { result: reply.result ?? {}, response };
  }

  async readReply(response: Response, id: number, reader: SseReader | undefined, call: CallOptions): Promise<Message | undefined> {
    const type = response.headers.get("Content-Type") ?? "";
    if (type.startsWith("application/json")) return (await response.json()) as Message;
    if (!reader) throw new TestRpcError(-32000, `HTTP ${response.status} without a JSON-RPC body: ${await response.text()}`);
    try {
      for (let m = (await reader.read()) as Message | undefined; m; m = (await reader.read()) as Message | undefined) {
        if (m.id === id && (m.result !== undefined || m.error !== undefined)) return m;
        if (m.method && m.id !== undefined && m.id !== null) await this.answerServer(m);
        else if (m.method) this.notified({ method: m.method, ...(m.params ? { params: m.params } : {}) }, call);
      }
      return undefined;
    } finally {
      await reader.cancel();
    }
  }

  /**
   * One call, as a client makes it: on 2026-07-28 an `input_required` answer is answered with the
   * callbacks and the request retried (new id, `inputResponses`, the `requestState` echoed as is).
   */
  async call(
    method: string,
    params: Record<string, unknown> | undefined,
    call: CallOptions & { capabilities?: Record<string, unknown> } = {},
  ): Promise<Record<string, unknown>> {
    await this.ensureInitialized();
    this.rounds = 0;
    const withToken = this.callMeta(params, call);
    let retry: Record<string, unknown> | undefined;
    for (;;) {
      this.rounds++;
      const { result } = await this.send(method, retry ? { ...withToken, ...retry } : withToken, call);
      if (!this.era2026 || !MRTR_METHODS.has(method) || result.resultType !== "input_required") return result;
      if (this.rounds >= MAX_ROUNDS) throw new TestRpcError(-32000, `${method} still asked for input after ${MAX_ROUNDS} rounds`);
      retry = await retryParams(result, async (ask, askParams) => {
        const given = await this.answer(ask, askParams);
        if (!given) throw new TestRpcError(-32601, `the server asked for ${ask} but the test client has no callback for it`);
        return given;
      });
    }
  }

  private callMeta(params: Record<string, unknown> | undefined, call: CallOptions): Record<string, unknown> | undefined {
    const extra: Record<string, unknown> = {};
    if (call.onProgress) extra.progressToken = `progress-${this.nextId}`;
    const level = call.logLevel ?? (call.onLog ? "debug" : undefined);
    if (this.era2026 && level !== undefined) extra["io.modelcontextprotocol/logLevel"] = level;
    return withCallMeta(params, extra);
  }

  /** The task client's requests: this client's capabilities plus the Tasks extension. */
  callWithTasks(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.call(method, params, { capabilities: this.withTasks() });
  }

  withTasks(): Record<string, unknown> {
    return this.withExtension(TASKS_EXTENSION);
  }

  /** This client's capabilities plus one extension (declared per request on 2026-07-28). */
  private withExtension(id: string): Record<string, unknown> {
    const extensions = { ...(this.capabilities.extensions as Record<string, unknown> | undefined), [id]: {} };
    return { ...this.capabilities, extensions };
  }

  /** The events client's requests: on 2026-07-28 with the Events extension declared; a 2025 session declared it in initialize. */
  callWithEvents(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.era2026 ? this.call(method, params, { capabilities: this.withExtension(EVENTS_EXTENSION) }) : this.call(method, params);
  }

  async postWithEvents(method: string, params: Record<string, unknown>): Promise<Response> {
    await this.ensureInitialized();
    const id = this.nextId++;
    if (!this.era2026) return this.post({ jsonrpc: "2.0", id, method, params });
    const client = { version: this.version, capabilities: this.withExtension(EVENTS_EXTENSION), paramHeaders: this.paramHeaders };
    const shaped = request2026(client, method, params);
    return this.post({ jsonrpc: "2.0", id, method, params: shaped.params }, shaped.headers);
  }

  async refusedStream(response: Response, label: string): Promise<never> {
    const reply = (await response.json().catch(() => undefined)) as Message | undefined;
    if (reply?.error) throw new TestRpcError(reply.error.code, reply.error.message, reply.error.data);
    throw new TestRpcError(-32000, `${label} did not open: HTTP ${response.status}`);
  }

  readonly hooks = {
    notified: (n: TestNotification) => this.notified(n),
    serverRequest: (m: Record<string, unknown>) => this.answerServer(m as Message),
  };

  /** 2026-07-28: a `subscriptions/listen` stream; 2025: the session's GET stream, after subscribing what the filter names. */
  async listen(filter: ListenFilter = {}): Promise<NotificationStream> {
    await this.ensureInitialized();
    if (!this.era2026) await this.subscribe2025(filter);
    const label = this.era2026 ? "the listen stream" : "the session's GET stream";
    const opened = this.era2026 ? this.postListen(filter) : this.getStream();
    const response = await within(opened, this.timeoutMs, `${label} to open`);
    if (!sseOf(response)) {
      const reply = (await response.json().catch(() => undefined)) as Message | undefined;
      if (reply?.error) throw new TestRpcError(reply.error.code, reply.error.message, reply.error.data);
      throw new TestRpcError(-32000, `${label} did not open: HTTP ${response.status}`);
    }
    const hint = this.era2026 ? undefined : GET_STREAM_HINT;
    const stream = new LiveNotificationStream(
      response,
      { label, timeoutMs: this.timeoutMs, hint },
      {
        notified: (n) => this.notified(n),
        serverRequest: (m) => this.answerServer(m as Message),
      },
    );
    return stream.open(this.era2026);
  }

  /**
   * 2025: a GET stream takes no filter; it hears what the session subscribed to. So `resourceSubscriptions` become
   * `resources/subscribe` requests, and task ids, which only 2026-07-28 listen streams follow, are refused.
   */
  private async subscribe2025(filter: ListenFilter): Promise<void> {
    if (filter.taskIds !== undefined) {
      throw new TypeError(
        'mcp-edge/testing: listen({ taskIds }) follows tasks on 2026-07-28 only; create this client with protocolVersion: "2026-07-28", or await client.tasks.waitFor(taskId, status)',
      );
    }
    for (const uri of filter.resourceSubscriptions ?? []) await this.call("resources/subscribe", { uri });
  }

  private postListen(filter: ListenFilter): Promise<Response> {
    const params = { notifications: filter };
    const client = filter.taskIds ? { version: this.version, capabilities: this.withTasks(), paramHeaders: this.paramHeaders } : this;
    const shaped = request2026(client, "subscriptions/listen", params);
    return this.post({ jsonrpc: "2.0", id: this.nextId++, method: "subscriptions/listen", params: shaped.params }, shaped.headers);
  }

  private async getStream(): Promise<Response> {
    if (!this.sessionId)
      throw new TestRpcError(-32000, "a GET stream needs a session: this endpoint answered initialize without Mcp-Session-Id");
    const headers = this.headers({ Accept: "text/event-stream" });
    delete headers["Content-Type"];
    return this.fetcher.fetch(new Request(this.url, { method: "GET", headers }));
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

function sseOf(response: Response): boolean {
  return (response.headers.get("Content-Type") ?? "").startsWith("text/event-stream");
}

/** The params with what makes the server report a call's notifications: a `progressToken`, a log level (2026-07-28). */
function withCallMeta(params: Record<string, unknown> | undefined, extra: Record<string, unknown>): Record<string, unknown> | undefined {
  if (Object.keys(extra).length === 0) return params;
  return { ...params, _meta: { ...extra, ...(params?._meta as Record<string, unknown> | undefined) } };
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
    request: (method, params, options) => wire.call(method, params, options),
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
    callTool: async (name, args = {}, options) => (await wire.call("tools/call", { name, arguments: args }, options)) as ToolCallResult,
    listen: (filter) => wire.listen(filter),
    tasks: taskClient(wire),
    events: eventsClient(wire),
    close: () => wire.close(),
  };
}
