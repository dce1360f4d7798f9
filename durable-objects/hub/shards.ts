/**
 * Which shards of a hub hold anyone, so a publish calls only those. Shard 0 coordinates: every
 * publish goes to it, it delivers to its own streams and calls the other shards that announced
 * themselves (in parallel). A shard announces itself to shard 0 before it acknowledges its first
 * stream or stores its first registration, so no publish after an acknowledgement misses it; it
 * is forgotten when it answers a publish empty. Shard 0 keeps the list in its storage
 * (`hub_active_shards`, a row per active shard, no table while none is), so a shard 0 that slept
 * or restarted still calls only those: with nobody listening a publish costs one object request
 * whatever `listen.shards` is. Only after a call to a shard failed does it ask every shard again
 * until each has answered once (memory only). `epoch` orders a shard's announcements against its
 * answers, so an "empty" answer overtaken by a newer announcement removes nothing; a shard that
 * has not announced since it woke answers with epoch 0, which matches whatever was stored.
 */
import type { BatchReport, HubRpc, ShardPlace, ShardReport } from "./contract";

/** Shard 0's view: the other shards that hold anyone, by index, with the epoch each announced. */
export class ActiveShards {
  private active: Map<number, number> | undefined;
  /** After a failed call: the shards whose answer is still missing (every one is called until then). */
  private unanswered: { shards: number; left: Set<number> } | undefined;
  private failed = false;

  constructor(private readonly storage: DurableObjectStorage) {}

  announce(index: number, epoch: number): void {
    this.set(index, epoch);
  }

  /** A shard emptied: forgotten unless it announced itself again since (`epoch` of its last announcement). */
  withdraw(index: number, epoch: number): void {
    if (this.stored().get(index) === epoch) this.remove(index);
  }

  /** The shards (other than 0) a publish must reach: those that announced, or all of them after a failed call. */
  targets(shards: number): number[] {
    // Every shard that announced itself, even past `shards`: a publish that passed no count (or another) still reaches it.
    if (!this.failed) return [...this.stored().keys()];
    const all = Array.from({ length: shards - 1 }, (_, i) => i + 1);
    if (this.unanswered?.shards !== shards) this.unanswered = { shards, left: new Set(all) };
    return all;
  }

  /** One shard's answer: an empty one is forgotten unless it announced itself again since. */
  learn(shards: number, index: number, report: ShardReport): void {
    const known = this.stored().get(index);
    if (report.empty) {
      if (known !== undefined && (report.epoch === 0 || known === report.epoch)) this.remove(index);
    } else if (known === undefined) {
      this.set(index, report.epoch);
    }
    const round = this.unanswered;
    if (round?.shards !== shards) return;
    round.left.delete(index);
    if (round.left.size > 0) return;
    this.failed = false;
    this.unanswered = undefined;
  }

  /** A call to a shard failed, so what it holds is unknown: publishes reach every shard until each answered again. */
  lost(): void {
    this.failed = true;
    this.unanswered = undefined;
  }

  private stored(): Map<number, number> {
    if (this.active) return this.active;
    this.active = new Map();
    const sql = this.storage.sql;
    if (sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'hub_active_shards'").toArray().length === 0)
      return this.active;
    for (const row of sql.exec<{ idx: number; epoch: number }>("SELECT idx, epoch FROM hub_active_shards"))
      this.active.set(row.idx, row.epoch);
    return this.active;
  }

  private set(index: number, epoch: number): void {
    const active = this.stored();
    if (active.get(index) === epoch) return;
    const sql = this.storage.sql;
    if (active.size === 0) sql.exec("CREATE TABLE IF NOT EXISTS hub_active_shards (idx INTEGER PRIMARY KEY, epoch INTEGER NOT NULL)");
    sql.exec("INSERT OR REPLACE INTO hub_active_shards (idx, epoch) VALUES (?, ?)", index, epoch);
    active.set(index, epoch);
  }

  private remove(index: number): void {
    const active = this.stored();
    if (!active.delete(index)) return;
    const sql = this.storage.sql;
    if (active.size === 0) sql.exec("DROP TABLE IF EXISTS hub_active_shards");
    else sql.exec("DELETE FROM hub_active_shards WHERE idx = ?", index);
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

  /**
   * The last stream or registration left: shard 0 forgets this shard at once (its row, and its
   * table with the last one), instead of at the next publish. One call, only on that transition.
   */
  async release(): Promise<void> {
    if (!this.place || this.place.index === 0 || !this.announced) return;
    this.announced = false;
    await this.coordinator(this.place).deactivate(this.place.index, this.epoch);
  }

  /** The answer to shard 0; an empty shard will announce itself again at its next stream. */
  report(delivered: BatchReport, empty: boolean): ShardReport {
    if (empty) this.announced = false;
    return { ...delivered, empty, epoch: this.epoch };
  }
}
