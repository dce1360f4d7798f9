/**
 * McpSession: the Durable Object that is one MCP session. The class holds the constructor, the
 * RPC surface (durable-objects/protocol.ts) and the routing of forwarded requests; each role is
 * a part behind a narrow host interface: session/core.ts (state, emit, activity, alarm time),
 * session/inflight.ts (POSTs and the handlers they run), session/replay.ts (GET and
 * Last-Event-ID), session/lifecycle.ts (restore, termination, expiry), legacy-transport.ts
 * (2024-11-05). A named object of the same class plays the resource-registry role below.
 */
import { DurableObject } from "cloudflare:workers";
import { LIMIT_EXCEEDED, REQUEST_CANCELLED, RpcError, SESSION_NOT_FOUND, TRANSPORT_ERROR } from "../src/jsonrpc/errors";
import { errorMessage, notification } from "../src/jsonrpc/messages";
import type { SessionState } from "../src/mcp/context";
import { toErrorObject, type SessionOps } from "../src/mcp/dispatch";
import type { McpServer } from "../src/mcp/server";
import type { ResolvedSessionOptions } from "../src/options";
import { listChangedRegistryId, registryObjectId, ResourceRegistry, type ListKind, type RegistryEvent, type UpdateDelivery } from "./resource-registry";
import type { EdgeEnv } from "../src/env";
import { initialize } from "../src/mcp/handlers/initialize";
import { openLegacyStream, postLegacyMessage, type LegacyHost } from "./legacy-transport";
import { decodePrincipal, HEADER_LEGACY_ENDPOINT, HEADER_PRINCIPAL, LEGACY_OPEN_URL, LEGACY_POST_URL, type SessionObjectRpc } from "./protocol";
import { NOT_FOUND_MESSAGE, rpcError, SessionCore } from "./session/core";
import { InflightRequests } from "./session/inflight";
import { restoreSession, runAlarm, terminateSession, type LifecycleHost } from "./session/lifecycle";
import { handleGet } from "./session/replay";

export class McpSessionObject<Env = unknown> extends DurableObject<Env> implements SessionObjectRpc {
  private readonly core: SessionCore;
  private readonly inflight: InflightRequests<Env>;
  private readonly lifecycle: LifecycleHost;
  private readonly legacyHost: LegacyHost;

  constructor(
    ctx: DurableObjectState,
    env: Env,
    private readonly server: McpServer<Env>,
    options: ResolvedSessionOptions,
  ) {
    super(ctx, env);
    this.core = new SessionCore(ctx.storage, options);
    this.inflight = new InflightRequests({
      core: this.core,
      server,
      env,
      sessionId: ctx.id.toString(),
      ops: this.ops,
      waitUntil: (promise) => ctx.waitUntil(promise),
    });
    this.lifecycle = {
      core: this.core,
      storage: ctx.storage,
      running: () => this.inflight.count,
      abortAll: (reason) => this.inflight.abortAll(reason),
    };
    this.legacyHost = this.createLegacyHost();
    ctx.blockConcurrencyWhile(async () => restoreSession(this.core));
  }

  // ---- RPC from the Worker -------------------------------------------------------------

  /** Records the negotiated state of a new session. Never re-initialises an existing one. */
  async init(state: SessionState): Promise<void> {
    const core = this.core;
    if (core.state !== null || core.terminated || core.log.getMeta("state") !== undefined) {
      throw new Error("mcp-edge: session object initialised twice");
    }
    core.state = state;
    core.log.setMeta("state", state);
    core.touch(true);
    await this.registerForListChanges();
  }

  /** The session's state for a request served in the Worker, or null when it does not exist. */
  async confirm(subject?: string): Promise<SessionState | null> {
    // Auth: a session answers only the principal that created it (neither has a subject without auth).
    const state = this.core.state;
    if (!state || state.subject !== subject) return null;
    this.core.touch();
    return state;
  }

  /**
   * Tells this session that a resource changed: `notifications/resources/updated` on its newest
   * standalone stream when it subscribed. Server code calls `notifyResourceUpdated(env, uri)`,
   * which reaches every subscribed session through the URI's registry object.
   */
  async resourceUpdated(uri: string): Promise<UpdateDelivery> {
    if (!this.core.state) return "gone";
    if (!this.core.log.isSubscribed(uri)) return "not-subscribed";
    return this.core.sendStandalone(notification("notifications/resources/updated", { uri })) ? "sent" : "no-stream";
  }

