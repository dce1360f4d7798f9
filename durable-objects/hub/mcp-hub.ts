/**
 * McpHub: the subscription hub, one per server (or per shard). It serves 2026-07-28
 * `subscriptions/listen` streams (listeners.ts, memory only) and remembers which 2025-era
 * sessions subscribed to what (registrations.ts, the only storage). `publish` fans an event
 * out to both: listen streams get it directly, sessions through their own object; as shard 0
 * it hands each batch to the other shards (coordinator.ts: the active shards and their outboxes).
 * Made by `hubClass(kernel)` (the `hub()` feature), it carries the server's tracer (tracing.ts); the bare class (a
 * deprecated export) traces nothing.
 */
import {
  HEADER_LISTEN_OPEN,
  HUB_LISTEN_URL,
  type BatchReport,
  type Fanout,
  type HubEnv,
  type HubRpc,
  type ListenOpen,
  type PublishEvent,
  type ShardPlace,
  type ShardReport,
} from "./contract";
import { hubObjectId, type HubTopic } from "../../src/platform/addresses";
import { ShardPresence } from "./shards";
import { Coordinator } from "./coordinator";
import { ListenStreams } from "./listeners";
import { Registrations, topicKey } from "./registrations";
import { refuse } from "../../src/wire/refusals";
import { tooManyListenStreamsRow } from "../../src/wire/hub-refusals";
import { isUpgrade } from "../kit/held-sockets";
import type { Tracing } from "../../src/mcp/operations/tracing";
import { EdgeObject, type ObjectBinding } from "../kit/edge-object";
import { notifySessions, type SessionFanoutHost } from "./session-fanout";
import { endListenSpan, listenSpan, tracedBatch } from "./tracing";

export class McpHub extends EdgeObject<HubEnv> implements HubRpc {
  private readonly listeners: ListenStreams;
  private readonly registrations: Registrations;
  /** As shard 0: the other shards that hold anyone and the outboxes to them (coordinator.ts). */
  private readonly coordinator: Coordinator;
  /** As another shard: tells shard 0 when it starts holding someone. */
  private readonly presence = new ShardPresence((place) => this.shard(place.name, 0));

  /** The server's tracer (the `observe()` feature's), when the class is bound to an edge. */
  private readonly tracing: Tracing | undefined;
  /** What the delivery to this shard's 2025 sessions needs (session-fanout.ts). */
  private readonly sessionHost: SessionFanoutHost;

  /** `binding`: the edge's, when the class is `hubClass(kernel)`; none for a hub hosted alone (it traces nothing). */
  constructor(ctx: DurableObjectState, env: HubEnv, binding?: ObjectBinding) {
    super(ctx, env, binding, { place: "hub", rows: "events" });
    this.tracing = this.observer?.tracing;
    const storage = this.storage;
    this.registrations = new Registrations(storage);
    this.sessionHost = { env, registrations: this.registrations, bill: this.bill };
    this.listeners = new ListenStreams(ctx, storage);
    this.coordinator = new Coordinator(
      storage,
      { shard: (name, index) => this.shard(name, index), notifyOwn: (events, traces) => this.notifyAll(events, traces) },
      this.tracing,
    );
  }

  private shard(name: string, index: number): DurableObjectStub<HubRpc> {
    const namespace = this.env.MCP_HUB!;
    return namespace.get(hubObjectId(namespace, name, index));
  }

  /** Opens a listen stream (the Worker's serveListen validated the request and computed the filter). */
  protected override async onRequest(request: Request): Promise<Response> {
    const header = request.headers.get(HEADER_LISTEN_OPEN);
    if (request.url !== HUB_LISTEN_URL || !isUpgrade(request) || header === null) return refuse({ reason: "not-found" });
    const open = JSON.parse(header) as ListenOpen;
    const span = this.tracing && listenSpan(this.tracing, open);
    await this.presence.hold(open.at);
    const outcome = await this.listeners.open(open);
    // The upgrade is counted by the Worker's subscriptions/listen event.
    this.served("subscriptions/listen", 0);
    if (outcome.ok) {
      if (span) endListenSpan(span, undefined);
      return outcome.response;
    }
    const refusal = tooManyListenStreamsRow(outcome.limit, outcome.reason === "client-limit");
    if (span) endListenSpan(span, refusal);
    return refuse(refusal, open.id);
  }

  // ---- the listen streams' sockets (hibernatable: these wake a sleeping shard) -----------------

  protected override onSocketMessage(socket: WebSocket, message: string | ArrayBuffer): void {
    this.listeners.received(socket, message);
  }

  protected override async onSocketClose(socket: WebSocket): Promise<void> {
    this.listeners.ended(socket);
    await this.releaseIfEmpty();
  }

  // ---- RPC from session objects ------------------------------------------------------------

