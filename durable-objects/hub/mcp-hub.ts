/**
 * McpHub: the subscription hub, one per server (or per shard). It serves 2026-07-28
 * `subscriptions/listen` streams (listeners.ts, memory only) and remembers which 2025-era
 * sessions subscribed to what (registrations.ts, the only storage). `publish` fans an event
 * out to both: listen streams get it directly, sessions through their own object; as shard 0
 * it hands each batch to the other shards through an ordered outbox per shard (outbox.ts).
 * Exported as is it traces nothing; `hubObject(edge)` is the same class with the server's
 * tracer (tracing.ts).
 */
import { DurableObject } from "cloudflare:workers";
import type { SessionObjectRpc } from "../session/contract";
import type { EdgeEnv } from "../../src/env";
import {
  eventWeight,
  HEADER_LISTEN_OPEN,
  HUB_LISTEN_URL,
  hubObjectId,
  type BatchReport,
  type Fanout,
  type HubRpc,
  type HubTopic,
  type ListenOpen,
  type PublishEvent,
  type ShardPlace,
  type ShardReport,
  type UpdateDelivery,
} from "./contract";
import { ActiveShards, ShardPresence } from "./shards";
import { Outbox } from "./outbox";
import { ListenStreams } from "./listeners";
import { Registrations, topicKey } from "./registrations";
import { refuse } from "../../src/wire/refusals";
import { isUpgrade } from "../shared/held-sockets";
import type { Tracing } from "../../src/mcp/tracing";
import { observerOfEdge, type Observer } from "../../src/mcp/observe";
import { ObjectBill } from "../shared/billing";
import { endListenSpan, listenSpan, tracedBatch } from "./tracing";

export class McpHub extends DurableObject<EdgeEnv> implements HubRpc {
  private readonly listeners: ListenStreams;
  private readonly registrations: Registrations;
  /** As shard 0: which other shards hold anyone. */
  private readonly active: ActiveShards;
  /** As shard 0: an ordered outbox per other shard it delivers to, and one for its own 2025 sessions. */
  private readonly outboxes = new Map<string, Outbox<PublishEvent, BatchReport>>();
  /** As shard 0 with a tracer: the span of each event being handed on (its traceparent), for the shards' spans. */
  private readonly traceOf = new WeakMap<PublishEvent, string | undefined>();
  /** As another shard: tells shard 0 when it starts holding someone. */
  private readonly presence = new ShardPresence((place) => this.shard(place.name, 0));

  /** With an observed server's `onEvent`: what each request to this shard cost (durable-objects/shared/billing.ts). */
  private readonly billing: ObjectBill | undefined;

  constructor(
    ctx: DurableObjectState,
    env: EdgeEnv,
    /** The server's tracer (createMcpEdge's `tracing`), when the class is `hubObject(edge)`. */
    private readonly tracing?: Tracing,
    /** The server's observer, when the class is `hubObject(edge)` of an observed server. */
    observer?: Observer,
  ) {
    super(ctx, env);
    this.billing = observer?.hasSink ? new ObjectBill(observer, "hub", env) : undefined;
    const storage = this.billing ? this.billing.meter(ctx.storage) : ctx.storage;
    this.registrations = new Registrations(storage);
    this.listeners = new ListenStreams(ctx, storage);
    this.active = new ActiveShards(storage);
  }

  /** Reports a request to this shard once its work settled (without an observer, nothing). */
  private billed(method: string, received = 1, messages = 0): void {
    if (this.billing) void this.billing.report(method, received, messages);
  }

  private shard(name: string, index: number): DurableObjectStub<HubRpc> {
    const namespace = this.env.MCP_HUB as DurableObjectNamespace<HubRpc>;
    return namespace.get(hubObjectId(namespace, name, index));
  }

  /** Opens a listen stream (the Worker's serveListen validated the request and computed the filter). */
  override async fetch(request: Request): Promise<Response> {
    const header = request.headers.get(HEADER_LISTEN_OPEN);
    if (request.url !== HUB_LISTEN_URL || !isUpgrade(request) || header === null) return refuse({ reason: "not-found" });
    const open = JSON.parse(header) as ListenOpen;
    const span = this.tracing && listenSpan(this.tracing, open);
    await this.presence.hold(open.at);
    const outcome = await this.listeners.open(open);
    // The upgrade is counted by the Worker's subscriptions/listen event.
    this.billed("subscriptions/listen", 0);
    if (outcome.ok) {
      if (span) endListenSpan(span, undefined);
      return outcome.response;
    }
    const refusal = { reason: "too-many-listen-streams", limit: outcome.limit, perClient: outcome.reason === "client-limit" } as const;
    if (span) endListenSpan(span, refusal);
    return refuse(refusal, open.id);
  }

  // ---- the listen streams' sockets (hibernatable: these wake a sleeping shard) -----------------

  override async webSocketMessage(socket: WebSocket, message: string | ArrayBuffer): Promise<void> {
    this.listeners.received(socket, message);
    this.billed("webSocketMessage", 0, 1);
  }

