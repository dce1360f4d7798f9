/**
 * The SSE connections currently attached to the session: one writer per stream number,
 * keep-alive comments on each, and close. Owns connections only — what was sent is the event
 * log's business, so a stream with no connection simply has nothing written here.
 * Frames are written in order, a burst coalesced into a few large writes; keep-alives come from
 * one timer for all connections (docs/engine-notes.md "Coalesced writes and one keep-alive timer"):
 * every half `keepAliveMs` it writes a comment to each connection that wrote nothing since the
 * last tick, so no connection goes `keepAliveMs` without a byte.
 * With `maxBufferedBytes`, a connection whose client stopped taking frames holds at most that
 * many bytes: the frame that would pass it goes to `onOverflow` instead (the hub ends the stream);
 * with `maxTotalBufferedBytes`, when all connections together would pass it, the one holding
 * the most goes to `onOverflow` first, so many slow readers cannot add up to an object's memory.
 */
import { encodeSseEvent, KEEPALIVE_FRAME, sseResponse } from "../wire/sse";

/** The most one coalesced write holds; a burst larger than this leaves in several writes. */
const MAX_WRITE_BYTES = 256 * 1024;

interface Connection {
  writer: WritableStreamDefaultWriter<Uint8Array>;
  /** Something was sent since the last keep-alive tick. */
  sent: boolean;
  closed: boolean;
  /** Frames waiting for the write in flight to finish, oldest first. */
  queued: Uint8Array[];
  writing: boolean;
  /** close() was called: end the connection once the queued frames are written. */
  ending: boolean;
  /** probe() callers waiting for the queue to be written (true) or the connection to fail (false). */
  flushed: ((alive: boolean) => void)[];
  /** Bytes queued or in the write in flight: what this connection holds in memory. */
  bytes: number;
}

/** What a LiveStreams owner may bound and hear about (the hub's listen streams use both). */
export interface LiveStreamsOptions {
  /** The most bytes one connection may hold unsent; the frame that would pass it goes to onOverflow. */
  maxBufferedBytes?: number;
  /** The most bytes all connections together may hold unsent; past it the largest holder goes to onOverflow. */
  maxTotalBufferedBytes?: number;
  /** A frame did not fit the connection's buffer: it was not queued. */
  onOverflow?: (stream: number) => void;
  /** The connection went away (client gone, or closed here). */
  onDrop?: (stream: number) => void;
  /**
   * The frame a quiet connection is given each tick instead of the keep-alive comment (an events
   * stream's `notifications/events/heartbeat`, which carries its cursor and must be a `data:` frame).
   */
  keepAliveFrame?: (stream: number) => Uint8Array;
}

/** Takes frames off the front of `queued` up to MAX_WRITE_BYTES (at least one) as one chunk. */
function takeChunk(queued: Uint8Array[]): Uint8Array {
  let count = 0;
  let bytes = 0;
  while (count < queued.length && (count === 0 || bytes + queued[count]!.byteLength <= MAX_WRITE_BYTES)) {
    bytes += queued[count]!.byteLength;
    count++;
  }
  const frames = queued.splice(0, count);
  if (frames.length === 1) return frames[0]!;
  const chunk = new Uint8Array(bytes);
  let offset = 0;
  for (const frame of frames) {
    chunk.set(frame, offset);
    offset += frame.byteLength;
  }
  return chunk;
}

export class LiveStreams {
  private readonly connections = new Map<number, Connection>();
  private ticker: ReturnType<typeof setInterval> | undefined;
  /** Bytes all connections hold unsent (queued or in a write in flight). */
  private buffered = 0;
  /** Connections holding more than half of `maxBufferedBytes`. */
  private readonly pressed = new Set<Connection>();
  /** nextWrite() callers, woken when any write is taken. */
  private readonly writeWaiters: (() => void)[] = [];

  constructor(
    private readonly keepAliveMs: number,
    private readonly options: LiveStreamsOptions = {},
  ) {}

  /** Opens a connection for a stream (replacing an older one) and returns the SSE response. */
  attach(stream: number, headers: Record<string, string> = {}): Response {
    this.close(stream);
    // A native byte pipe: frames go to the HTTP response without a JavaScript transform step.
    const { readable, writable } = new IdentityTransformStream();
    const writer = writable.getWriter() as WritableStreamDefaultWriter<Uint8Array>;
    const connection: Connection = {
      writer,
      closed: false,
      queued: [],
      writing: false,
      ending: false,
      sent: false,
      flushed: [],
      bytes: 0,
    };
    this.connections.set(stream, connection);
    this.ticker ??= setInterval(() => this.keepAlive(), Math.max(1, Math.floor(this.keepAliveMs / 2)));
    // A client that goes away rejects the writer; the stream's events stay in the log.
    writer.closed.catch(() => this.drop(stream, connection));
    return sseResponse(readable, headers);
  }

  isAttached(stream: number): boolean {
    return this.connections.has(stream);
  }

  /**
   * Whether the stream's client is still there: writes a keep-alive comment and waits until it
   * was taken (true) or the write failed (false). A client that went away is otherwise noticed
   * only at the next keep-alive; the 2024-11-05 transport asks before it accepts a POST whose
   * answers would travel on this stream.
   */
  probe(stream: number, timeoutMs?: number): Promise<boolean> {
    const connection = this.connections.get(stream);
    if (!connection || connection.closed || connection.ending) return Promise.resolve(false);
    return new Promise((resolve) => {
      connection.flushed.push(resolve);
      // A client that is there but not reading never takes the comment: after timeoutMs it counts as there.
      if (timeoutMs !== undefined) setTimeout(() => resolve(!connection.closed), timeoutMs);
      this.send(stream, KEEPALIVE_FRAME);
    });
  }

