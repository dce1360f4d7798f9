/**
 * McpSession: the Durable Object that is one MCP session. It owns the session's negotiated
 * state, its SSE streams and event log, in-flight interactive requests, server-to-client
 * requests, subscriptions, expiry and termination. The Worker calls `init` and `confirm` over
 * RPC and forwards POST (with its body), GET and DELETE through `fetch`.
 */
import { DurableObject } from "cloudflare:workers";
import { INTERNAL_ERROR, INVALID_REQUEST, LIMIT_EXCEEDED, REQUEST_CANCELLED, RpcError, SESSION_NOT_FOUND, SESSION_RESTARTED, TRANSPORT_ERROR } from "../src/jsonrpc/errors";
import { errorMessage, isResponse, notification, toWire, type Message, type Params, type RequestMessage, type ResponseMessage } from "../src/jsonrpc/messages";
import { parseBody } from "../src/jsonrpc/parse";
import type { Channel, SessionInfo, SessionState } from "../src/mcp/context";
import { dispatchRequest, toErrorObject, type DispatchContext, type SessionOps } from "../src/mcp/dispatch";
import { replyBody, toExchange, type Exchange } from "../src/mcp/exchange";
import { isInteractiveCall } from "../src/mcp/routing";
import { limitRuns } from "../src/mcp/run-limits";
import type { McpServer } from "../src/mcp/server";
import { acceptsBatches, usesSsePolling } from "../src/mcp/versions";
import type { ResolvedSessionOptions } from "../src/options";
import { encodeSseEvent } from "../src/sse/encode";
import { EventLog, fitsInEvent, formatEventId, MAX_EVENT_BYTES, parseEventId } from "./event-log";
import { PendingRequests } from "./pending";
import { LiveStreams } from "./streams";
import { listChangedRegistryId, registryObjectId, ResourceRegistry, type ListKind, type RegistryEvent, type UpdateDelivery } from "./resource-registry";
import type { EdgeEnv } from "../src/env";
import { initialize } from "../src/mcp/handlers/initialize";
import { decodePrincipal, HEADER_PRINCIPAL, type Principal } from "../src/auth/principal";
import { HEADER_LEGACY_ENDPOINT, LEGACY_OPEN_URL, LEGACY_POST_URL, openLegacyStream, postLegacyMessage, type LegacyHost } from "./legacy-transport";

export { HEADER_LEGACY_ENDPOINT, LEGACY_OPEN_URL, LEGACY_POST_URL } from "./legacy-transport";

const HEADER_LAST_EVENT_ID = "Last-Event-ID";
/** Activity is persisted at most this often; idle expiry is accurate to this interval. */
const ACTIVITY_WRITE_INTERVAL_MS = 30_000;

function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
}

function rpcError(status: number, code: number, message: string): Response {
  return jsonResponse({ jsonrpc: "2.0", id: null, error: { code, message } }, status);
}

/** Request ids are stored as their JSON text so 1 and "1" stay distinct. */
function idKey(id: RequestMessage["id"]): string {
  return JSON.stringify(id);
}

interface InflightWork {
  controller: AbortController;
}

const NOT_FOUND_MESSAGE = "Session not found: it expired or was terminated; send a new initialize request";

export class McpSessionObject<Env = unknown> extends DurableObject<Env> {
  private readonly log: EventLog;
  private readonly live: LiveStreams;
  private readonly pending: PendingRequests;
  private readonly work = new Map<string, InflightWork>();
  /** Handlers running now (a Map of ids would miscount a batch that repeats an id). */
  private running = 0;
  /** Resolved, and cleared, each time `running` drops to 0. */
  private idleWaiters: (() => void)[] = [];
  private state: SessionState | null = null;
  private terminated = false;
  private lastActivityWrite = 0;
  /** The alarm this object last set or read: undefined until known, null when none is set. */
  private alarmAt: number | null | undefined;

