/**
 * McpSession, one MCP session, made by the object kit (durable-objects/kit/edge-object.ts): the
 * class holds the RPC surface (contract.ts) and the routing of forwarded requests; each role is a
 * part behind a narrow host interface: core.ts (state, emit, activity, alarm time), inflight.ts
 * (POSTs and their handlers), replay.ts (GET, Last-Event-ID), lifecycle.ts (restore, termination,
 * expiry), its hub link (its registrations with the hub, which keeps them: the `hub()` feature's part,
 * durable-objects/hub/session-link.ts, made through the kernel's `hubLink` seam, which also runs what
 * the hub tells the session, durable-objects/hub/session-updates.ts; none without it), session-ops.ts
 * (log level, subscriptions), its own events when observed (the observer's part,
 * durable-objects/observe/own-events.ts, through the kit's `observed`),
 * and the 2024-11-05 transport's half (legacy-transport.ts, the `legacySse()` feature's, reached through
 * the kernel's `legacy` seam; none without it: its internal URLs are answered as any unknown one).
 */
import type { Principal } from "../../src/auth/principal";
import type { RequestMessage, ResponseMessage } from "../../src/jsonrpc/messages";
import type { McpServer } from "../../src/mcp/definition/server";
import type { Delivery } from "../../src/mcp/operations/observe";
import type { SessionState } from "../../src/mcp/definition/context";
import { withEnvIdleTimeout } from "../../src/kernel/options";
import type { ListKind, UpdateDelivery } from "../hub/contract";
import { answerInitialize, ownedState } from "../../src/mcp/dispatch/initialize-answer";
import {
  decodeCf,
  decodeRoute,
  HEADER_ROUTE,
  decodePrincipal,
  HEADER_CF,
  HEADER_PRINCIPAL,
  HEADER_TRACEPARENT,
  type SessionObjectRpc,
} from "./contract";
import { refuse } from "../../src/wire/refusals";
import { forwardedRequestInfo } from "../../src/mcp/definition/request-info";
import { routeKey } from "../../src/wire/route-params";
import { SessionCore } from "./core";
import { InflightRequests } from "./inflight";
import { restoreSession, runAlarm, terminateSession, type LifecycleHost } from "./lifecycle";
import { handleGet } from "./replay";
import { sessionOps } from "./session-ops";
import { HeldSockets, isUpgrade } from "../kit/held-sockets";
import { EdgeObject } from "../kit/edge-object";
import type { EdgeBinding } from "../shared/edge-binding";
import type { SessionHubLink } from "../../src/kernel/feature";
import type { LegacyHost, LegacySseSeam } from "../../src/kernel/legacy-sse-seam";
import { clientsHearHub } from "../../src/kernel/kernel";

/**
 * What a session without the hub link answers a hub's delivery: it registered for nothing (no `hub()`,
 * or no MCP_HUB binding), so the hub forgets a registration it still holds (session-fanout.ts).
 */
const NO_HUB: UpdateDelivery = "not-subscribed";

export class McpSessionObject<Env = unknown> extends EdgeObject<Env> implements SessionObjectRpc {
  protected readonly core: SessionCore;
  private readonly inflight: InflightRequests<Env>;
  /** Undefined without the hub (no `hub()` among the features, or no MCP_HUB binding): nothing could reach the session. */
  private readonly hub: SessionHubLink | undefined;
  private readonly lifecycle: LifecycleHost;
  /** The 2024-11-05 transport and what it reads of this session: undefined without it (no `legacySse()`). */
  private readonly legacy: { seam: LegacySseSeam; host: LegacyHost } | undefined;
  private readonly server: McpServer<Env>;

  constructor(ctx: DurableObjectState, env: Env, binding: EdgeBinding<Env>) {
    const sessionId = ctx.id.toString();
    super(ctx, env, binding, { place: "session", rows: "spans", about: { sessionId } });
    const server = binding.server;
    this.server = server;
    const core = new SessionCore(
      this.storage,
      withEnvIdleTimeout(binding.options.session, env),
      new HeldSockets(ctx, "get"),
      this.observed,
    );
    this.core = core;
    // Without the hub nothing could reach it: the session declares no updates and registers for none.
    const makeLink = clientsHearHub(binding.seams, env) ? binding.seams.hubLink : undefined;
    const shards = core.options.hubShards;
    this.hub = makeLink?.({ env, sessionId, listChanged: server.listChanged, shards, record: core.record, session: core });
    this.inflight = new InflightRequests({
      core,
      server,
      env,
      sessionId,
      ops: sessionOps(core, env, this.hub),
      gate: binding.gate,
      waitUntil: (promise) => ctx.waitUntil(promise),
    });
    this.lifecycle = {
      core,
      running: () => this.inflight.count,
      abortAll: (reason) => this.inflight.abortAll(reason),
      leaveHub: () => this.hub?.leaveHub() ?? Promise.resolve(),
    };
    const legacy = binding.seams.legacy;
    this.legacy = legacy && { seam: legacy, host: this.legacyHost() };
  }