  /** Sends `notifications/<list>/list_changed` on this session's newest standalone stream. */
  async listChanged(list: ListKind): Promise<UpdateDelivery> {
    if (!this.core.state) return "gone";
    return this.core.sendStandalone(notification(`notifications/${list}/list_changed`)) ? "sent" : "no-stream";
  }

  /** Resolves once no handler runs in this object (also those that ignored their signal after termination). */
  settled(): Promise<void> {
    return this.inflight.settled();
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
    const deliver = (stub: DurableObjectStub<SessionObjectRpc>): Promise<UpdateDelivery> =>
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

  private sessionNamespace(): DurableObjectNamespace<SessionObjectRpc> {
    const namespace = (this.env as EdgeEnv).MCP_SESSION;
    if (!namespace) throw new Error("mcp-edge: the MCP_SESSION binding is missing");
    return namespace;
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
    const core = this.core;
    // Another principal's request on this session is answered as if the session did not exist.
    if (!core.isOwnedBy(principal)) return rpcError(404, SESSION_NOT_FOUND, NOT_FOUND_MESSAGE);
    core.touch();
    switch (request.method) {
      case "POST": {
        const text = await request.text();
        // The session may have ended while the body arrived: termination is a state every path respects.
        const state = core.state;
        if (state === null || !core.isOwnedBy(principal)) return rpcError(404, SESSION_NOT_FOUND, NOT_FOUND_MESSAGE);
        return this.inflight.handlePost(text, state, principal);
      }
      case "GET":
        return handleGet(core, request, (core.state as SessionState).protocolVersion);
      case "DELETE":
        return terminateSession(this.lifecycle);
      default:
        return rpcError(405, TRANSPORT_ERROR, "Method Not Allowed");
    }
  }

  override async alarm(): Promise<void> {
    await runAlarm(this.lifecycle);
  }

  /** Session state changes only this object can make (dispatch.ts SessionOps). */
  private readonly ops: SessionOps = {
    setLogLevel: async (level) => {
      const core = this.core;
      if (!core.state) return;
      core.state = { ...core.state, logLevel: level };
      core.log.setMeta("state", core.state);
    },
    subscribe: async (uri) => {
      const { log, options } = this.core;
      if (this.core.terminated) throw new RpcError(REQUEST_CANCELLED, "the session was terminated");
      if (!log.isSubscribed(uri) && log.countSubscriptions() >= options.maxSubscriptions) {
        throw new RpcError(LIMIT_EXCEEDED, `Too many subscriptions on this session (limit ${options.maxSubscriptions}); unsubscribe from one first`);
      }
      log.subscribe(uri);
      await this.updateRegistry(uri, true);
    },
    unsubscribe: async (uri) => {
      const log = this.core.log;
      // Unsubscribing from what was never subscribed stores nothing, here or in any registry.
      if (!log.isSubscribed(uri)) return;
      log.unsubscribe(uri);
      await this.updateRegistry(uri, false);
    },
  };

  // ---- 2024-11-05 HTTP+SSE transport (legacy-transport.ts) --------------------------------

  private createLegacyHost(): LegacyHost {
    const core = this.core;
    return {
      log: core.log,
      live: core.live,
      isTaken: () => core.state !== null || core.terminated,
      isInitialized: () => core.state !== null,
      isTerminated: () => core.terminated,
      touch: (force) => core.touch(force),
      emit: (stream, message) => core.emit(stream, message),
      receive: (message) => this.inflight.receive(message),
      admit: (exchange) => this.inflight.admit(exchange),
      start: (stream, request, principal) => this.inflight.start(stream, request, principal),
      initialize: (request, subject) => {
        try {
          const { result, state: negotiated } = initialize(this.server, request.params, true);
          const state = subject === undefined ? negotiated : { ...negotiated, subject };
          core.state = state;
          core.log.setMeta("state", state);
          this.ctx.waitUntil(this.registerForListChanges().catch((e: unknown) => console.error("mcp-edge: list_changed registration failed", e)));
          return { kind: "result", id: request.id, result };
        } catch (error) {
          return errorMessage(request.id, toErrorObject(error, request));
        }
      },
      error: rpcError,
    };
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
