/**
 * The one base of every Durable Object class mcp-edge makes (session, hub, task with its ledger,
 * user): bound to what its edge serves (shared/edge-binding.ts: the server, its options, its
 * observer), with its storage metered when observed (metered-storage.ts) and its own events billed
 * (billing.ts), its state restored under `blockConcurrencyWhile` before any request, and each entry
 * point routed to a hook: fetch → onRequest, alarm → onAlarm, webSocketMessage → onSocketMessage,
 * webSocketClose/Error → onSocketClose, each followed by `served` (what the entry point cost). RPC
 * methods are the subclass's own and call `served` themselves. A class is made from its edge's kernel
 * by its feature's `objects(kernel)` (`sessionClass(kernel)`, `hubClass(kernel)`, …) as
 * `class extends <Kind>Object { constructor(ctx, env) { super(ctx, env, kernel) } }`: nothing is looked
 * up in module state, so two edges in one isolate share nothing.
 */
import { DurableObject } from "cloudflare:workers";
import type { Observer, OwnUnits, Place } from "../../src/mcp/operations/observe";
import { refuse } from "../../src/wire/refusals";
import type { EdgeBinding } from "../shared/edge-binding";
import { ObjectBill } from "./billing";
import { MeteredStorage } from "./metered-storage";

/** What the kit reads of the binding a class is made with (any edge's, whatever its Env): its observer. */
export type ObjectBinding = Pick<EdgeBinding<unknown>, "observer">;

/** What the kit needs to know of an object kind. */
export interface ObjectKind {
  /** Where its own events come from (observe.ts `Place`); none for an object that reports none (the user store). */
  readonly place?: Place;
  /**
   * Who reads its rows: "spans" when its operations' spans carry them (a session's, a task's run: its
   * storage is metered whenever the server is observed), "events" when only its own events do (a hub
   * shard's: metered with `onEvent`).
   */
  readonly rows: "spans" | "events";
  /** Told with each of its own events: the session they are about (a session object's id). */
  readonly about?: Pick<OwnUnits, "sessionId">;
}

export abstract class EdgeObject<Env> extends DurableObject<Env> {
  /** The server's observer (tracing, `onEvent`, analytics), when observed. */
  protected readonly observer: Observer | undefined;
  /** The object's storage: `ctx.storage`, or its metered view when its rows are read. Every part uses this one. */
  protected readonly storage: DurableObjectStorage;
  /** The row counter behind `storage`, when metered. */
  protected readonly metered: MeteredStorage | undefined;
  /** With an observed server's `onEvent`: what this object costs where no operation counts it. */
  protected readonly bill: ObjectBill | undefined;

  /**
   * `binding`: what the class is bound to (the kind keeps what it needs of the server and options);
   * undefined for a class made without an edge (a hub hosted alone, the bare user store).
   */
  constructor(ctx: DurableObjectState, env: Env, binding: ObjectBinding | undefined, kind: ObjectKind) {
    super(ctx, env);
    const observer = binding?.observer;
    this.observer = observer;
    const readsRows = observer !== undefined && (kind.rows === "spans" || observer.hasSink);
    this.metered = readsRows ? new MeteredStorage(ctx.storage) : undefined;
    this.storage = this.metered ? this.metered.storage : ctx.storage;
    const metered = this.metered;
    const place = kind.place;
    this.bill = observer?.hasSink && metered && place ? new ObjectBill(observer, metered, { place, env, about: kind.about }) : undefined;
    // The hook runs after the first await, once every subclass constructor has finished, and before any request.
    void ctx.blockConcurrencyWhile(async () => {
      await Promise.resolve();
      await this.onStart();
    });
  }

  // ---- hooks: what a kind overrides ---------------------------------------------------

  /** Waking up (a new instance, after eviction or a restart): state from storage. Runs before any request. */
  protected onStart(): void | Promise<void> {}

  /** An HTTP request from the Worker; an object that answers none says "not found". */
  protected onRequest(_request: Request): Promise<Response> {
    return Promise.resolve(refuse({ reason: "not-found" }));
  }

  protected onAlarm(): Promise<void> {
    return Promise.resolve();
  }

  /** A message on a held stream's socket (from the Worker holding it: a probe's answer). */
  protected onSocketMessage(_socket: WebSocket, _message: string | ArrayBuffer): void {}

  /** A held stream's socket closed or broke. */
  protected onSocketClose(_socket: WebSocket): void | Promise<void> {}

  /**
   * An entry point was served: its own event (`received`: requests no caller counts, `messages`:
   * WebSocket messages), with the rows written since the previous one. Kinds that report otherwise override it.
   */
  protected served(method: string, received: number, messages = 0): void {
    if (this.bill) void this.bill.report(method, received, messages);
  }

  // ---- entry points: the platform calls these, each routes to its hook -------------------

  override fetch(request: Request): Promise<Response> {
    return this.onRequest(request);
  }

  override async alarm(): Promise<void> {
    try {
      await this.onAlarm();
    } finally {
      // An alarm has no caller: the object reports it.
      this.served("alarm", 1);
    }
  }

  override async webSocketMessage(socket: WebSocket, message: string | ArrayBuffer): Promise<void> {
    this.onSocketMessage(socket, message);
    // Billed at 1/20 of a request.
    this.served("webSocketMessage", 0, 1);
  }

  override async webSocketClose(socket: WebSocket): Promise<void> {
    await this.onSocketClose(socket);
    this.served("webSocketClose", 0);
  }

  override async webSocketError(socket: WebSocket): Promise<void> {
    await this.onSocketClose(socket);
    this.served("webSocketError", 0);
  }
}
