/**
 * The observe wing's object half: what an object of an observed server gets from its observer
 * (src/features/observe makes the observer; the object kit, durable-objects/kit/edge-object.ts, asks
 * it with `ctx.storage` and the object's kind). Its storage is metered (metered-storage.ts) and its
 * own events billed (billing.ts). A Worker without `observe()` bundles none of it. It has no class
 * of its own: every object kind uses it through the kit.
 */
import type { Delivery, ObjectBill, ObservedKind, ObservedObject, Observer } from "../../src/mcp/operations/observe";
import { Bill } from "./billing";
import { MeteredStorage } from "./metered-storage";
import { observeOwn, type OwnEventsHost, traceDelivery } from "./own-events";

/**
 * The part of `observer` for one object, or undefined when no one reads its rows: a kind whose spans
 * carry them ("spans": a session's, a task's run) is metered whenever observed, one whose own events
 * alone do ("events": a hub shard's) only when someone hears events.
 */
export function observeObject(observer: Observer, storage: DurableObjectStorage, kind: ObservedKind): ObservedObject | undefined {
  if (kind.rows === "events" && !observer.hasSink) return undefined;
  return new ObjectObservation(observer, storage, kind);
}

class ObjectObservation implements ObservedObject {
  readonly storage: DurableObjectStorage;
  readonly bill: ObjectBill | undefined;
  private readonly metered: MeteredStorage;
  /** What its own operations and deliveries report with: none for a kind without a place. */
  private readonly own: OwnEventsHost | undefined;

  constructor(observer: Observer, storage: DurableObjectStorage, kind: ObservedKind) {
    this.metered = new MeteredStorage(storage);
    this.storage = this.metered.storage;
    const place = kind.place;
    this.bill = observer.hasSink && place ? new Bill(observer, this.metered, { place, env: kind.env, about: kind.about }) : undefined;
    this.own = place ? { observer, place, env: kind.env, sessionId: kind.about?.sessionId, rows: this.metered } : undefined;
  }

  takeRows(): number {
    return this.metered.takeRows();
  }

  ownOperation(method: string, doRequests: number, openStreams: number): void {
    if (this.own) observeOwn(this.own, method, doRequests, openStreams);
  }

  delivery<T extends string>(delivery: Delivery, deliver: () => T): T {
    return this.own ? traceDelivery(this.own, delivery, deliver) : deliver();
  }
}
