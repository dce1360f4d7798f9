/**
 * Which shards of a hub hold anyone, so a publish calls only those. Shard 0 coordinates: every
 * publish goes to it, it delivers to its own streams and calls the other shards that announced
 * themselves (in parallel). A shard announces itself to shard 0 before it acknowledges its first
 * stream or stores its first registration, so no publish after an acknowledgement misses it; it
 * is forgotten when it answers a publish empty. Memory only: a restarted shard 0 calls every
 * shard until each has answered once, and learns from their answers (so does a shard 0 whose
 * call to a shard failed). `epoch` orders a shard's announcements against its
 * answers, so an "empty" answer overtaken by a newer announcement removes nothing.
 */
import type { BatchReport, HubRpc, ShardPlace, ShardReport } from "./contract";

/** Shard 0's view: the other shards that hold anyone, by index, with the epoch each announced. */
export class ActiveShards {
  private readonly active = new Map<number, number>();
  /** The shard count for which every shard has answered (since this object started, or a call failed). */
  private knownFor: number | undefined;
  /** Until then: the shards whose answer is still missing. */
  private unanswered: { shards: number; left: Set<number> } | undefined;

  announce(index: number, epoch: number): void {
    this.active.set(index, epoch);
  }

  /** The shards (other than 0) a publish must reach: all of them until each has answered once. */
  targets(shards: number): number[] {
    if (this.knownFor === shards) return [...this.active.keys()].filter((i) => i < shards);
    const all = Array.from({ length: shards - 1 }, (_, i) => i + 1);
    if (this.unanswered?.shards !== shards) this.unanswered = { shards, left: new Set(all) };
    return all;
  }

  /** One shard's answer: an empty one is forgotten unless it announced itself again since. */
  learn(shards: number, index: number, report: ShardReport): void {
    if (report.empty) {
      if (this.active.get(index) === report.epoch) this.active.delete(index);
    } else if (!this.active.has(index)) {
      this.active.set(index, report.epoch);
    }
    const round = this.unanswered;
    if (round?.shards !== shards) return;
    round.left.delete(index);
    if (round.left.size > 0) return;
    this.knownFor = shards;
    this.unanswered = undefined;
  }

  /** A call to a shard failed, so what it holds is unknown: publishes reach every shard until each answered again. */
  lost(): void {
    this.knownFor = undefined;
    this.unanswered = undefined;
  }
}

/** A shard's side: announces itself to shard 0 once while it holds anyone. */
export class ShardPresence {
  private place: ShardPlace | undefined;
  private announced = false;
  private epoch = 0;

  constructor(private readonly coordinator: (place: ShardPlace) => DurableObjectStub<HubRpc>) {}

  /** Before the first stream or registration: shard 0 learns this shard holds someone. */
  async hold(place: ShardPlace | undefined): Promise<void> {
    if (place) this.place = place;
    if (!this.place || this.place.index === 0 || this.announced) return;
    const epoch = ++this.epoch;
    await this.coordinator(this.place).activate(this.place.index, epoch);
    if (epoch === this.epoch) this.announced = true;
  }

  /** The answer to shard 0; an empty shard will announce itself again at its next stream. */
  report(delivered: BatchReport, empty: boolean): ShardReport {
    if (empty) this.announced = false;
    return { ...delivered, empty, epoch: this.epoch };
  }
}