  constructor(
    ctx: DurableObjectState,
    env: Env,
    private readonly server: McpServer<Env>,
    private readonly options: ResolvedSessionOptions,
  ) {
    super(ctx, env);
    this.log = new EventLog(ctx.storage.sql, options.maxEventsPerStream);
    this.live = new LiveStreams(options.keepAliveMs);
    this.pending = new PendingRequests(options.maxPendingRequests, options.requestTimeoutMs);
    this.legacyHost = this.createLegacyHost();
    ctx.blockConcurrencyWhile(async () => this.restore());
  }

  /** Waking up is idempotent: state comes from storage, and work lost in a restart gets its error. */
  private restore(): void {
    this.terminated = this.log.getMeta<boolean>("terminated") ?? false;
    if (this.terminated) this.log.close();
    this.state = this.terminated ? null : (this.log.getMeta<SessionState>("state") ?? null);
    for (const { stream, requestId } of this.log.inflight()) {
      const error = errorMessage(JSON.parse(requestId) as RequestMessage["id"], {
        code: SESSION_RESTARTED,
        message: "The session restarted while this request was in flight; its work was lost. Retry the request.",
      });
      this.log.append(stream, JSON.stringify(toWire(error)));
      this.log.removeInflight(stream, requestId);
      if (!this.log.hasInflight(stream)) this.log.markDone(stream, Date.now());
    }
  }

  // ---- RPC from the Worker -------------------------------------------------------------

  /** Records the negotiated state of a new session. Never re-initialises an existing one. */
  async init(state: SessionState): Promise<void> {
    if (this.state !== null || this.terminated || this.log.getMeta("state") !== undefined) {
      throw new Error("mcp-edge: session object initialised twice");
    }
    this.state = state;
    this.log.setMeta("state", state);
    this.touch(true);
    await this.registerForListChanges();
  }

  /** The session's state for a request served in the Worker, or null when it does not exist. */
  async confirm(subject?: string): Promise<SessionState | null> {
    // Auth: a session answers only the principal that created it (neither has a subject without auth).
    if (!this.state || this.state.subject !== subject) return null;
    this.touch();
    return this.state;
  }

  /**
   * Tells this session that a resource changed: `notifications/resources/updated` on its newest
   * standalone stream when it subscribed. Server code calls `notifyResourceUpdated(env, uri)`,
   * which reaches every subscribed session through the URI's registry object.
   */
  async resourceUpdated(uri: string): Promise<UpdateDelivery> {
    if (!this.state) return "gone";
    if (!this.log.isSubscribed(uri)) return "not-subscribed";
    return this.sendStandalone(notification("notifications/resources/updated", { uri })) ? "sent" : "no-stream";
  }

  // ---- RPC for this object's role as a resource registry (see resource-registry.ts) ----

  async registryAdd(sessionId: string): Promise<void> {
    this.registry().add(sessionId);
  }

  async registryRemove(sessionId: string): Promise<void> {
    this.registry().remove(sessionId);
    await this.dropRegistryIfEmpty();
  }

  /** Registry state lives only while someone is subscribed: once empty, the object's storage goes. */
  private async dropRegistryIfEmpty(): Promise<void> {
    if (!this.registry().isStoredEmpty()) return;
    this.registryTable = undefined;
    await this.ctx.storage.deleteAll();
  }

  /** Fans an update out to every subscribed session; forgets sessions that no longer exist. */
  async registryNotify(event: string | RegistryEvent): Promise<number> {
    const namespace = this.sessionNamespace();
    const registry = this.registry();
    const deliver = (stub: DurableObjectStub<McpSessionObject>): Promise<UpdateDelivery> =>
      typeof event === "string" ? stub.resourceUpdated(event) : stub.listChanged(event.list);
    const results = await Promise.all(
      registry.sessions().map(async (sessionId) => {
        const delivery = await deliver(namespace.get(namespace.idFromString(sessionId))).catch(() => "no-stream" as const);
        if (delivery === "gone" || delivery === "not-subscribed") registry.remove(sessionId);
        return delivery === "sent" ? 1 : 0;
      }),
    );
    await this.dropRegistryIfEmpty();
    return results.reduce<number>((a, b) => a + b, 0);
  }

