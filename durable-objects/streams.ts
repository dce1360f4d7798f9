/**
 * The SSE connections currently attached to the session: one writer per stream number,
 * keep-alive comments on each, and close. Owns connections only — what was sent is the event
 * log's business, so a stream with no connection simply has nothing written here.
 */
import { encodeSseEvent, KEEPALIVE_FRAME, SSE_HEADERS } from "../src/sse/encode";

interface Connection {
  writer: WritableStreamDefaultWriter<Uint8Array>;
  keepAlive: ReturnType<typeof setInterval>;
  closed: boolean;
}

export class LiveStreams {
  private readonly connections = new Map<number, Connection>();

  constructor(private readonly keepAliveMs: number) {}

  /** Opens a connection for a stream (replacing an older one) and returns the SSE response. */
  attach(stream: number, headers: Record<string, string> = {}): Response {
    this.close(stream);
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const writer = writable.getWriter();
    const connection: Connection = {
      writer,
      closed: false,
      keepAlive: setInterval(() => this.send(stream, KEEPALIVE_FRAME), this.keepAliveMs),
    };
    this.connections.set(stream, connection);
    // A client that goes away rejects the writer; the stream's events stay in the log.
    writer.closed.catch(() => this.drop(stream, connection));
    return new Response(readable, { status: 200, headers: { ...SSE_HEADERS, ...headers } });
  }

  isAttached(stream: number): boolean {
    return this.connections.has(stream);
  }

  /** Writes a frame if the stream has a connection; never waits for the client to read it. */
  send(stream: number, frame: Uint8Array): void {
    const connection = this.connections.get(stream);
    if (!connection || connection.closed) return;
    connection.writer.write(frame).catch(() => this.drop(stream, connection));
  }

  sendEvent(stream: number, id: string, data: string): void {
    if (this.connections.has(stream)) this.send(stream, encodeSseEvent(data, id));
  }

  /** Ends the stream's connection (the stream itself may go on in the log). */
  close(stream: number): void {
    const connection = this.connections.get(stream);
    if (!connection) return;
    this.drop(stream, connection);
    connection.writer.close().catch(() => undefined);
  }

  closeAll(): void {
    for (const stream of [...this.connections.keys()]) this.close(stream);
  }

  count(): number {
    return this.connections.size;
  }

  private drop(stream: number, connection: Connection): void {
    if (connection.closed) return;
    connection.closed = true;
    clearInterval(connection.keepAlive);
    if (this.connections.get(stream) === connection) this.connections.delete(stream);
  }
}