  override async webSocketClose(socket: WebSocket): Promise<void> {
    this.listeners.ended(socket);
    await this.releaseIfEmpty();
    this.billed("webSocketClose", 0);
  }

  override async webSocketError(socket: WebSocket): Promise<void> {
    this.listeners.ended(socket);
    await this.releaseIfEmpty();
    this.billed("webSocketError", 0);
  }

  // ---- RPC from session objects ------------------------------------------------------------

  async register(sessionId: string, topic: HubTopic, at?: ShardPlace): Promise<void> {
    await this.presence.hold(at);
    this.registrations.add(topicKey(topic), sessionId);
    this.billed("register");
  }

  async unregister(sessionId: string, topic: HubTopic): Promise<void> {
    await this.registrations.remove(topicKey(topic), sessionId);
    await this.releaseIfEmpty();
    this.billed("unregister");
  }

  /** A session was terminated or expired: it is no longer registered for anything. */
  async forget(sessionId: string): Promise<void> {
    await this.registrations.forget(sessionId);
    await this.releaseIfEmpty();
    this.billed("forget");
  }

  // ---- RPC from publish() ----------------------------------------------------------------

  /**
   * Shard 0's side of a publish, a batch in publish order: queues it for this shard's 2025
   * sessions and for every other shard that holds anyone (an ordered outbox each: one call in
   * flight, what arrives meanwhile goes as one batch), and writes it to this shard's listen
   * streams. Answers then, handed off; with `wait`, once every one of them delivered it.
   * `traces`: each event's publisher's span, which a traced hub's span for the event continues.
   */
  async publish(events: PublishEvent[], fanout?: Fanout, wait = false, traces?: (string | undefined)[]): Promise<BatchReport | undefined> {
    try {
      return await this.publishTraced(events, fanout, wait, traces);
    } finally {
      // A batch of task statuses comes from a task object, whose run counted the request.
      this.billed("publish", events.every((event) => event.type === "taskStatus") ? 0 : 1);
    }
  }

  private publishTraced(
    events: PublishEvent[],
    fanout: Fanout | undefined,
    wait: boolean,
    traces: (string | undefined)[] | undefined,
  ): Promise<BatchReport | undefined> {
    if (!this.tracing) return this.fanOut(events, fanout, wait);
    return tracedBatch(this.tracing, events, traces, 0, (spans) => {
      // Each event's span, for the shards it is handed on to (sendTo).
      for (const [i, span] of spans.entries()) this.traceOf.set(events[i] as PublishEvent, span.traceparent);
      return this.fanOut(events, fanout, wait);
    });
  }

  private async fanOut(events: PublishEvent[], fanout: Fanout | undefined, wait: boolean): Promise<BatchReport | undefined> {
    // This shard's streams first: nothing is read from storage before they have the batch.
    const listenStreams = await this.listeners.deliverBatch(events);
    const queued = [this.pushAll(this.outbox(undefined, 0), events)];
    if (fanout && fanout.shards > 1) {
      for (const index of this.active.targets(fanout.shards)) queued.push(this.pushAll(this.outbox(fanout, index), events));
    }
    if (!wait) {
      // Each outbox reports its own failures; nobody waits for these here (the billing does, to count their calls).
      for (const q of queued) {
        q.catch(() => undefined);
        this.billing?.follow(q);
      }
      return undefined;
    }
    const reports = await Promise.all(queued);
    return {
      listenStreams: listenStreams.map((own, i) => reports.reduce((sum, r) => sum + (r.listenStreams[i] ?? 0), own)),
      sessions: events.map((_, i) => reports.reduce((sum, r) => sum + (r.sessions[i] ?? 0), 0)),
    };
  }

  async activate(index: number, epoch: number): Promise<void> {
    this.active.announce(index, epoch);
    this.billed("activate");
  }

  async deactivate(index: number, epoch: number): Promise<void> {
    this.active.withdraw(index, epoch);
    this.billed("deactivate");
  }

  /** After a stream or registration left: an emptied shard withdraws from shard 0's list (a failed call changes nothing: the next publish learns it). */
  private async releaseIfEmpty(): Promise<void> {
    if (this.listeners.count() > 0 || this.registrations.any()) return;
    await this.presence.release().catch(() => undefined);
  }

  /** Shard 0's call: deliver a batch here, in order, and say whether this shard still holds anyone; `traces`: shard 0's spans. */
  async deliver(events: PublishEvent[], traces?: (string | undefined)[]): Promise<ShardReport> {
    try {
      if (!this.tracing) return await this.deliverShard(events);
      return await tracedBatch(this.tracing, events, traces, undefined, (spans) =>
        this.deliverShard(
          events,
          spans.map((span) => span.traceparent),
        ),
      );
    } finally {
      this.billed("deliver");
    }
  }

  private async deliverShard(events: PublishEvent[], traces?: (string | undefined)[]): Promise<ShardReport> {
    const listenStreams = await this.listeners.deliverBatch(events);
    const { sessions } = await this.notifyAll(events, traces);
    return this.presence.report({ listenStreams, sessions }, this.listeners.count() === 0 && !this.registrations.any());
  }

