/**
 * Requests in flight in a session object: a POST admitted against the run limits and answered
 * as JSON or on its own SSE stream; every handler run with an abort signal that cancellation
 * and termination reach; the client's responses and notifications; server-to-client requests
 * waiting for their answers (pending.ts). Stream storage and sending are the core's.
 * The body is parsed here again: docs/engine-notes.md "The session object parses the body again".
 */
import { INTERNAL_ERROR, REQUEST_CANCELLED, RpcError } from "../../src/jsonrpc/errors";
import { errorMessage, toWire, type Message, type RequestMessage, type ResponseMessage } from "../../src/jsonrpc/messages";
import { parseBody } from "../../src/jsonrpc/parse";
import type { Principal } from "../../src/auth/principal";
import type { RequestInfo } from "../../src/mcp/definition/request-info";
import { newMeter, type Meter } from "../../src/mcp/operations/observe";
import type { Channel, SessionInfo, SessionState } from "../../src/mcp/definition/context";
import {
  dispatchContext,
  dispatchNotification,
  dispatchRequest,
  type DispatchContext,
  type SessionOps,
} from "../../src/mcp/dispatch/dispatch";
import { LazyAbort } from "../../src/mcp/dispatch/lazy-abort";
import { replyBody, toExchange, type Exchange } from "../../src/mcp/dispatch/exchange";
import { limitRuns } from "../../src/mcp/dispatch/run-limits";
import type { McpServer } from "../../src/mcp/definition/server";
import { usesSsePolling } from "../../src/mcp/definition/versions";
import { planAnswer } from "../../src/mcp/dispatch/answer-plan";
import { encodeSseEvent } from "../../src/wire/sse";
import { formatEventId } from "./event-log";
import { StreamChannel } from "./stream-channel";
import { PendingRequests } from "./pending";
import { accepted, json } from "../../src/wire/json";
import { refuse } from "../../src/wire/refusals";
import { idKey, type SessionCore } from "./core";
import type { AuthGate, GateCall } from "../../src/kernel/feature";
import { NO_PARAMS } from "../../src/wire/route-params";

/** What requests in flight need from their session object. */
export interface InflightHost<Env> {
  readonly core: SessionCore;
  readonly server: McpServer<Env>;
  readonly env: Env;
  readonly sessionId: string;
  /** Session state changes the handlers may make (log level, subscriptions). */
  readonly ops: SessionOps;
  /** The edge's auth gate (a handler's challenge names its resource metadata); none without auth. */
  readonly gate: AuthGate | undefined;
  waitUntil(promise: Promise<unknown>): void;
}

/** Where a POST came from, as the Worker forwarded it: the client's request (ctx.request) and the Worker's span. */
export interface Origin {
  request?: RequestInfo;
  traceparent?: string;
}

/** One POST in the session object, as it arrived: the session's state then, who sent it, and where from. */
interface SessionPost {
  state: SessionState;
  principal: Principal | undefined;
  origin: Origin;
}

