/**
 * The Worker's one streaming reply, for both eras: an SSE stream scoped to a POST's requests that
 * carries their notifications and ends with their responses. On 2026-07-28 it opens lazily, at the
 * handler's first notification (before that the answer is plain JSON; transports/streamable-http.mdx
 * "Receiving Messages"); a 2025 stateless exchange opens it at once. One cancel rule: a client that
 * closes the stream ends the work (`onCancel` runs, nothing more is sent) — on 2026-07-28 that is the
 * spec's cancellation, and a stateless 2025 stream cannot be resumed, so nobody could read the rest.
 * Keep-alive comments keep intermediaries from cutting a quiet stream.
 */
import type { WireMessage } from "../jsonrpc/messages";
import { encodeSseEvent, KEEPALIVE_FRAME, sseResponse } from "../wire/sse";

/**
 * The underlying source of a reply's stream: a class rather than an object literal of arrows, so a
 * request builds no named function (docs/engine-notes.md "Methods, not arrow properties").
 */
class ReplySource implements UnderlyingSource<Uint8Array> {
  constructor(private readonly reply: WorkerReply) {}

  start(controller: ReadableStreamDefaultController<Uint8Array>): void {
    this.reply.attach(controller);
  }

  cancel(): void {
    this.reply.cancelled();
  }
}

export class WorkerReply {
  /** Resolves when the first notification turned this reply into a stream. */
  readonly opened: Promise<void>;
  private markOpened!: () => void;
  private readable: ReadableStream<Uint8Array> | undefined;
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private open = true;
  private readonly cancelHandlers: (() => void)[] = [];
  private keepAlive: ReturnType<typeof setInterval> | undefined;

  /** `keepAliveMs`: SSE comments on a quiet open stream, so intermediaries do not cut it (streamable-http.mdx). */
  constructor(private readonly keepAliveMs: number) {
    this.opened = new Promise<void>((resolve) => {
      this.markOpened = resolve;
    });
  }

  onCancel(handler: () => void): void {
    this.cancelHandlers.push(handler);
  }

  /** Sends a message related to the request (a notification, or one response of a batch), opening the stream on the first one. */
  notify(message: WireMessage): Promise<void> {
    if (!this.open) return Promise.resolve();
    this.start();
    this.enqueue(encodeSseEvent(JSON.stringify(message)));
    return Promise.resolve();
  }

  /** Opens the stream now (a 2025 exchange the answer plan streams), if not yet open. */
  start(): void {
    if (!this.controller) {
      // A source stream rather than a native pipe: its `cancel` is how a closed connection is seen
      // even while nothing is being written (a pipe's writer only fails on the next write).
      this.readable = new ReadableStream<Uint8Array>(new ReplySource(this));
      this.keepAlive = setInterval(() => this.enqueue(KEEPALIVE_FRAME), this.keepAliveMs);
      this.markOpened();
    }
  }

  /** The stream's controller, handed over when the stream starts (ReplySource). */
  attach(controller: ReadableStreamDefaultController<Uint8Array>): void {
    this.controller = controller;
  }

  private enqueue(bytes: Uint8Array): void {
    try {
      this.controller?.enqueue(bytes);
    } catch {
      this.cancelled();
    }
  }

  /** The SSE response; only after `opened`. */
  response(headers: Record<string, string> = {}): Response {
    // 2026-07-28 streamable-http.mdx: X-Accel-Buffering: no keeps proxies from holding events back.
    return sseResponse(this.readable ?? null, { "X-Accel-Buffering": "no", ...headers });
  }

  /** Writes the final response (if any) and ends the stream (unless the client already closed it). */
  finish(message?: WireMessage): void {
    if (!this.open || !this.controller) return;
    if (message) this.enqueue(encodeSseEvent(JSON.stringify(message)));
    this.open = false;
    if (this.keepAlive !== undefined) clearInterval(this.keepAlive);
    try {
      this.controller.close();
    } catch {
      // already closed by the client
    }
  }

  /** The client closed the stream (or it failed): the work ends, nothing more is sent. */
  cancelled(): void {
    if (!this.open) return;
    this.open = false;
    if (this.keepAlive !== undefined) clearInterval(this.keepAlive);
    for (const handler of this.cancelHandlers.splice(0)) handler();
  }
}