  /** The outbox to one shard (index 0: this shard's own 2025 sessions), made at its first use. */
  private outbox(fanout: Fanout | undefined, index: number): Outbox<PublishEvent, BatchReport> {
    const key = fanout ? `${fanout.name}#${index}/${fanout.shards}` : "own";
    let box = this.outboxes.get(key);
    if (!box) {
      box = new Outbox((events) => (fanout ? this.sendTo(fanout, index, events) : this.sendOwn(events)), { weigh: eventWeight });
      this.outboxes.set(key, box);
    }
    return box;
  }

  /** Queues events on one outbox; resolves with their counts, in order, once its batch(es) went. */
  private async pushAll(box: Outbox<PublishEvent, BatchReport>, events: PublishEvent[]): Promise<BatchReport> {
    const pushed = events.map((event) => box.push(event));
    const reports = await Promise.all(pushed.map((p) => p.sent));
    return {
      listenStreams: pushed.map((p, i) => reports[i]?.listenStreams[p.at] ?? 0),
      sessions: pushed.map((p, i) => reports[i]?.sessions[p.at] ?? 0),
    };
  }

  /** One batch to another shard. A failed call is logged, and shard 0 asks every shard again from the next publish on. */
  private async sendTo(fanout: Fanout, index: number, events: PublishEvent[]): Promise<BatchReport> {
    try {
      const traces = this.tracing ? events.map((event) => this.traceOf.get(event)) : undefined;
      const report = await this.shard(fanout.name, index).deliver(events, traces);
      this.active.learn(fanout.shards, index, report);
      return report;
    } catch (error) {
      this.active.lost();
      console.error(`mcp-edge: hub shard ${index} did not take ${events.length} published event(s); its listeners missed them`, error);
      throw error;
    }
  }

  private async sendOwn(events: PublishEvent[]): Promise<BatchReport> {
    try {
      // Shard 0's span of each event (set by publish), which the sessions' deliveries continue.
      const traces = this.tracing ? events.map((event) => this.traceOf.get(event)) : undefined;
      return await this.notifyAll(events, traces);
    } catch (error) {
      console.error(`mcp-edge: the hub could not call its 2025 sessions for ${events.length} published event(s)`, error);
      throw error;
    }
  }

  /** This shard's 2025 sessions, one event after another (each session gets them in order); `traces`: the hub's span of each. */
  private async notifyAll(events: PublishEvent[], traces?: (string | undefined)[]): Promise<BatchReport> {
    const sessions: number[] = [];
    for (const [i, event] of events.entries())
      sessions.push(event.type === "taskStatus" ? 0 : await this.notifySessions(event, traces?.[i]));
    return { listenStreams: events.map(() => 0), sessions };
  }

  /** Ends every listen stream with its `complete` result (server shutdown). Returns how many. */
  async closeListeners(): Promise<number> {
    const closed = this.listeners.closeAll();
    this.billed("closeListeners");
    return closed;
  }

  /** Calls each registered session; forgets those that are gone or no longer subscribed. */
  private async notifySessions(event: Exclude<PublishEvent, { type: "taskStatus" }>, traceparent?: string): Promise<number> {
    const topic = topicKey(event.type === "resourceUpdated" ? { uri: event.uri } : { lists: true });
    const ids = this.registrations.sessions(topic);
    if (ids.length === 0) return 0;
    const namespace = this.env.MCP_SESSION;
    if (!namespace) throw new Error("mcp-edge: the hub has 2025-era sessions registered but no MCP_SESSION binding");
    const stale: string[] = [];
    // Requests the sessions do not report (they are the hub's).
    this.billing?.made(ids.length);
    const delivered = await Promise.all(
      ids.map(async (sessionId) => {
        const stub: DurableObjectStub<SessionObjectRpc> = namespace.get(namespace.idFromString(sessionId));
        const call =
          event.type === "resourceUpdated"
            ? stub.resourceUpdated(event.uri, traceparent, event.route)
            : stub.listChanged(event.list, traceparent, event.route);
        const delivery: UpdateDelivery = await call.catch(() => "no-stream" as const);
        if (delivery === "gone" || delivery === "not-subscribed") stale.push(sessionId);
        return delivery === "sent" ? 1 : 0;
      }),
    );
    await this.registrations.removeMany(topic, stale);
    return delivered.reduce<number>((a, b) => a + b, 0);
  }
}

const McpHubBase = McpHub;

/**
 * The hub class of a served server: `export const McpHub = hubObject(edge)`, with the tracer of
 * `createMcpEdge(server, { tracing })`, so a trace continues into listen streams and publishes.
 */
export function hubObject(edge: object): typeof McpHub {
  const observer = observerOfEdge(edge);
  return class McpHub extends McpHubBase {
    constructor(ctx: DurableObjectState, env: EdgeEnv) {
      super(ctx, env, observer?.tracing, observer);
    }
  };
}