  private registryTable: ResourceRegistry | undefined;
  private registry(): ResourceRegistry {
    this.registryTable ??= new ResourceRegistry(this.ctx.storage.sql);
    return this.registryTable;
  }

  private sessionNamespace(): DurableObjectNamespace<McpSessionObject> {
    const namespace = (this.env as EdgeEnv).MCP_SESSION;
    if (!namespace) throw new Error("mcp-edge: the MCP_SESSION binding is missing");
    return namespace;
  }

  /** Sends `notifications/<list>/list_changed` on this session's newest standalone stream. */
  async listChanged(list: ListKind): Promise<UpdateDelivery> {
    if (!this.state) return "gone";
    return this.sendStandalone(notification(`notifications/${list}/list_changed`)) ? "sent" : "no-stream";
  }

  /** With `listChanged` declared, each session registers so notifyListChanged can reach it. */
  private async registerForListChanges(): Promise<void> {
    if (!this.server.listChanged) return;
    const namespace = this.sessionNamespace();
    await namespace.get(listChangedRegistryId(namespace)).registryAdd(this.ctx.id.toString());
  }

  /** Keeps the URI's registry object in step with this session's subscriptions. */
  private updateRegistry(uri: string, subscribed: boolean): Promise<void> {
    const namespace = this.sessionNamespace();
    const registry = namespace.get(registryObjectId(namespace, uri));
    const sessionId = this.ctx.id.toString();
    return subscribed ? registry.registryAdd(sessionId) : registry.registryRemove(sessionId);
  }

  // ---- HTTP from the Worker ------------------------------------------------------------

  override async fetch(request: Request): Promise<Response> {
    // Auth: only the Worker sets this header (it removes any the client sent); absent without auth.
    const principal = decodePrincipal(request.headers.get(HEADER_PRINCIPAL));
    if (request.url === LEGACY_OPEN_URL) return openLegacyStream(this.legacyHost, request.headers.get(HEADER_LEGACY_ENDPOINT) ?? "", principal);
    if (request.url === LEGACY_POST_URL) return postLegacyMessage(this.legacyHost, await request.text(), principal);
    // Another principal's request on this session is answered as if the session did not exist.
    if (!this.isOwnedBy(principal)) return rpcError(404, SESSION_NOT_FOUND, NOT_FOUND_MESSAGE);
    this.touch();
    switch (request.method) {
      case "POST": {
        const text = await request.text();
        // The session may have ended while the body arrived: termination is a state every path respects.
        const state = this.state;
        if (state === null || !this.isOwnedBy(principal)) return rpcError(404, SESSION_NOT_FOUND, NOT_FOUND_MESSAGE);
        return this.handlePost(text, state, principal);
      }
      case "GET":
        return this.handleGet(request);
      case "DELETE":
        return this.terminate();
      default:
        return rpcError(405, TRANSPORT_ERROR, "Method Not Allowed");
    }
  }

  /** Whether this is a live session of this principal (neither has a subject without auth). */
  private isOwnedBy(principal: Principal | undefined): boolean {
    return this.state !== null && !this.terminated && this.state.subject === principal?.subject;
  }

  override async alarm(): Promise<void> {
    // The alarm that is running is no longer set; whatever is set below is the next one.
    this.alarmAt = null;
    if (this.terminated || !this.state) {
      // Termination is durable: the tombstone was written first; now nothing is left.
      await this.ctx.storage.deleteAll();
      return;
    }
    const now = Date.now();
    const lastActive = this.log.getMeta<number>("last_active") ?? 0;
    if (now - lastActive >= this.options.idleTimeoutMs && this.live.count() === 0 && this.running === 0) {
      this.state = null;
      this.terminated = true;
      this.log.setMeta("terminated", true);
      this.log.close();
      await this.ctx.storage.deleteAll();
      return;
    }
    this.log.deleteFinishedBefore(now - this.options.completedStreamGraceMs);
    await this.setAlarmAt(Math.min(lastActive + this.options.idleTimeoutMs, now + this.options.completedStreamGraceMs) + 1);
  }

