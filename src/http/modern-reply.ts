/**
 * The answer to one 2026-07-28 request (transports/streamable-http.mdx "Receiving Messages"):
 * JSON when the handler emits nothing before its result; an SSE stream scoped to the request
 * from its first notification on (progress, log), ending with the response. Closing that
 * stream is the client's cancellation ("Cancellation"): `onCancel` runs, nothing more is sent.
 */
import type { WireMessage } from "../jsonrpc/messages";
import { encodeSseEvent, SSE_HEADERS } from "../sse/encode";

export class ModernReply {
  /** Resolves when the first notification turned this reply into a stream. */
  readonly opened: Promise<void>;
  private markOpened!: () => void;
  private readable: ReadableStream | undefined;
  private writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
  private open = true;
  private readonly cancelHandlers: (() => void)[] = [];

  constructor() {
    this.opened = new Promise<void>((resolve) => {
      this.markOpened = resolve;
    });
  }

  onCancel(handler: () => void): void {
    this.cancelHandlers.push(handler);
  }

  /** Sends a notification related to the request, opening the stream on the first one. */
  notify(message: WireMessage): Promise<void> {
    if (!this.open) return Promise.resolve();
    if (!this.writer) {
      // A native byte pipe, as for the other SSE answers; a cancelled reader errors the writable side.
      const { readable, writable } = new IdentityTransformStream();
      this.readable = readable;
      this.writer = writable.getWriter() as WritableStreamDefaultWriter<Uint8Array>;
      this.writer.closed.catch(() => this.cancelled());
      this.markOpened();
    }
    return this.writer.write(encodeSseEvent(JSON.stringify(message))).catch(() => this.cancelled());
  }

  /** The SSE response; only after `opened`. */
  response(headers: Record<string, string> = {}): Response {
    // 2026-07-28 streamable-http.mdx: X-Accel-Buffering: no keeps proxies from holding events back.
    return new Response(this.readable ?? null, { status: 200, headers: { ...SSE_HEADERS, "X-Accel-Buffering": "no", ...headers } });
  }

  /** Writes the final response and ends the stream (unless the client already closed it). */
  async finish(message: WireMessage): Promise<void> {
    if (!this.open || !this.writer) return;
    await this.writer.write(encodeSseEvent(JSON.stringify(message))).catch(() => this.cancelled());
    this.open = false;
    await this.writer.close().catch(() => undefined);
  }

  private cancelled(): void {
    if (!this.open) return;
    this.open = false;
    for (const handler of this.cancelHandlers.splice(0)) handler();
  }
}
