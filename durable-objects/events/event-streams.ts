/**
 * The push streams (`events/stream`) of one emitted event type, on the object's side. Each is
 * held by the Worker invocation that answered the client (src/platform/held-stream.ts, with the
 * heartbeats) and reaches this object as a hibernatable WebSocket (kit/held-sockets.ts), so an
 * object whose streams are idle sleeps. What survives a sleep is on the socket: its kind tag and an
 * attachment with the request's id and the subscription's arguments. Owns the order on a stream:
 * `notifications/events/active` first, then the replay, then each matching emit.
 */
import type { RequestId } from "../../src/jsonrpc/messages";
import { HeldSockets } from "../kit/held-sockets";
import {
  argumentsMatch,
  cursorOf,
  occurrenceOf,
  streamFrame,
  type EventArguments,
  type ReadResult,
  type StoredEvent,
  type StreamOpen,
} from "./contract";

interface Attached {
  id: RequestId;
  arguments: EventArguments;
}

export class EventStreams {
  private readonly held: HeldSockets<Attached>;

  constructor(ctx: DurableObjectState) {
    this.held = new HeldSockets(ctx, "events");
  }

  /** Opens a stream: its `active` notification, then what `replay` found, are its first frames. */
  open(request: StreamOpen, replay: ReadResult, stream: number): Response {
    const { socket, response } = this.held.open(stream, { id: request.id, arguments: request.arguments });
    const start = replay.events.length > 0 ? (request.after ?? replay.position) : replay.position;
    socket.send(streamFrame("notifications/events/active", { cursor: cursorOf(start), truncated: replay.truncated }, request.id));
    for (const event of replay.events)
      socket.send(streamFrame("notifications/events/event", occurrenceOf(request.name, event), request.id));
    return response;
  }

  /** Sends an appended event to every open stream whose arguments it matches; returns how many. */
  deliver(name: string, event: StoredEvent): number {
    let sent = 0;
    const frames = new Map<RequestId, string>();
    for (const socket of this.held.sockets()) {
      const attached = this.held.attachment(socket);
      if (!argumentsMatch(attached.arguments, event.arguments)) continue;
      let frame = frames.get(attached.id);
      if (frame === undefined) {
        frame = streamFrame("notifications/events/event", occurrenceOf(name, event), attached.id);
        frames.set(attached.id, frame);
      }
      try {
        socket.send(frame);
        sent++;
      } catch {
        this.held.ended(socket);
      }
    }
    return sent;
  }

  /** How many streams are open. */
  count(): number {
    return this.held.count();
  }

  received(socket: WebSocket, message: string | ArrayBuffer): void {
    this.held.received(socket, message);
  }

  ended(socket: WebSocket): void {
    this.held.ended(socket);
  }
}
