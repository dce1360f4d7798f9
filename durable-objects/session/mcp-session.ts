/**
 * McpSession: the Durable Object that is one MCP session. The class holds the constructor, the
 * RPC surface (durable-objects/session/contract.ts) and the routing of forwarded requests; each role is
 * a part behind a narrow host interface: session/core.ts (state, emit, activity, alarm time),
 * session/inflight.ts (POSTs and the handlers they run), session/replay.ts (GET and
 * Last-Event-ID), session/lifecycle.ts (restore, termination, expiry), legacy-transport.ts
 * (2024-11-05). Subscriptions and list_changed registrations live in the hub (durable-objects/hub/).
 */
import { DurableObject } from "cloudflare:workers";
import type { Principal } from "../../src/auth/principal";
import { LIMIT_EXCEEDED, REQUEST_CANCELLED, RpcError } from "../../src/jsonrpc/errors";
import { notification, type Params } from "../../src/jsonrpc/messages";
import { newMeter, type Observer } from "../../src/mcp/operations/observe";
import type { SessionState } from "../../src/mcp/definition/context";
import type { SessionOps } from "../../src/mcp/dispatch/dispatch";
import type { McpServer } from "../../src/mcp/definition/server";
import { withEnvIdleTimeout } from "../../src/kernel/options";
import type { HubEnv, HubRpc, ListKind, UpdateDelivery } from "../hub/contract";
import { DEFAULT_HUB_SHARD, type HubTopic } from "../../src/platform/addresses";
import { allShards, hubFor, type HubShards } from "../../src/platform/hub-shards";
import { answerInitialize, ownedState } from "../../src/mcp/dispatch/initialize-answer";
import { openLegacyStream, postLegacyMessage, type LegacyHost } from "./legacy-transport";
import {
  decodeCf,
  decodeRoute,
  HEADER_ROUTE,
  decodePrincipal,
  HEADER_CF,
  HEADER_LEGACY_ENDPOINT,
  HEADER_PRINCIPAL,
  HEADER_TRACEPARENT,
  LEGACY_OPEN_URL,
  LEGACY_POST_URL,
  type SessionObjectRpc,
} from "./contract";
import { refuse } from "../../src/wire/refusals";
import { forwardedRequestInfo } from "../../src/mcp/definition/request-info";
import { routeKey } from "../../src/wire/route-params";
import { SessionCore } from "./core";
import { InflightRequests } from "./inflight";
import { restoreSession, runAlarm, terminateSession, type LifecycleHost } from "./lifecycle";
import { handleGet } from "./replay";
import { HeldSockets, isUpgrade } from "../shared/held-sockets";
import { bindingOf, type BoundEdge, type EdgeBinding, type ObjectClass } from "../shared/edge-binding";

export class McpSessionObject<Env = unknown> extends DurableObject<Env> implements SessionObjectRpc {
  protected readonly core: SessionCore;
  private readonly inflight: InflightRequests<Env>;
  private readonly lifecycle: LifecycleHost;
  private readonly legacyHost: LegacyHost;
  private readonly server: McpServer<Env>;
  /** The server's observer (tracing, onEvent, analytics), when observed: handed in by sessionObject(edge). */
  private readonly observer: Observer | undefined;

  constructor(ctx: DurableObjectState, env: Env, binding: EdgeBinding<Env>) {
    super(ctx, env);
    const server = binding.server;
    this.server = server;
    this.observer = binding.observer;
    this.core = new SessionCore(
      ctx.storage,
      withEnvIdleTimeout(binding.options.session, env),
      new HeldSockets(ctx, "get"),
      binding.observer !== undefined,
    );
    this.inflight = new InflightRequests({
      core: this.core,
      server,
      env,
      sessionId: ctx.id.toString(),
      ops: this.ops,
      auth: binding.options.auth,
      waitUntil(promise) {
        ctx.waitUntil(promise);
      },
    });
    // Methods, not arrows, on objects built here: docs/engine-notes.md "Methods, not arrow properties".
    const session = this;
    this.lifecycle = {
      core: this.core,
      running() {
        return session.inflight.count;
      },
      abortAll(reason) {
        session.inflight.abortAll(reason);
      },
      leaveHub() {
        return session.leaveHub();
      },
    };
    this.legacyHost = this.createLegacyHost();
    ctx.blockConcurrencyWhile(async () => restoreSession(this.core));
  }

  // ---- RPC from the Worker -------------------------------------------------------------

  /** Records the negotiated state of a new session. Never re-initialises an existing one. */
  async init(state: SessionState): Promise<void> {
    const core = this.core;
    if (core.state !== null || core.terminated || core.record.getMeta("state") !== undefined) {
      throw new Error("mcp-edge: session object initialised twice");
    }
    await this.begin(state);
  }

