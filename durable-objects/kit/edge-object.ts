/**
 * The one base of every Durable Object class mcp-edge makes (session, hub, task with its ledger,
 * user): bound to what its edge serves (shared/edge-binding.ts: the server, its options, its
 * observer), with its storage metered when observed and its own events billed (both the observer's
 * part, `Observer.observeObject`: the observe wing's durable-objects/observe/), its state restored
 * under `blockConcurrencyWhile` before any request, and each entry point routed to a hook: fetch →
 * onRequest, alarm → onAlarm, webSocketMessage → onSocketMessage, webSocketClose/Error →
 * onSocketClose, each followed by `served` (what the entry point cost). RPC
 * methods are the subclass's own and call `served` themselves. A class is made from its edge's kernel
 * by its feature's `objects(kernel)` (`sessionClass(kernel)`, `hubClass(kernel)`, …) as
 * `class extends <Kind>Object { constructor(ctx, env) { super(ctx, env, kernel) } }`: nothing is looked
 * up in module state, so two edges in one isolate share nothing.
 */
import { DurableObject } from "cloudflare:workers";
import type { ObjectBill, ObservedKind, ObservedObject, Observer } from "../../src/mcp/operations/observe";
import { refuse } from "../../src/wire/refusals";
import type { EdgeBinding } from "../shared/edge-binding";

/** What the kit reads of the binding a class is made with (any edge's, whatever its Env): its observer. */
export type ObjectBinding = Pick<EdgeBinding<unknown>, "observer">;

/** What the kit needs to know of an object kind: what its observer is told (observe.ts `ObservedKind`), less its env. */
export type ObjectKind = Omit<ObservedKind, "env">;

export abstract class EdgeObject<Env> extends DurableObject<Env> {
  /** The server's observer (tracing, `onEvent`, analytics), when observed. */
  protected readonly observer: Observer | undefined;
  /** The object's storage: `ctx.storage`, or its metered view when its rows are read. Every part uses this one. */
  protected readonly storage: DurableObjectStorage;
  /** The observer's part of this object (its row counter, its bill), when its rows are read. */
  protected readonly observed: ObservedObject | undefined;
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
    this.observed = observer?.observeObject(ctx.storage, { ...kind, env });
    this.storage = this.observed ? this.observed.storage : ctx.storage;
    this.bill = this.observed?.bill;
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
