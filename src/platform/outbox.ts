/**
 * An ordered outbox in front of one receiver, used on both sides of a publish: by the
 * publishing isolate in front of shard 0 (src/features/hub/publish.ts), and by shard 0 in front of each
 * other shard (mcp-hub.ts). At most one send is in flight; what is pushed meanwhile waits and
 * goes as one batch (at most `max` items and about 1 MiB), in push order, when the send in flight has settled.
 * So order is kept from one pusher to one receiver, and a burst costs a few requests, not one
 * per item. A send runs in the context of the push that opened its batch (a Worker's I/O
 * belongs to the request that made it), so a batch never depends on another request's lifetime
 * beyond the one send it rides in.
 */

/** Items one send carries at most. */
const MAX_BATCH = 1_000;
/** The weight (about the bytes) one send carries at most, far below an RPC's size limit; a heavier item goes alone. */
const MAX_BATCH_WEIGHT = 1024 * 1024;
/**
 * How long a batch waits for the send before it at most. A send that hangs past this (a
 * receiver that does not answer) must not hold every later batch, nor outlive the request
 * that waits for it: the next batch goes anyway, and only then can two batches overtake.
 */
const STALL_MS = 10_000;

/** Where an item went: its batch's send, and its place in that batch. */
export interface Pushed<R> {
  sent: Promise<R>;
  at: number;
}

interface Batch<T, R> {
  items: T[];
  weight: number;
  sent: Promise<R>;
}

/** How big a batch may grow, and how long it waits for the send before it. */
export interface OutboxLimits<T> {
  max?: number;
  /** An item's weight (about its bytes on the wire); a batch carries at most maxWeight. */
  weigh?: (item: T) => number;
  maxWeight?: number;
  stallMs?: number;
}

export class Outbox<T, R> {
  /** The batch still taking items: its send has not started. */
  private open: Batch<T, R> | undefined;
  /** The last send scheduled; the next batch starts when it has settled. */
  private tail: Promise<unknown> = Promise.resolve();

  /** `send` should not throw: a batch it fails is its to report; a throw rejects that batch's `sent`. */
  constructor(
    private readonly send: (items: T[]) => Promise<R>,
    private readonly limits: OutboxLimits<T> = {},
  ) {}

  push(item: T): Pushed<R> {
    const weight = this.limits.weigh?.(item) ?? 0;
    let batch = this.open;
    const full =
      batch !== undefined &&
      (batch.items.length >= (this.limits.max ?? MAX_BATCH) ||
        (batch.items.length > 0 && batch.weight + weight > (this.limits.maxWeight ?? MAX_BATCH_WEIGHT)));
    if (!batch || full) batch = this.openBatch();
    batch.items.push(item);
    batch.weight += weight;
    return { sent: batch.sent, at: batch.items.length - 1 };
  }

  private openBatch(): Batch<T, R> {
    const items: T[] = [];
    const sent = settledOrStalled(this.tail, this.limits.stallMs ?? STALL_MS).then(() => {
      // From here on, pushes open the next batch.
      if (this.open?.items === items) this.open = undefined;
      return this.send(items);
    });
    this.tail = sent.catch(() => undefined);
    const batch = { items, weight: 0, sent };
    this.open = batch;
    return batch;
  }
}

/** Resolves when `previous` has settled, or after `ms` if it has not. */
function settledOrStalled(previous: Promise<unknown>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      console.error(`mcp-edge: a publish batch waited ${ms} ms for the one before it; sending it anyway`);
      resolve();
    }, ms);
    void previous.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