  /**
   * The one way a session begins, whichever transport negotiated it (the Worker's `init`, the
   * legacy transport's `initialize`, a deferred session's adoption, with the hash of its sealed id):
   * its state and start stored before anything else can run (synchronously, in the first
   * statement), its expiry alarm, its list_changed registration, the own event.
   */
  protected async begin(state: SessionState, sealHash?: string): Promise<void> {
    await this.core.start(state, sealHash);
    await this.registerForListChanges();
    this.observeOwn("initialize", 0);
  }

  /**
   * An operation event of this object's own (the cost counters): `initialize` (the Worker's event
   * counts the request) and the alarm (a billed request no one else made), with the rows written.
   */
  private observeOwn(method: string, doRequests: number): void {
    const observer = this.observer;
    if (!observer) return;
    const span = observer.start({ method, params: {}, sessionId: this.ctx.id.toString() }, "session", this.env);
    span.countDoRequests(doRequests);
    const core = this.core;
    span.measure({
      ...newMeter(core.live.count()),
      rows() {
        return core.takeRows();
      },
    });
    span.end();
  }

  /**
   * The session's state for a request served in the Worker, or null when it does not exist.
   * (`sessionId`, the client's, is for deferredSessionObject's class: durable-objects/session/deferred.ts.)
   */
  async confirm(subject?: string, route = "", _sessionId?: string): Promise<SessionState | null> {
    // Auth: a session answers only the principal that created it (neither has a subject without auth), on its route.
    const state = this.core.state;
    if (!state || state.subject !== subject || (state.route ?? "") !== route) return null;
    this.core.touch();
    return state;
  }

  /**
   * Tells this session that a resource changed: `notifications/resources/updated` on its newest
   * standalone stream when it subscribed. Server code calls `notifyResourceUpdated(env, uri)`,
   * which reaches every subscribed session through the hub (durable-objects/hub/).
   */
  async resourceUpdated(uri: string, traceparent?: string, route?: string): Promise<UpdateDelivery> {
    return this.delivering("notifications/resources/updated", { uri }, traceparent, () => {
      if (!this.core.state) return "gone";
      if (route !== undefined && route !== (this.core.state.route ?? "")) return "other-route";
      if (!this.core.record.isSubscribed(uri)) return "not-subscribed";
      return this.core.sendStandalone(notification("notifications/resources/updated", { uri })) ? "sent" : "no-stream";
    });
  }

  /** Sends `notifications/<list>/list_changed` on this session's newest standalone stream. */
  async listChanged(list: ListKind, traceparent?: string, route?: string): Promise<UpdateDelivery> {
    const method = `notifications/${list}/list_changed`;
    return this.delivering(method, {}, traceparent, () => {
      if (!this.core.state) return "gone";
      if (route !== undefined && route !== (this.core.state.route ?? "")) return "other-route";
      return this.core.sendStandalone(notification(method)) ? "sent" : "no-stream";
    });
  }

  /**
   * With tracing and a hub span to continue: the delivery is this session's span (a notification
   * the server initiates: kind client), the child of the hub's span for the event.
   */
  private delivering(method: string, params: Params, parent: string | undefined, deliver: () => UpdateDelivery): UpdateDelivery {
    const tracing = parent === undefined ? undefined : this.observer?.tracing;
    const span = tracing?.start({ method, params, parent, sessionId: this.ctx.id.toString() }, "client");
    span?.attribute("mcp_edge.place", "session");
    try {
      const delivery = deliver();
      span?.attribute("mcp_edge.delivery", delivery);
      return delivery;
    } catch (error) {
      span?.threw(error);
      throw error;
    } finally {
      span?.end();
      // The rows the event stored (the hub counted the request).
      this.reportOwn(method);
    }
  }

  /** Resolves once no handler runs in this object (also those that ignored their signal after termination). */
  settled(): Promise<void> {
    return this.inflight.settled();
  }

  /** With `listChanged` declared, each session registers with the hub so publish can reach it. */
  private async registerForListChanges(): Promise<void> {
    if (this.server.listChanged) await this.register({ lists: true }, "listChanged");
  }

  /** This session's shard of the hub for a topic (by its URI, list changes by session), which learns it holds someone. */
  private register(topic: HubTopic, needed: string, subscribed = true): Promise<void> {
    const sessionId = this.ctx.id.toString();
    const { stub, index } = hubFor<HubRpc>(this.env, { sessionId, topic }, this.hubShards(needed));
    return subscribed ? stub.register(sessionId, topic, { name: DEFAULT_HUB_SHARD, index }) : stub.unregister(sessionId, topic);
  }

  private hubShards(needed: string): HubShards {
    return { shards: this.core.options.hubShards, needed };
  }

  /** Keeps the hub in step with this session's subscriptions (the hub calls resourceUpdated). */
  private updateRegistry(uri: string, subscribed: boolean): Promise<void> {
    return this.register({ uri }, "resources/subscribe", subscribed);
  }