  // ---- POST ----------------------------------------------------------------------------

  private async handlePost(text: string, state: SessionState, principal: Principal | undefined): Promise<Response> {
    const parsed = parseBody(text);
    if (!parsed.ok) return rpcError(400, parsed.error.code, parsed.error.message);
    const all = toExchange(parsed);
    if (all.batch && !acceptsBatches(state.protocolVersion)) {
      return rpcError(400, INVALID_REQUEST, `Invalid Request: JSON-RPC batches are not supported in protocol version ${state.protocolVersion}`);
    }
    for (const message of all.others) this.receive(message);
    const exchange = this.admit(all);
    if (exchange.requests.length === 0) {
      return exchange.invalid.length === 0 ? new Response(null, { status: 202 }) : jsonResponse(replyBody(exchange, []));
    }
    if (!exchange.requests.some((r) => isInteractiveCall(r, this.server))) {
      const responses = await Promise.all(exchange.requests.map((r) => this.track(r, (signal) => dispatchRequest(r, this.dispatchContext(state, undefined, principal), signal))));
      return jsonResponse(replyBody(exchange, responses));
    }
    return this.openPostStream(exchange, state, principal);
  }

  /** The requests this POST may start now; the rest are answered with -32003 (run-limits.ts). */
  private admit(exchange: Exchange): Exchange {
    return limitRuns(exchange, {
      perRequest: this.options.maxRunsPerRequest,
      sessionRoom: this.options.maxConcurrentRuns - this.running,
      perSession: this.options.maxConcurrentRuns,
    });
  }

