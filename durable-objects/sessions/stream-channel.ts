/**
 * The channel of one request run in a session object: what its handler notifies or asks goes on
 * the request's own stream, stored in the event log then sent (core.emit); a server-to-client
 * request waits in pending.ts for its answer. A class, one per request: docs/engine-notes.md
 * "Classes for what a request builds".
 */
import { notification, toWire, type Message, type Params, type ResponseMessage } from "../../src/jsonrpc/messages";
import type { Channel, SignalSource } from "../../src/mcp/definition/context";
import { usesSsePolling } from "../../src/mcp/definition/versions";
import { meterEvent, type Meter } from "../../src/mcp/operations/observe";
import type { SessionCore } from "./core";
import type { PendingRequests } from "./pending";

export class StreamChannel implements Channel {
  readonly requestUnavailable = undefined;

  constructor(
    private readonly core: SessionCore,
    private readonly pending: PendingRequests,
    private readonly stream: number,
    /** The run's cost counters, when the server is observed. */
    private readonly meter: Meter | undefined,
  ) {}

  async notify(method: string, params: Params): Promise<void> {
    this.emit(notification(method, params));
  }

  request(method: string, params: Params, from: SignalSource): Promise<Params> {
    return this.pending.request(method, from.signal, {
      send: (id) => this.emit({ kind: "request", id, method, params }),
      cancel: (id, reason) => this.emit(notification("notifications/cancelled", { requestId: id, reason })),
    });
  }

  closeStream(): void {
    const state = this.core.state;
    // Only a 2025-11-25 client knows to resume a stream the server closed (SSE polling).
    if (state && usesSsePolling(state.protocolVersion)) this.core.endStream(this.stream);
  }

  logLevel(): ReturnType<Channel["logLevel"]> {
    return this.core.state?.logLevel;
  }

  /** Each emitted message is one stored row and one SSE event (counted only when metered). */
  emit(message: Message | ResponseMessage): void {
    this.core.emit(this.stream, message);
    if (this.meter) meterEvent(this.meter, JSON.stringify(toWire(message)));
  }
}