  /**
   * The first held stream of a principal's session registers it with the hub under its subject
   * (one row, once per session), so revoking that grant reaches the session (src/revoke.ts
   * `endStreamsOf`). Without a hub binding there is nothing to register with: streams end at the token's expiry.
   */
  private async registerSubject(subject: string | undefined): Promise<void> {
    const record = this.core.record;
    if (subject === undefined || (this.env as HubEnv).MCP_HUB === undefined || record.getMeta("hub_subject") === subject) return;
    try {
      await this.register({ subject }, "endStreamsOf");
      record.setMeta("hub_subject", subject);
    } catch (error) {
      // The stream opens all the same: it ends at its token's expiry, and the next stream registers again.
      console.error(
        "mcp-edge: registering the session's principal with the hub failed; revoking it ends its streams at their expiry",
        error,
      );
    }
  }

  /**
   * The grant of `subject` was revoked (the hub calls this for `endStreamsOf`): the Worker holding
   * each of this session's GET or /sse streams ends it at once with its authorization's ending.
   */
  async authorizationEnded(subject: string): Promise<UpdateDelivery> {
    const core = this.core;
    if (core.terminated) return "gone";
    if (core.record.getMeta("hub_subject") !== subject) return "not-subscribed";
    return core.held.revokeAll() > 0 ? "sent" : "no-stream";
  }

  /** A terminated or expired session leaves the hub, so its registrations do not outlive it. */
  private leaveHub(): Promise<void> {
    // Read now, synchronously: the caller closes the log right after this call.
    const hubs = this.registeredShards();
    if (hubs.length === 0) return Promise.resolve();
    const id = this.ctx.id.toString();
    return Promise.all(hubs.map((hub) => hub.forget(id)))
      .then(() => undefined)
      .catch((error: unknown) => {
        // The hub forgets a session it finds gone at its next update anyway.
        console.error("mcp-edge: leaving the hub failed", error);
      });
  }

  /** The shards that may hold this session's registrations: any (by URI), or only its subject's. */
  private registeredShards(): DurableObjectStub<HubRpc>[] {
    const shards = this.hubShards("resources/subscribe");
    // Its registrations may be on any shard (by URI): each forgets it (one without any reads nothing).
    if (this.server.listChanged || this.core.record.countSubscriptions() > 0) return allShards<HubRpc>(this.env, shards);
    const subject = this.core.record.getMeta("hub_subject");
    if (subject === undefined) return [];
    return [hubFor<HubRpc>(this.env, { sessionId: this.ctx.id.toString(), topic: { subject } }, shards).stub];
  }

  // ---- HTTP from the Worker ------------------------------------------------------------

  override async fetch(request: Request): Promise<Response> {
    // Auth: only the Worker sets this header (it removes any the client sent); absent without auth.
    const principal = decodePrincipal(request.headers.get(HEADER_PRINCIPAL));
    if (request.url === LEGACY_OPEN_URL && isUpgrade(request))
      return this.streamOpened(openLegacyStream(this.legacyHost, request.headers.get(HEADER_LEGACY_ENDPOINT) ?? "", principal), principal);
    if (request.url === LEGACY_POST_URL) return postLegacyMessage(this.legacyHost, await request.text(), principal);
    const core = this.core;
    // Another principal's request, or one on another route, is answered as if the session did not exist.
    const params = decodeRoute(request.headers.get(HEADER_ROUTE));
    const route = routeKey(params);
    if (!core.isOwnedBy(principal, route)) return refuse({ reason: "session-not-found" });
    // DELETE records no activity: the session ends.
    if (request.method !== "DELETE") core.touch();
    switch (request.method) {
      case "POST": {
        const text = await request.text();
        // The session may have ended while the body arrived: termination is a state every path respects.
        const state = core.state;
        if (state === null || !core.isOwnedBy(principal, route)) return refuse({ reason: "session-not-found" });
        // ctx.request: the client's request as the Worker forwarded it, its `cf` and route parameters passed along in headers.
        return this.inflight.handlePost(text, state, principal, {
          request: forwardedRequestInfo(request, decodeCf(request.headers.get(HEADER_CF)), params),
          traceparent: request.headers.get(HEADER_TRACEPARENT) ?? undefined,
        });
      }
      case "GET":
        // The Worker holds the client's stream; this object answers its upgrade with a hibernatable socket.
        if (!isUpgrade(request)) return refuse({ reason: "not-found" });
        return this.streamOpened(handleGet(core, request, (core.state as SessionState).protocolVersion), principal);
      case "DELETE": {
        const ended = await terminateSession(this.lifecycle);
        // The rows it wrote and deleted (the Worker's event counted the request).
        this.reportOwn("DELETE");
        return ended;
      }
      default:
        return refuse({ reason: "method-not-allowed" });
    }
  }