  /**
   * Runs one handler with an abort signal that cancellation and termination reach; counts it
   * against the session's limit until it settles.
   */
  private async track<T>(request: RequestMessage, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const key = idKey(request.id);
    const controller = new AbortController();
    this.work.set(key, { controller });
    this.running++;
    try {
      return await work(controller.signal);
    } finally {
      this.running--;
      if (this.work.get(key)?.controller === controller) this.work.delete(key);
      if (this.running === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }

  /** Resolves once no handler runs in this object (also those that ignored their signal after termination). */
  settled(): Promise<void> {
    return this.running === 0 ? Promise.resolve() : new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** A client's response or notification: settles, cancels, or is noted. Unknown ids are ignored. */
  private receive(message: Message): void {
    switch (message.kind) {
      case "result":
      case "error":
        this.pending.settle(message);
        return;
      case "notification":
        if (message.method === "notifications/roots/list_changed") this.rootsChanged();
        if (message.method === "notifications/cancelled") {
          const requestId = message.params?.requestId;
          if (typeof requestId === "string" || typeof requestId === "number") {
            this.work.get(idKey(requestId))?.controller.abort(new RpcError(REQUEST_CANCELLED, "cancelled by the client"));
            this.pending.cancelByClient(requestId);
          }
        }
        return;
      case "request":
        return;
    }
  }

  /** Hands notifications/roots/list_changed to server code; its failure is logged, never sent. */
  private rootsChanged(): void {
    const handler = this.server.rootsChangedHandler;
    if (!handler || !this.state) return;
    const session: SessionInfo = { ...this.state, id: this.ctx.id.toString() };
    this.ctx.waitUntil(
      Promise.resolve()
        .then(() => handler(session, this.env))
        .catch((error: unknown) => console.error("mcp-edge: onRootsListChanged handler failed", error)),
    );
  }

  private openPostStream(exchange: Exchange, state: SessionState, principal: Principal | undefined): Response {
    if (this.live.count() >= this.options.maxStreams) {
      return rpcError(429, LIMIT_EXCEEDED, `Too many open streams on this session (limit ${this.options.maxStreams}); wait for one to finish`);
    }
    const stream = this.log.openStream("post");
    this.log.enforceStreamCap(this.options.maxStreams);
    const polling = usesSsePolling(state.protocolVersion);
    for (const request of exchange.requests) this.log.addInflight(stream, idKey(request.id));
    const response = this.live.attach(stream);
    if (polling) this.live.send(stream, encodeSseEvent("", formatEventId(stream, 0), this.options.retryMs));
    for (const invalid of exchange.invalid) this.emit(stream, invalid);
    if (polling && this.options.pollAfterMs !== undefined) {
      setTimeout(() => this.live.close(stream), this.options.pollAfterMs);
    }
    const all = exchange.requests.map((request) => this.run(stream, request, state, principal));
    void Promise.allSettled(all).then(() => {
      if (this.terminated) return;
      this.log.markDone(stream, Date.now());
      this.live.close(stream);
      this.scheduleAlarm();
    });
    return response;
  }

  /** Runs one request on a stream; its response (or nothing, if cancelled) is stored, then sent. */
  private async run(stream: number, request: RequestMessage, state: SessionState, principal: Principal | undefined): Promise<void> {
    const key = idKey(request.id);
    await this.track(request, async (signal) => {
      const response = await dispatchRequest(request, this.dispatchContext(state, this.channelFor(stream), principal), signal);
      // 2025-06-18 Cancellation: a cancelled request gets no response (nor does one the session's end aborted).
      if (!signal.aborted) {
        try {
          this.emit(stream, response);
        } catch (error) {
          // Storage refused the response: the client still gets a (non-resumable) error for its id.
          const failure = errorMessage(request.id, error instanceof RpcError ? error.toJSON() : { code: INTERNAL_ERROR, message: "Internal error" });
          this.live.send(stream, encodeSseEvent(JSON.stringify(toWire(failure))));
        }
      }
    }).finally(() => this.log.removeInflight(stream, key));
  }

  private dispatchContext(state: SessionState, channel: Channel | undefined, principal: Principal | undefined): DispatchContext<Env> {
    const session: SessionInfo = { ...state, id: this.ctx.id.toString() };
    return { server: this.server, env: this.env, sessions: true, session, protocolVersion: state.protocolVersion, channel, ops: this.ops, principal };
  }

  private readonly ops: SessionOps = {
    setLogLevel: async (level) => {
      if (!this.state) return;
      this.state = { ...this.state, logLevel: level };
      this.log.setMeta("state", this.state);
    },
    subscribe: async (uri) => {
      if (this.terminated) throw new RpcError(REQUEST_CANCELLED, "the session was terminated");
      if (!this.log.isSubscribed(uri) && this.log.countSubscriptions() >= this.options.maxSubscriptions) {
        throw new RpcError(LIMIT_EXCEEDED, `Too many subscriptions on this session (limit ${this.options.maxSubscriptions}); unsubscribe from one first`);
      }
      this.log.subscribe(uri);
      await this.updateRegistry(uri, true);
    },
    unsubscribe: async (uri) => {
      // Unsubscribing from what was never subscribed stores nothing, here or in any registry.
      if (!this.log.isSubscribed(uri)) return;
      this.log.unsubscribe(uri);
      await this.updateRegistry(uri, false);
    },
  };

  private channelFor(stream: number): Channel {
    return {
      notify: async (method: string, params: Params) => {
        this.emit(stream, notification(method, params));
      },
      request: (method: string, params: Params, signal: AbortSignal) =>
        this.pending.request(method, signal, {
          send: (id) => this.emit(stream, { kind: "request", id, method, params }),
          cancel: (id, reason) => this.emit(stream, notification("notifications/cancelled", { requestId: id, reason })),
        }),
      closeStream: () => {
        // Only a 2025-11-25 client knows to resume a stream the server closed (SSE polling).
        if (this.state && usesSsePolling(this.state.protocolVersion)) this.live.close(stream);
      },
      logLevel: () => this.state?.logLevel,
      requestUnavailable: undefined,
    };
  }

  /**
   * Stores a message on a stream, then writes it to the stream's connection if one is attached.
   * A message too large to store is never sent: a request or notification throws (the handler
   * gets the error), a response is replaced by an error response so its request is still answered.
   */
  private emit(stream: number, message: Message | ResponseMessage): void {
    // After termination, whatever still-running work emits is dropped quietly: there is no one to send it to.
    if (this.log.isClosed) return;
    let data = JSON.stringify(toWire(message));
    if (!fitsInEvent(data)) {
      const limit = `larger than ${MAX_EVENT_BYTES} bytes, the most one stored SSE event can hold`;
      if (!isResponse(message)) throw new RpcError(LIMIT_EXCEEDED, `${message.method} was not sent: the message is ${limit}`);
      data = JSON.stringify(toWire(errorMessage(message.id, { code: LIMIT_EXCEEDED, message: `The response is ${limit}` })));
    }
    let id: string;
    try {
      id = this.log.append(stream, data);
    } catch (error) {
      // Never send what was not stored, and never show the storage engine's message.
      console.error("mcp-edge: storing an event failed", error);
      throw new RpcError(INTERNAL_ERROR, "The session could not store a message, so it was not sent");
    }
    this.live.sendEvent(stream, id, data);
  }

  /** Server messages unrelated to a request go on the newest open standalone stream, if any. */
  private sendStandalone(message: Message): boolean {
    const stream = this.log.latestOpen("get");
    if (stream === undefined) return false;
    this.emit(stream, message);
    return true;
  }

  // ---- GET -----------------------------------------------------------------------------

  private handleGet(request: Request): Response {
    const lastEventId = request.headers.get(HEADER_LAST_EVENT_ID);
    if (lastEventId !== null) return this.resume(lastEventId);
    // A new GET gets its own stream and becomes the one standalone messages go to: the older
    // one may be a connection that died unnoticed, and a message is never sent on two streams.
    const open = this.log.latestOpen("get");
    if (this.live.count() >= this.options.maxStreams) {
      return rpcError(429, LIMIT_EXCEEDED, `Too many open streams on this session (limit ${this.options.maxStreams}); close one first`);
    }
    if (open !== undefined) this.log.markDone(open, Date.now());
    const stream = this.log.openStream("get");
    this.log.enforceStreamCap(this.options.maxStreams);
    const response = this.live.attach(stream);
    if (usesSsePolling((this.state as SessionState).protocolVersion)) {
      this.live.send(stream, encodeSseEvent("", formatEventId(stream, 0), this.options.retryMs));
    }
    return response;
  }

  /** Replays one stream's events after the given id (a range read), then continues live. */
  private resume(lastEventId: string): Response {
    const cursor = parseEventId(lastEventId);
    const row = cursor ? this.log.stream(cursor.stream) : undefined;
    if (!cursor || !row) {
      return rpcError(400, TRANSPORT_ERROR, "Bad Request: Last-Event-ID does not name an event of this session's streams");
    }
    const first = this.log.firstSeq(cursor.stream);
    if (first !== undefined && first > cursor.seq + 1) {
      // Replaying from here would skip trimmed events silently: say so instead.
      return rpcError(400, TRANSPORT_ERROR, `Bad Request: events after ${lastEventId} were trimmed (at most ${this.options.maxEventsPerStream} are kept per stream); they cannot be replayed`);
    }
    // Read and attach with no await between them, so no event can fall in the gap.
    const events = this.log.after(cursor.stream, cursor.seq);
    const response = this.live.attach(cursor.stream);
    for (const event of events) this.live.sendEvent(cursor.stream, event.id, event.data);
    if (row.done) this.live.close(cursor.stream);
    return response;
  }

  // ---- 2024-11-05 HTTP+SSE transport (legacy-transport.ts) --------------------------------

  /** Built in the constructor, once the log and streams exist. */
  private readonly legacyHost: LegacyHost;

  private createLegacyHost(): LegacyHost {
    return {
      log: this.log,
      live: this.live,
      isTaken: () => this.state !== null || this.terminated,
      isInitialized: () => this.state !== null,
      isTerminated: () => this.terminated,
      touch: (force) => this.touch(force),
      emit: (stream, message) => this.emit(stream, message),
      receive: (message) => this.receive(message),
      admit: (exchange) => this.admit(exchange),
      start: (stream, request, principal) => {
        if (this.state === null) return;
        this.log.addInflight(stream, idKey(request.id));
        void this.run(stream, request, this.state, principal);
      },
      initialize: (request, subject) => {
        try {
          const { result, state: negotiated } = initialize(this.server, request.params, true);
          const state = subject === undefined ? negotiated : { ...negotiated, subject };
          this.state = state;
          this.log.setMeta("state", state);
          this.ctx.waitUntil(this.registerForListChanges().catch((e: unknown) => console.error("mcp-edge: list_changed registration failed", e)));
          return { kind: "result", id: request.id, result };
        } catch (error) {
          return errorMessage(request.id, toErrorObject(error, request));
        }
      },
      error: rpcError,
    };
  }

  // ---- DELETE and housekeeping -----------------------------------------------------------

  private async terminate(): Promise<Response> {
    this.terminated = true;
    this.state = null;
    // The tombstone first (a restart before the alarm must not revive the session), then the log closes.
    this.log.setMeta("terminated", true);
    this.log.close();
    for (const { controller } of this.work.values()) controller.abort(new RpcError(REQUEST_CANCELLED, "the session was terminated"));
    this.pending.rejectAll(new RpcError(REQUEST_CANCELLED, "the session was terminated"));
    this.live.closeAll();
    await this.setAlarmAt(Date.now());
    return new Response(null, { status: 204 });
  }

  /** Notes activity; persisted at most every ACTIVITY_WRITE_INTERVAL_MS. */
  private touch(force = false): void {
    if (this.terminated) return;
    const now = Date.now();
    if (!force && now - this.lastActivityWrite < ACTIVITY_WRITE_INTERVAL_MS) return;
    this.lastActivityWrite = now;
    this.log.setMeta("last_active", now);
    this.scheduleAlarm();
  }

  /**
   * Makes sure an alarm fires by the earliest time housekeeping could have work. Runs after
   * every finished stream, so the alarm's time is kept in memory: storage is read once per
   * object lifetime and written only when the alarm must move earlier.
   */
  private scheduleAlarm(): void {
    if (this.terminated) return;
    const at = Date.now() + Math.min(this.options.idleTimeoutMs, this.options.completedStreamGraceMs) + 1;
    if (this.alarmAt !== undefined) {
      if (this.alarmAt === null || this.alarmAt > at) void this.setAlarmAt(at);
      return;
    }
    void this.ctx.storage.getAlarm().then((current) => {
      // A setAlarmAt while the read was in flight is newer than what was read.
      if (this.alarmAt === undefined) this.alarmAt = current;
      if (this.alarmAt === null || this.alarmAt > at) return this.setAlarmAt(at);
      return undefined;
    });
  }

  private setAlarmAt(at: number): Promise<void> {
    this.alarmAt = at;
    return this.ctx.storage.setAlarm(at);
  }
}

/** Binds the session object to a server definition; export the result as your Durable Object class. */
export function createSessionClass<Env>(server: McpServer<Env>, options: ResolvedSessionOptions): typeof McpSessionObject<Env> {
  return class McpSession extends McpSessionObject<Env> {
    constructor(ctx: DurableObjectState, env: Env) {
      super(ctx, env, server, options);
    }
  } as unknown as typeof McpSessionObject<Env>;
}