export class InflightRequests<Env> {
  private readonly pending: PendingRequests;
  private readonly work = new Map<string, { controller: LazyAbort }>();
  /** Handlers running now (a Map of ids would miscount a batch that repeats an id). */
  private running = 0;
  /** Resolved, and cleared, each time `running` drops to 0. */
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly host: InflightHost<Env>) {
    const { maxPendingRequests, requestTimeoutMs } = host.core.options;
    this.pending = new PendingRequests(maxPendingRequests, requestTimeoutMs);
  }

  /** Handlers running now. */
  get count(): number {
    return this.running;
  }

  /** Answers a POST's body in a live session: 202, JSON, or a POST stream (`state` as of its arrival). */
  async handlePost(text: string, state: SessionState, principal: Principal | undefined, origin: Origin = {}): Promise<Response> {
    const post: SessionPost = { state, principal, origin };
    const parsed = parseBody(text);
    if (!parsed.ok)
      return refuse({ reason: "unparsable", code: parsed.error.code as -32700 | -32600 | -32602, message: parsed.error.message });
    const all = toExchange(parsed);
    // admit only counts: nothing starts before the plan is made (answer-plan.ts).
    const plan = planAnswer(all, state.protocolVersion, this.host.server, (e) => this.admit(e));
    if (plan.kind === "refuse") return refuse(plan.refusal);
    for (const message of all.others) this.receive(message);
    // Notifications of the server's own (defineNotification) finish before the answer.
    await this.hear(all.others, post);
    const { exchange } = plan;
    switch (plan.kind) {
      case "accepted":
        return accepted();
      case "json": {
        const responses = await Promise.all(
          exchange.requests.map((r) => this.track(r, (abort) => dispatchRequest(r, this.dispatchContext(post, undefined), abort))),
        );
        // reauthenticate() / needScopes(): nothing was sent yet, so the answer is the 401/403 itself.
        // The edge's gate (auth()) names the same scopes the Worker names; without it there is no challenge.
        const challenged = this.host.gate?.challengeAnswer(this.gateCall(post), exchange.requests, responses);
        return (challenged && (await challenged)) ?? json(replyBody(exchange, responses));
      }
      case "stream":
        return this.openPostStream(exchange, post);
    }
  }

  /** The requests this POST may start now; the rest are answered with -32003 (run-limits.ts). */
  admit(exchange: Exchange): Exchange {
    const { maxRunsPerRequest, maxConcurrentRuns } = this.host.core.options;
    return limitRuns(exchange, {
      perRequest: maxRunsPerRequest,
      sessionRoom: maxConcurrentRuns - this.running,
      perSession: maxConcurrentRuns,
    });
  }

  /** A client's response or notification: settles, cancels, or is noted. Unknown ids are ignored. */
  receive(message: Message): void {
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

  /**
   * Runs the server's handlers of the client notifications among `messages` (defineNotification), in
   * order; resolves when they finished (they never throw: dispatchNotification logs their failures).
   */
  async hear(messages: readonly Message[], post: Omit<SessionPost, "state"> & { state?: SessionState }): Promise<void> {
    const state = post.state ?? this.host.core.state;
    if (this.host.server.notifications.size === 0 || !state) return;
    for (const message of messages) {
      if (message.kind !== "notification" || !this.host.server.notifications.has(message.method)) continue;
      await dispatchNotification(message, this.dispatchContext({ ...post, state }, undefined));
    }
  }

  /** Runs a request on an existing stream (the 2024-11-05 transport's one stream); records it in flight first. */
  start(stream: number, request: RequestMessage, principal: Principal | undefined): void {
    const state = this.host.core.state;
    if (state === null) return;
    this.host.core.log.addInflight(stream, idKey(request.id));
    void this.run(stream, request, { state, principal, origin: {} });
  }

  /** Resolves once no handler runs (also those that ignored their signal after termination). */
  settled(): Promise<void> {
    return this.running === 0 ? Promise.resolve() : new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** The session ended: every handler's signal is aborted and every server request rejected. */
  abortAll(reason: RpcError): void {
    for (const { controller } of this.work.values()) controller.abort(reason);
    this.pending.rejectAll(reason);
  }

  /**
   * Runs one handler with an abort signal that cancellation and termination reach; counts it
   * against the session's limit until it settles.
   */
  private async track<T>(request: RequestMessage, work: (abort: LazyAbort) => Promise<T>): Promise<T> {
    const key = idKey(request.id);
    const controller = new LazyAbort();
    this.work.set(key, { controller });
    this.running++;
    try {
      return await work(controller);
    } finally {
      this.running--;
      if (this.work.get(key)?.controller === controller) this.work.delete(key);
      if (this.running === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }

  /** Hands notifications/roots/list_changed to server code; its failure is logged, never sent. */
  private rootsChanged(): void {
    const handler = this.host.server.rootsChangedHandler;
    const state = this.host.core.state;
    if (!handler || !state) return;
    const session: SessionInfo = { ...state, id: this.host.sessionId };
    this.host.waitUntil(
      Promise.resolve()
        .then(() => handler(session, this.host.env))
        .catch((error: unknown) => console.error("mcp-edge: onRootsListChanged handler failed", error)),
    );
  }

  private openPostStream(exchange: Exchange, post: SessionPost): Response {
    const core = this.host.core;
    const { maxStreams, retryMs, pollAfterMs } = core.options;
    if (core.openStreams() >= maxStreams) {
      return refuse({ reason: "too-many-streams", limit: maxStreams, hint: "wait" });
    }
    const stream = core.log.openStream("post");
    core.log.enforceStreamCap(maxStreams);
    const polling = usesSsePolling(post.state.protocolVersion);
    for (const request of exchange.requests) core.log.addInflight(stream, idKey(request.id));
    const response = core.live.attach(stream);
    if (polling) core.live.send(stream, encodeSseEvent("", formatEventId(stream, 0), retryMs));
    for (const invalid of exchange.invalid) core.emit(stream, invalid);
    if (polling && pollAfterMs !== undefined) {
      setTimeout(() => core.endStream(stream), pollAfterMs);
    }
    const all = exchange.requests.map((request) => this.run(stream, request, post));
    void Promise.allSettled(all).then(() => {
      if (core.terminated) return;
      core.log.markDone(stream, Date.now());
      core.endStream(stream);
      core.scheduleTrim();
    });
    return response;
  }

  /** Runs one request on a stream; its response (or nothing, if cancelled) is stored, then sent. */
  private async run(stream: number, request: RequestMessage, post: SessionPost): Promise<void> {
    const core = this.host.core;
    const key = idKey(request.id);
    await this.track(request, async (abort) => {
      // Cost counters, only when the server is observed: what this request sends and stores.
      const meter = core.metered
        ? {
            ...newMeter(core.live.count()),
            rows() {
              return core.takeRows();
            },
          }
        : undefined;
      const dispatch = this.dispatchContext(post, new StreamChannel(core, this.pending, stream, meter), meter);
      // The stream's 200 is sent: a handler's challenge travels in the error's data.
      const response = await this.inStream(post, request, await dispatchRequest(request, dispatch, abort));
      // 2025-06-18 Cancellation: a cancelled request gets no response (nor does one the session's end aborted).
      if (!abort.aborted) {
        try {
          core.emit(stream, response);
        } catch (error) {
          // Storage refused the response: the client still gets a (non-resumable) error for its id.
          const failure = errorMessage(
            request.id,
            error instanceof RpcError ? error.toJSON() : { code: INTERNAL_ERROR, message: "Internal error" },
          );
          core.live.send(stream, encodeSseEvent(JSON.stringify(toWire(failure))));
        }
      }
    }).finally(() => core.log.removeInflight(stream, key));
  }

  /** Where a call was made, as the edge's gate sees it: who sent it, on which route. */
  private gateCall(post: SessionPost): GateCall<Env> {
    const { server, env } = this.host;
    return { server, env, principal: post.principal, params: post.origin.request?.params ?? NO_PARAMS };
  }

  /** A response for a stream whose status is sent: a handler's challenge completed with what the 401/403 would say. */
  private inStream(post: SessionPost, request: RequestMessage, response: ResponseMessage): Promise<ResponseMessage> | ResponseMessage {
    const gate = this.host.gate;
    return gate ? gate.inStreamChallenge(this.gateCall(post), request, response) : response;
  }

  private dispatchContext(post: SessionPost, channel: Channel | undefined, meter?: Meter): DispatchContext<Env> {
    const { state, principal, origin } = post;
    const session: SessionInfo = { ...state, id: this.host.sessionId };
    return dispatchContext(this.host.server, this.host.env, {
      era: "2025",
      sessions: true,
      session,
      protocolVersion: state.protocolVersion,
      channel,
      ops: this.host.ops,
      principal,
      request: origin.request,
      traceparent: origin.traceparent,
      meter,
    });
  }
}