  async register(sessionId: string, topic: HubTopic, at?: ShardPlace): Promise<void> {
    await this.presence.hold(at);
    this.registrations.add(topicKey(topic), sessionId);
    this.served("register", 1);
  }

  async unregister(sessionId: string, topic: HubTopic): Promise<void> {
    await this.registrations.remove(topicKey(topic), sessionId);
    await this.releaseIfEmpty();
    this.served("unregister", 1);
  }

  /** A session was terminated or expired: it is no longer registered for anything. */
  async forget(sessionId: string): Promise<void> {
    await this.registrations.forget(sessionId);
    await this.releaseIfEmpty();
    this.served("forget", 1);
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
      this.served("publish", events.every((event) => event.type === "taskStatus") ? 0 : 1);
    }
  }

  private publishTraced(
    events: PublishEvent[],
    fanout: Fanout | undefined,
    wait: boolean,
    traces: (string | undefined)[] | undefined,
  ): Promise<BatchReport | undefined> {
    if (!this.tracing) return this.fanOut(events, fanout, wait);
    return tracedBatch(this.tracing, { events, parents: traces, shard: 0 }, (spans) => {
      // Each event's span, for the shards it is handed on to (sendTo).
      for (const [i, span] of spans.entries()) this.coordinator.traceOf.set(events[i] as PublishEvent, span.traceparent);
      return this.fanOut(events, fanout, wait);
    });
  }

  private async fanOut(events: PublishEvent[], fanout: Fanout | undefined, wait: boolean): Promise<BatchReport | undefined> {
    // This shard's streams first: nothing is read from storage before they have the batch.
    const listenStreams = await this.listeners.deliverBatch(events);
    const queued = this.coordinator.queue(events, fanout);
    if (!wait) {
      // Each outbox reports its own failures; nobody waits for these here (the billing does, to count their calls).
      for (const q of queued) {
        q.catch(() => undefined);
        this.bill?.follow(q);
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
    this.coordinator.active.announce(index, epoch);
    this.served("activate", 1);
  }

  async deactivate(index: number, epoch: number): Promise<void> {
    this.coordinator.active.withdraw(index, epoch);
    this.served("deactivate", 1);
  }

  /** After a stream or registration left: an emptied shard withdraws from shard 0's list (a failed call changes nothing: the next publish learns it). */
  private async releaseIfEmpty(): Promise<void> {
    if (this.listeners.any() || this.registrations.any()) return;
    await this.presence.release().catch(() => undefined);
  }

  /** Shard 0's call: deliver a batch here, in order, and say whether this shard still holds anyone; `traces`: shard 0's spans. */
  async deliver(events: PublishEvent[], traces?: (string | undefined)[]): Promise<ShardReport> {
    try {
      if (!this.tracing) return await this.deliverShard(events);
      return await tracedBatch(this.tracing, { events, parents: traces, shard: undefined }, (spans) =>
        this.deliverShard(
          events,
          spans.map((span) => span.traceparent),
        ),
      );
    } finally {
      this.served("deliver", 1);
    }
  }

  private async deliverShard(events: PublishEvent[], traces?: (string | undefined)[]): Promise<ShardReport> {
    const listenStreams = await this.listeners.deliverBatch(events);
    const { sessions } = await this.notifyAll(events, traces);
    return this.presence.report({ listenStreams, sessions }, !this.listeners.any() && !this.registrations.any());
  }

  /** This shard's 2025 sessions, one event after another (each session gets them in order); `traces`: the hub's span of each. */
  private async notifyAll(events: PublishEvent[], traces?: (string | undefined)[]): Promise<BatchReport> {
    const sessions: number[] = [];
    for (const [i, event] of events.entries())
      sessions.push(event.type === "taskStatus" ? 0 : await notifySessions(this.sessionHost, event, traces?.[i]));
    return { listenStreams: events.map(() => 0), sessions };
  }

  /** Ends every listen stream with its `complete` result (server shutdown). Returns how many. */
  async closeListeners(): Promise<number> {
    const closed = this.listeners.closeAll();
    this.served("closeListeners", 1);
    return closed;
  }
}

const McpHubBase = McpHub;

/**
 * The hub class of a served server (bound as MCP_HUB), bound to its edge's kernel: the `hub()` feature's
 * `edge.objects.McpHub`, with the edge's observer, so a trace continues into listen streams and
 * publishes. Without a kernel (a Worker that only hosts the hub, for the SDK's bus:
 * src/features/hub/bus.ts), the hub traces nothing. The public `hubObject()` is src/features/hub/hub-object.ts.
 */
export function hubClass(kernel: ObjectBinding | undefined): typeof McpHub {
  return class McpHub extends McpHubBase {
    constructor(ctx: DurableObjectState, env: HubEnv) {
      super(ctx, env, kernel);
    }
  };
}
