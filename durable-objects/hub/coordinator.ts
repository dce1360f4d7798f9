/**
 * Shard 0's coordination, apart from what every shard does (mcp-hub.ts): which other shards hold
 * anyone (shards.ts), an ordered outbox per shard it hands a publish to plus one for its own 2025
 * sessions (outbox.ts: one call in flight each, what arrives meanwhile goes as one batch), and,
 * with a tracer, the span of each event handed on. Only shard 0 uses it; the others only
 * announce themselves to it (shards.ts ShardPresence).
 */
import { eventWeight, type BatchReport, type Fanout, type HubRpc, type PublishEvent } from "./contract";
import { ActiveShards } from "./shards";
import { Outbox } from "../../src/platform/outbox";
import type { Tracing } from "../../src/mcp/operations/tracing";

/** What the coordination needs from its shard. */
export interface CoordinatorHost {
  /** The stub of shard `index` of hub `name`. */
  shard(name: string, index: number): DurableObjectStub<HubRpc>;
  /** This shard's own 2025 sessions, one event after another; `traces`: the hub's span of each. */
  notifyOwn(events: PublishEvent[], traces?: (string | undefined)[]): Promise<BatchReport>;
}

export class Coordinator {
  /** Which other shards hold anyone (announced, or learnt from their answers). */
  readonly active: ActiveShards;
  /** An ordered outbox per other shard it delivers to, and one for its own 2025 sessions. */
  private readonly outboxes = new Map<string, Outbox<PublishEvent, BatchReport>>();
  /** With a tracer: the span of each event being handed on (its traceparent), for the shards' spans. */
  readonly traceOf = new WeakMap<PublishEvent, string | undefined>();

  constructor(
    storage: DurableObjectStorage,
    private readonly host: CoordinatorHost,
    private readonly tracing: Tracing | undefined,
  ) {
    this.active = new ActiveShards(storage);
  }

  /**
   * Queues a batch for this shard's 2025 sessions and for every other shard that holds anyone:
   * one promise per outbox, each resolved with the batch's counts in order once it went.
   */
  queue(events: PublishEvent[], fanout: Fanout | undefined): Promise<BatchReport>[] {
    const queued = [this.pushAll(this.outbox(undefined, 0), events)];
    if (fanout && fanout.shards > 1) {
      for (const index of this.active.targets(fanout.shards)) queued.push(this.pushAll(this.outbox(fanout, index), events));
    }
    return queued;
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
      const report = await this.host.shard(fanout.name, index).deliver(events, traces);
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
      // Shard 0's span of each event (set by the hub's publish), which the sessions' deliveries continue.
      const traces = this.tracing ? events.map((event) => this.traceOf.get(event)) : undefined;
      return await this.host.notifyOwn(events, traces);
    } catch (error) {
      console.error(`mcp-edge: the hub could not call its 2025 sessions for ${events.length} published event(s)`, error);
      throw error;
    }
  }
}