  /** Writes a frame if the stream has a connection; never waits for the client to read it. */
  send(stream: number, frame: Uint8Array): void {
    const connection = this.connections.get(stream);
    if (!connection || connection.closed) return;
    const max = this.options.maxBufferedBytes;
    if (max !== undefined && connection.bytes + frame.byteLength > max && connection.bytes > 0) {
      this.options.onOverflow?.(stream);
      return;
    }
    const total = this.options.maxTotalBufferedBytes;
    if (total !== undefined && this.buffered + frame.byteLength > total) {
      this.evictLargest();
      if (connection.closed) return;
    }
    connection.sent = true;
    this.hold(connection, frame.byteLength);
    connection.queued.push(frame);
    if (!connection.writing) this.writeQueued(stream, connection);
  }

  sendEvent(stream: number, id: string, data: string): void {
    if (this.connections.has(stream)) this.send(stream, encodeSseEvent(data, id));
  }

  /** Ends the stream's connection after the frames already sent (the stream itself may go on in the log). */
  close(stream: number): void {
    const connection = this.connections.get(stream);
    if (!connection) return;
    this.drop(stream, connection);
    connection.ending = true;
    if (!connection.writing) this.writeQueued(stream, connection);
  }

  /**
   * Ends a connection whose client fell behind (or whose stream must end at once): the frames still
   * queued are dropped (their memory freed), `last` (if any) is written after the write in flight,
   * then the connection closes.
   * A client that takes nothing for `graceMs` more has the connection aborted.
   */
  truncate(stream: number, last: Uint8Array | undefined, graceMs: number): void {
    const connection = this.connections.get(stream);
    if (!connection) return;
    for (const frame of connection.queued) this.hold(connection, -frame.byteLength);
    connection.queued.length = 0;
    if (last) {
      connection.queued.push(last);
      this.hold(connection, last.byteLength);
    }
    this.close(stream);
    const timer = setTimeout(() => {
      connection.queued.length = 0;
      connection.writer.abort(new Error("the client fell behind")).catch(() => undefined);
    }, graceMs);
    connection.writer.closed.then(
      () => clearTimeout(timer),
      () => clearTimeout(timer),
    );
  }

  closeAll(): void {
    for (const stream of [...this.connections.keys()]) this.close(stream);
  }

  count(): number {
    return this.connections.size;
  }

  /**
   * Bytes held by the connections past half their bound (0 when none is): a writer of a burst
   * gives the clients a turn while this goes down, so a client that reads keeps up with it.
   */
  pressure(): number {
    let bytes = 0;
    for (const connection of this.pressed) bytes += connection.bytes;
    return bytes;
  }

  /** Resolves true when a client next takes a write, false if none does within `ms`. */
  nextWrite(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.writeWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** Counts bytes a connection takes on (positive) or lets go of (negative). */
  private hold(connection: Connection, bytes: number): void {
    connection.bytes += bytes;
    this.buffered += bytes;
    const max = this.options.maxBufferedBytes;
    if (max === undefined) return;
    if (connection.bytes > max / 2 && !connection.closed) this.pressed.add(connection);
    else this.pressed.delete(connection);
  }

  /** Over the total: the connection holding the most is ended (onOverflow), freeing its queue. */
  private evictLargest(): void {
    let largest: number | undefined;
    let most = 0;
    for (const [stream, connection] of this.connections) {
      if (connection.bytes > most) {
        most = connection.bytes;
        largest = stream;
      }
    }
    if (largest !== undefined) this.options.onOverflow?.(largest);
  }

  /** One tick: a comment on every connection that has been quiet since the previous tick. */
  private keepAlive(): void {
    // Stopped at the first quiet tick, not at every close (docs/engine-notes.md "Coalesced writes and one keep-alive timer").
    if (this.connections.size === 0) {
      if (this.ticker !== undefined) clearInterval(this.ticker);
      this.ticker = undefined;
      return;
    }
    for (const [stream, connection] of this.connections) {
      if (!connection.sent) this.send(stream, this.options.keepAliveFrame?.(stream) ?? KEEPALIVE_FRAME);
      connection.sent = false;
    }
  }

  /** Writes everything queued (one chunk at a time), then closes the writer if the connection is ending. */
  private writeQueued(stream: number, connection: Connection): void {
    if (connection.queued.length === 0) {
      connection.writing = false;
      for (const resolve of connection.flushed.splice(0)) resolve(!connection.closed || connection.ending);
      if (connection.ending) connection.writer.close().catch(() => undefined);
      return;
    }
    connection.writing = true;
    const chunk = takeChunk(connection.queued);
    connection.writer.write(chunk).then(
      () => {
        this.hold(connection, -chunk.byteLength);
        for (const wake of this.writeWaiters.splice(0)) wake();
        this.writeQueued(stream, connection);
      },
      () => {
        connection.queued.length = 0;
        this.hold(connection, -connection.bytes);
        this.drop(stream, connection);
      },
    );
  }

  private drop(stream: number, connection: Connection): void {
    if (connection.closed) return;
    connection.closed = true;
    this.pressed.delete(connection);
    if (!connection.ending) for (const resolve of connection.flushed.splice(0)) resolve(false);
    if (this.connections.get(stream) === connection) {
      this.connections.delete(stream);
      this.options.onDrop?.(stream);
    }
  }
}