  protected override onStart(): void {
    restoreSession(this.core);
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
    await this.hub?.registerForListChanges();
    this.ownOperation("initialize", 0);
  }

  /**
   * The session's state for a request served in the Worker, or null when it does not exist.
   * (`sessionId`, the client's, is for the deferred sessions' class: durable-objects/sessions/deferred.ts.)
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
    const hub = this.hub;
    if (!hub) return NO_HUB;
    const delivery = { method: "notifications/resources/updated", params: { uri }, parent: traceparent };
    return this.delivering(delivery, () => hub.resourceUpdated(uri, route));
  }

  /** Sends `notifications/<list>/list_changed` on this session's newest standalone stream. */
  async listChanged(list: ListKind, traceparent?: string, route?: string): Promise<UpdateDelivery> {
    const hub = this.hub;
    if (!hub) return NO_HUB;
    const method = `notifications/${list}/list_changed`;
    return this.delivering({ method, params: {}, parent: traceparent }, () => hub.listChanged(method, route));
  }

  /** The grant of `subject` was revoked (the hub calls this for `endStreamsOf`). */
  async authorizationEnded(subject: string): Promise<UpdateDelivery> {
    return this.hub ? this.hub.authorizationEnded(subject) : NO_HUB;
  }

  /** Resolves once no handler runs in this object (also those that ignored their signal after termination). */
  settled(): Promise<void> {
    return this.inflight.settled();
  }

  /** An operation of its own (`initialize`, the alarm) as an event with its span, when observed. */
  private ownOperation(method: string, doRequests: number): void {
    this.observed?.ownOperation(method, doRequests, this.core.live.count());
  }

  /** A hub delivery in its span; then the rows the event stored (the hub counted the request). */
  private delivering(delivery: Delivery, deliver: () => UpdateDelivery): UpdateDelivery {
    try {
      return this.observed ? this.observed.delivery(delivery, deliver) : deliver();
    } finally {
      this.served(delivery.method, 0);
    }
  }

  // ---- HTTP from the Worker ------------------------------------------------------------

  protected override async onRequest(request: Request): Promise<Response> {
    // Auth: only the Worker sets this header (it removes any the client sent); absent without auth.
    const principal = decodePrincipal(request.headers.get(HEADER_PRINCIPAL));
    const legacy = this.legacy?.seam.answer(this.legacy.host, request, principal);
    if (legacy) return this.streamOpened(await legacy, principal);
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
        this.served("DELETE", 0);
        return ended;
      }
      default:
        return refuse({ reason: "method-not-allowed" });
    }
  }

  /** A held stream opened (101): its principal's subject is registered with the hub first. */
  private async streamOpened(answer: Response, principal: Principal | undefined): Promise<Response> {
    if (answer.status === 101) await this.hub?.registerSubject(principal?.subject);
    return answer;
  }

  // ---- the held streams' sockets (hibernatable: a message or close wakes a sleeping session) ----

  protected override onSocketMessage(socket: WebSocket, message: string | ArrayBuffer): void {
    this.core.held.received(socket, message);
  }

  protected override onSocketClose(socket: WebSocket): void {
    this.core.held.ended(socket);
  }

  protected override onAlarm(): Promise<void> {
    return runAlarm(this.lifecycle);
  }

  /**
   * What an entry point cost: the alarm is an operation with its span (a billed request no one else
   * made); a socket's close costs nothing to report; the rest is an event of its own (the bill:
   * durable-objects/observe/billing.ts).
   */
  protected override served(method: string, received: number, messages = 0): void {
    if (method === "alarm") this.ownOperation(method, received);
    else if (method !== "webSocketClose" && method !== "webSocketError") super.served(method, received, messages);
  }

  /** What the 2024-11-05 transport reads and runs of this session (its `legacy` seam's host). */
  private legacyHost(): LegacyHost {
    const inflight = this.inflight;
    return {
      core: this.core,
      inflight,
      hear: (messages, principal) => inflight.hear(messages, { principal, origin: {} }),
      initialize: (request, subject) => this.initializeLegacy(request, subject),
    };
  }

  /** The legacy transport's `initialize`: answered at once; the state is stored at once (begin's first step), the rest may finish after. */
  private initializeLegacy(request: RequestMessage, subject: string | undefined): ResponseMessage {
    const { response, state } = answerInitialize(this.server, request, this.hub !== undefined);
    if (state)
      this.ctx.waitUntil(
        this.begin(ownedState(state, subject)).catch((e: unknown) => console.error("mcp-edge: starting the session failed", e)),
      );
    return response;
  }
}
