/**
 * What an object costs where no MCP operation counts it, told to the server's `onEvent` (only for
 * the classes of an observed server): the requests it receives that no observed caller counted
 * (a hub shard's, whose callers are publishers, sessions and other shards; an alarm), the requests
 * it makes that their receiver does not report (a hub shard's calls to 2025 sessions), every row
 * its storage writes as the platform bills it (each SQL cursor's `rowsWritten`, one per key-value
 * put or delete, one per `setAlarm`/`deleteAlarm`, and every row `deleteAll` removes), and each
 * WebSocket message a held stream's socket brings it (billed at 1/20 of a request). Each event
 * carries what accrued since the previous one, so the sums are exact even when a batch's calls
 * run after the request that queued them. Rows are counted by the object's metered storage
 * (metered-storage.ts), the one counter of every object. The observe wing's (observed-object.ts makes it).
 */
import type { ObjectBill, Observer, OwnUnits, Place } from "../../src/mcp/operations/observe";
import type { MeteredStorage } from "./metered-storage";

/** Where an object's own events come from. */
export interface BillPlace {
  readonly place: Place;
  readonly env: unknown;
  /** Told with every event: the session they are about (a session object's id). */
  readonly about?: Pick<OwnUnits, "sessionId">;
}

export class Bill implements ObjectBill {
  private requests = 0;
  private messages = 0;
  /** Work that must settle before the next event, so what it costs is told with the request that started it. */
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly observer: Observer,
    /** The object's storage view that counts its rows. */
    private readonly metered: MeteredStorage,
    private readonly at: BillPlace,
  ) {}

  /** Requests this object made that their receiver does not report. */
  made(n: number): void {
    this.requests += n;
  }

  /** Work started by the request being served that may outlive it (an outbox's send). */
  follow(work: Promise<unknown>): void {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(settled);
    void settled.then(() => this.pending.delete(settled));
  }

  /** One request served (`received`: 1, or 0 for one its caller counts), reported once its follow-up work settled. */
  async report(method: string, received: number, messages = 0, place = this.at.place): Promise<void> {
    this.messages += messages;
    while (this.pending.size > 0) await Promise.all(this.pending);
    const rowsWritten = this.metered.takeRows();
    const doRequests = this.requests + received;
    const webSocketMessages = this.messages;
    this.requests = 0;
    this.messages = 0;
    if (doRequests === 0 && rowsWritten === 0 && webSocketMessages === 0) return;
    this.observer.emitOwn(place, method, this.at.env, { doRequests, rowsWritten, webSocketMessages, ...this.at.about });
  }
}