  /** A held stream opened (101): its principal's subject is registered with the hub first. */
  private async streamOpened(answer: Response, principal: Principal | undefined): Promise<Response> {
    if (answer.status === 101) await this.registerSubject(principal?.subject);
    return answer;
  }

  // ---- the held streams' sockets (hibernatable: a message or close wakes a sleeping session) ----

  override async webSocketMessage(socket: WebSocket, message: string | ArrayBuffer): Promise<void> {
    this.core.held.received(socket, message);
    // A probe's answer from the Worker holding a stream: billed at 1/20 of a request.
    this.reportOwn("webSocketMessage", 1);
  }

  /**
   * An event of this object's own without a span (observe.ts emitOwn): a WebSocket message it
   * received, or a hub delivery (the hub counts that request) with the rows it wrote.
   */
  private reportOwn(method: string, webSocketMessages = 0): void {
    const observer = this.observer;
    if (!observer?.hasSink) return;
    const units = { doRequests: 0, rowsWritten: this.core.takeRows(), webSocketMessages, sessionId: this.ctx.id.toString() };
    observer.emitOwn("session", method, this.env, units);
  }

  override async webSocketClose(socket: WebSocket): Promise<void> {
    this.core.held.ended(socket);
  }

  override async webSocketError(socket: WebSocket): Promise<void> {
    this.core.held.ended(socket);
  }

  override async alarm(): Promise<void> {
    try {
      await runAlarm(this.lifecycle);
    } finally {
      this.observeOwn("alarm", 1);
    }
  }

  /** Session state changes only this object can make (dispatch.ts SessionOps). */
  private readonly ops: SessionOps = this.createOps();

  private createOps(): SessionOps {
    const session = this;
    return {
      async setLogLevel(level) {
        const core = session.core;
        if (core.state) core.saveState({ ...core.state, logLevel: level });
      },
      async subscribe(uri) {
        const { record, options } = session.core;
        if (session.core.terminated) throw new RpcError(REQUEST_CANCELLED, "the session was terminated");
        if (!record.isSubscribed(uri) && record.countSubscriptions() >= options.maxSubscriptions) {
          throw new RpcError(
            LIMIT_EXCEEDED,
            `Too many subscriptions on this session (limit ${options.maxSubscriptions}); unsubscribe from one first`,
          );
        }
        record.subscribe(uri);
        await session.updateRegistry(uri, true);
      },
      async unsubscribe(uri) {
        const record = session.core.record;
        // Unsubscribing from what was never subscribed stores nothing, here or in any registry.
        if (!record.isSubscribed(uri)) return;
        record.unsubscribe(uri);
        await session.updateRegistry(uri, false);
      },
    };
  }

  // ---- 2024-11-05 HTTP+SSE transport (legacy-transport.ts) --------------------------------

  private createLegacyHost(): LegacyHost {
    const { core, inflight } = this;
    const session = this;
    return {
      log: core.log,
      record: core.record,
      held: core.held,
      isTaken() {
        return core.state !== null || core.terminated;
      },
      isInitialized() {
        return core.state !== null;
      },
      isTerminated() {
        return core.terminated;
      },
      touch(force) {
        core.touch(force);
      },
      emit(stream, message) {
        core.emit(stream, message);
      },
      receive(message) {
        return inflight.receive(message);
      },
      hear(messages, principal) {
        return inflight.hear(messages, { principal, origin: {} });
      },
      admit(exchange) {
        return inflight.admit(exchange);
      },
      start(stream, request, principal) {
        return inflight.start(stream, request, principal);
      },
      initialize(request, subject) {
        const { response, state } = answerInitialize(session.server, request, true);
        // The state is stored at once (begin's first step); the rest may finish after the answer.
        if (state)
          session.ctx.waitUntil(
            session.begin(ownedState(state, subject)).catch((e: unknown) => console.error("mcp-edge: starting the session failed", e)),
          );
        return response;
      },
    };
  }
}

/**
 * @deprecated Pass `sessions()` in createMcpEdge's `features` and export `edge.objects.McpSession`;
 * this factory goes in the next minor release. The session object class of a served server.
 */
export function sessionObject<Env>(edge: BoundEdge<Env>): ObjectClass<McpSessionObject<Env>, Env> {
  return sessionClass(bindingOf(edge, "sessionObject"));
}

/** The session object class bound to `kernel` (the `sessions()` feature's). */
export function sessionClass<Env>(kernel: EdgeBinding<Env>): ObjectClass<McpSessionObject<Env>, Env> {
  return class McpSession extends McpSessionObject<Env> {
    constructor(ctx: DurableObjectState, env: Env) {
      super(ctx, env, kernel);
    }
  };
}
