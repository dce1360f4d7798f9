/**
 * The Worker's end of a held stream (durable-objects/shared/held-sockets.ts is the object's):
 * a long-lived SSE stream (the 2025 standalone GET, the 2024-11-05 `/sse` stream, a 2026-07-28
 * listen stream) is held by the Worker invocation that answered the client, with its keep-alives,
 * its byte bound and disconnect detection, while the object it belongs to is connected to this
 * invocation by a WebSocket it accepted with the Hibernation API, and sleeps between events.
 * Frames from the object go to the client as they are; a client that leaves has the socket closed
 * within one keep-alive interval (the first keep-alive that cannot be written); a socket that ends
 * (the object ended the stream, or it broke: a deploy, a restart) ends the client's stream after
 * what arrived, with `last` when given (listen: the `complete` result), so the client resumes
 * with Last-Event-ID or listens again. The Worker is billed for CPU only: its timers cost nothing
 * while idle.
 */
import { LiveStreams } from "./live-streams";

/** The object asks whether the client of a held stream is still there (durable-objects/shared/held-sockets.ts). */
export const HELD_PROBE = "?";
/** The Worker's answer: its client took a keep-alive. */
export const HELD_PRESENT = "!";

const encoder = new TextEncoder();
/** The one connection of a held stream in its LiveStreams. */
const STREAM = 1;
/** How long a probe waits for the client to take a keep-alive before counting it as there. */
const PROBE_TIMEOUT_MS = 250;
/** How long a burst waits, at most, for a client past half its buffer to take a write. */
const DRAIN_WAIT_MS = 50;
/** A stream ended for falling behind is aborted if its client takes nothing for this long more. */
const TRUNCATE_GRACE_MS = 10_000;

export interface HoldOptions {
  /** The most a stream goes without a byte: a keep-alive comment is written by then. */
  keepAliveMs: number;
  /** Unsent bytes the client may leave waiting; past it the stream ends (with `last`). Absent: no bound. */
  maxBufferedBytes?: number;
  /** The frame that ends the stream whenever it ends from this side or the object's (listen: its `complete` result). */
  last?: Uint8Array;
  /** Give the client's response only once the object's first frame arrived (nothing may precede it). */
  awaitFirst?: boolean;
  /** A message sent to the object once the socket is accepted (listen: its filter). */
  first?: string;
  /** Response headers added to the SSE ones. */
  headers?: Record<string, string>;
}

/** The internal request that asks an object to hold a stream: the upgrade header added to `init`'s. */
export function upgradeInit(init: RequestInit & { headers?: Record<string, string> }): RequestInit {
  return { ...init, headers: { ...init.headers, Upgrade: "websocket" } };
}

/**
 * Turns the object's answer to an upgrade into the client's SSE response: a 101 with a socket
 * becomes a held stream; anything else (a refusal, a 404) is the client's answer as it is. With
 * `awaitFirst` the response is given once the object's first frame arrived (listen: its
 * acknowledgement), so nothing, not even a keep-alive, precedes it.
 */
export async function holdStream(answer: Response, options: HoldOptions): Promise<Response> {
  const socket = answer.webSocket;
  if (answer.status !== 101 || !socket) return answer;
  socket.accept();
  if (options.first !== undefined) socket.send(options.first);
  const held = new HeldStream(socket, options);
  if (options.awaitFirst) await held.firstFrame;
  return held.response();
}

/** One held stream: the client's connection (a LiveStreams of one) and the object's socket. */
class HeldStream {
  private readonly live: LiveStreams;
  private ended = false;
  private attached: Response | undefined;
  /**
   * Frames from the object not yet handed to the client's connection: those that arrived before
   * it was attached, and those of a burst while the client holds more than half its bound (the
   * same pacing the hub used to apply: a client that reads keeps up with a burst larger than its
   * buffer; one that takes nothing for DRAIN_WAIT_MS has the next frame pass its bound, and ends).
   */
  private readonly pending: Uint8Array[] = [];
  private pumping = false;
  /** The socket ended: the client's stream ends once `pending` is written. */
  private socketEnded = false;
  readonly firstFrame: Promise<void>;
  private arrived!: () => void;

  constructor(
    private readonly socket: WebSocket,
    private readonly options: HoldOptions,
  ) {
    this.firstFrame = new Promise((resolve) => {
      this.arrived = resolve;
    });
    const held = this;
    this.live = new LiveStreams(options.keepAliveMs, {
      maxBufferedBytes: options.maxBufferedBytes,
      // A client that stopped reading: what waits is dropped, `last` follows, and the object lets the stream go.
      onOverflow() {
        held.ended = true;
        held.pending.length = 0;
        if (options.last) held.live.truncate(STREAM, options.last, TRUNCATE_GRACE_MS);
        else held.live.close(STREAM);
        held.closeSocket("the client fell behind");
      },
      // The client left (a write failed), or the stream ended here: the object frees the slot.
      onDrop() {
        held.closeSocket("the client left");
      },
    });
    socket.addEventListener("message", (event) => this.onMessage(event.data));
    socket.addEventListener("close", () => this.end());
    socket.addEventListener("error", () => this.end());
  }

  /** The client's SSE response (attached now, with what arrived before). */
  response(): Response {
    if (this.attached) return this.attached;
    this.attached = this.live.attach(STREAM, this.options.headers);
    void this.pump();
    return this.attached;
  }

  private onMessage(data: unknown): void {
    if (this.ended || typeof data !== "string") return;
    if (data === HELD_PROBE) {
      void this.live
        .probe(STREAM, PROBE_TIMEOUT_MS)
        .then((present) => (present ? this.answerProbe() : this.closeSocket("the client left")));
      return;
    }
    // The object sends text frames (a binary message would arrive as a Blob, read only asynchronously).
    this.pending.push(encoder.encode(data));
    this.arrived();
    void this.pump();
  }

  /** The socket ended (the object ended the stream, or it broke): the client's stream ends after what arrived. */
  private end(): void {
    if (this.socketEnded || this.ended) return;
    this.socketEnded = true;
    this.arrived();
    void this.pump();
  }

  /** Hands pending frames to the client's connection in order, pacing a burst by what the client takes. */
  private async pump(): Promise<void> {
    if (this.pumping || !this.attached) return;
    this.pumping = true;
    try {
      while (this.pending.length > 0 && !this.ended) {
        if (this.live.pressure() > 0) await this.live.nextWrite(DRAIN_WAIT_MS);
        if (this.ended) break;
        this.live.send(STREAM, this.pending.shift() as Uint8Array);
      }
    } finally {
      this.pumping = false;
    }
    if (!this.socketEnded || this.ended) return;
    this.ended = true;
    if (this.options.last) this.live.send(STREAM, this.options.last);
    this.live.close(STREAM);
  }

  private closeSocket(reason: string): void {
    try {
      this.socket.close(1000, reason);
    } catch {
      // Already closed by the object.
    }
  }

  private answerProbe(): void {
    try {
      this.socket.send(HELD_PRESENT);
    } catch {
      // The socket ended meanwhile: its close event ends the stream.
    }
  }
}
