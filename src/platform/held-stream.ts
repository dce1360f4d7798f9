/**
 * The Worker's end of a held stream (durable-objects/kit/held-sockets.ts is the object's):
 * a long-lived SSE stream (the 2025 standalone GET, the 2024-11-05 `/sse` stream, a 2026-07-28
 * listen stream) is held by the Worker invocation that answered the client, with its keep-alives,
 * its byte bound, its CPU budget, its end at the token's expiry and disconnect detection, while the object it belongs to is connected to this
 * invocation by a WebSocket it accepted with the Hibernation API, and sleeps between events.
 * Frames from the object go to the client as they are; a client that leaves has the socket closed
 * within one keep-alive interval (the first keep-alive that cannot be written); a socket that ends
 * (the object ended the stream, or it broke: a deploy, a restart) ends the client's stream after
 * what arrived, with `last` when given (listen: the `complete` result), so the client resumes
 * with Last-Event-ID or listens again. The Worker is billed for CPU only: its timers cost nothing
 * while idle.
 */
import { LiveStreams } from "./live-streams";

/** The object asks whether the client of a held stream is still there (durable-objects/kit/held-sockets.ts). */
export const HELD_PROBE = "?";
/** The Worker's answer: its client took a keep-alive. */
export const HELD_PRESENT = "!";
/**
 * The object tells the Worker that the stream's grant was revoked (src/revoke.ts `endStreamsOf`):
 * nothing more is written and the stream ends at once with `revoked`.
 */
export const HELD_REVOKED = "~revoked";

const encoder = new TextEncoder();
/** The one connection of a held stream in its LiveStreams. */
const STREAM = 1;
/** How long a probe waits for the client to take a keep-alive before counting it as there. */
const PROBE_TIMEOUT_MS = 250;
/** How long a burst waits, at most, for a client past half its buffer to take a write. */
const DRAIN_WAIT_MS = 50;
/** A stream ended for falling behind is aborted if its client takes nothing for this long more. */
const TRUNCATE_GRACE_MS = 10_000;
/** How long `awaitFirst` waits for the object's first frame (a listen stream's acknowledgement). */
const FIRST_FRAME_WAIT_MS = 10_000;

export interface HoldOptions {
  /** The most a stream goes without a byte: a keep-alive comment is written by then. */
  keepAliveMs: number;
  /** Unsent bytes the client may leave waiting; past it the stream ends (with `resume`). Absent: no bound. */
  maxBufferedBytes?: number;
  /** The frame that ends the stream whenever it ends from this side or the object's (listen: its `complete` result). */
  last?: Uint8Array;
  /**
   * The frame that ends a stream this side ends while its client should come straight back: it fell
   * behind, or the CPU budget is spent (2025 GET: a `retry:` field, then Last-Event-ID; listen: `last`).
   * Absent: `last`.
   */
  resume?: Uint8Array;
  /**
   * The estimated CPU this invocation may spend relaying the stream; past it the stream ends with
   * `resume` after what arrived (docs/reliability.md "Held streams and the CPU limit"). Absent: no budget.
   */
  cpuBudgetMs?: number;
  /**
   * When the stream's authorization ends (ms since the epoch, the token's expiry): nothing is written
   * after it, and the stream ends then with `expired` (or with nothing more when absent).
   */
  authorizedUntil?: number;
  /** The frame that ends a stream whose authorization ended (listen: `AuthorizationEnded`). */
  expired?: Uint8Array;
  /** The frame that ends a stream whose grant was revoked (HELD_REVOKED from the object); absent: `last`. */
  revoked?: Uint8Array;
  /**
   * Give the client's response only once the object's first frame arrived (nothing may precede it).
   * `refusal` answers instead when none arrives within `withinMs` (default 10 s: the object is stuck or failed).
   */
  awaitFirst?: { refusal: () => Response; withinMs?: number };
  /** A message sent to the object once the socket is accepted (listen: its filter). */
  first?: string;
  /** Response headers added to the SSE ones. */
  headers?: Record<string, string>;
  /** Written instead of the keep-alive comment when the stream is quiet (an events stream's heartbeat, a `data:` frame). */
  keepAliveFrame?: () => Uint8Array;
  /** Told of each frame the object sends, as text, before it is relayed (an events stream follows its cursor). */
  onFrame?: (frame: string) => void;
}

/** The internal request that asks an object to hold a stream: the upgrade header added to `init`'s. */
export function upgradeInit(init: RequestInit & { headers?: Record<string, string> }): RequestInit {
  return { ...init, headers: { ...init.headers, Upgrade: "websocket" } };
}

/**
 * Turns the object's answer to an upgrade into the client's SSE response: a 101 with a socket
 * becomes a held stream; anything else (a refusal, a 404) is the client's answer as it is. With
 * `awaitFirst` the response is given once the object's first frame arrived (listen: its
 * acknowledgement), so nothing, not even a keep-alive, precedes it; an object that sends nothing
 * in time has its socket closed and the client gets `awaitFirst.refusal()`.
 */
export async function holdStream(answer: Response, options: HoldOptions): Promise<Response> {
  const socket = answer.webSocket;
  if (answer.status !== 101 || !socket) return answer;
  socket.accept();
  if (options.first !== undefined) socket.send(options.first);
  const held = new HeldStream(socket, options);
  if (options.awaitFirst && !(await held.firstFrameWithin(options.awaitFirst.withinMs ?? FIRST_FRAME_WAIT_MS))) {
    held.abandon();
    return options.awaitFirst.refusal();
  }
  return held.response();
}

/**
 * The CPU a held stream costs its invocation, estimated from what it relays: a Worker cannot read
 * its own CPU time (Date.now() stands still while it computes). bench/scenarios/held-cpu.mjs measured
 * 36 µs per relayed event, 13 to 36 µs more per KiB and 130 to 170 µs per keep-alive on a loaded
 * 2-core VM (docs/reliability.md "Held streams and the CPU limit"); these are rounded up from there.
 */
const CPU_MS_PER_FRAME = 0.05;
const CPU_MS_PER_KIB = 0.04;
const CPU_MS_PER_KEEPALIVE = 0.2;
/** setTimeout's longest delay; a later expiry is checked again when this one fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

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
  /** The frame written once `pending` is, when the socket ended (`last`, or `resume` when the budget ended it). */
  private closing: Uint8Array | undefined;
  private readonly firstFrame: Promise<void>;
  private arrived!: () => void;
  /** What this invocation relayed: the estimate of its CPU (CPU_MS_PER_FRAME and the rest). */
  private readonly opened = Date.now();
  private frames = 0;
  private bytes = 0;
  private expiry: ReturnType<typeof setTimeout> | undefined;
  /** The frame a stream cut from this side ends with (written once the client's response exists). */
  private cutFrame: Uint8Array | undefined;

  constructor(
    private readonly socket: WebSocket,
    private readonly options: HoldOptions,
  ) {
    this.closing = options.last;
    this.firstFrame = new Promise((resolve) => {
      this.arrived = resolve;
    });
    const held = this;
    this.live = new LiveStreams(options.keepAliveMs, {
      maxBufferedBytes: options.maxBufferedBytes,
      // A client that stopped reading: what waits is dropped, `resume` follows, and the object lets the stream go.
      onOverflow() {
        held.cut(options.resume ?? options.last, "the client fell behind");
      },
      // The client left (a write failed), or the stream ended here: the object frees the slot.
      onDrop() {
        held.stopTimer();
        held.closeSocket("the client left");
      },
      keepAliveFrame: options.keepAliveFrame,
    });
    socket.addEventListener("message", (event) => this.onMessage(event.data));
    socket.addEventListener("close", () => this.end());
    socket.addEventListener("error", () => this.end());
    if (options.authorizedUntil !== undefined) this.armExpiry(options.authorizedUntil);
  }

  /** The client's SSE response (attached now, with what arrived before). */
  response(): Response {
    if (this.attached) return this.attached;
    this.attached = this.live.attach(STREAM, this.options.headers);
    // Cut before the client had its response (its authorization ended while the object was answering).
    if (this.ended) this.live.truncate(STREAM, this.cutFrame, TRUNCATE_GRACE_MS);
    else void this.pump();
    return this.attached;
  }

  /** Whether the object's first frame (or the socket's end) came within `ms`. */
  async firstFrameWithin(ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    const came = await Promise.race([this.firstFrame.then(() => true), late]);
    if (timer !== undefined) clearTimeout(timer);
    return came;
  }

  /** The stream is given up before any client saw it: the object frees its slot. */
  abandon(): void {
    this.ended = true;
    this.stopTimer();
    this.closeSocket("no first frame");
  }

  private onMessage(data: unknown): void {
    if (this.ended || typeof data !== "string") return;
    if (this.expired()) return;
    if (data === HELD_REVOKED) {
      this.cut(this.options.revoked ?? this.options.last, "the stream's grant was revoked");
      return;
    }
    if (data === HELD_PROBE) {
      void this.live
        .probe(STREAM, PROBE_TIMEOUT_MS)
        .then((present) => (present ? this.answerProbe() : this.closeSocket("the client left")));
      return;
    }
    this.options.onFrame?.(data);
    // The object sends text frames (a binary message would arrive as a Blob, read only asynchronously).
    const frame = encoder.encode(data);
    this.pending.push(frame);
    this.frames++;
    this.bytes += frame.byteLength;
    this.arrived();
    if (this.overBudget()) this.endSpent();
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
        if (this.ended || this.expired()) break;
        this.live.send(STREAM, this.pending.shift() as Uint8Array);
      }
    } finally {
      this.pumping = false;
    }
    if (!this.socketEnded || this.ended) return;
    this.ended = true;
    this.stopTimer();
    if (this.closing) this.live.send(STREAM, this.closing);
    this.live.close(STREAM);
  }

  /** Whether the estimated CPU of what this invocation relayed passed its budget. */
  private overBudget(): boolean {
    const budget = this.options.cpuBudgetMs;
    if (budget === undefined) return false;
    const keepAlives = (Date.now() - this.opened) / Math.max(1, this.options.keepAliveMs / 2);
    const estimate = this.frames * CPU_MS_PER_FRAME + (this.bytes / 1024) * CPU_MS_PER_KIB + keepAlives * CPU_MS_PER_KEEPALIVE;
    return estimate >= budget;
  }

  /**
   * The budget is spent: the object is told to let the stream go (its socket closed), what arrived
   * is written, then `resume`: the client comes back on a fresh invocation (2025: Last-Event-ID).
   */
  private endSpent(): void {
    this.closing = this.options.resume ?? this.options.last;
    this.closeSocket("the stream's CPU budget is spent");
    this.end();
  }

  /** Ends the stream from this side at once: what waits is dropped, `frame` follows the write in flight. */
  private cut(frame: Uint8Array | undefined, reason: string): void {
    this.ended = true;
    this.stopTimer();
    this.pending.length = 0;
    this.cutFrame = frame;
    this.closeSocket(reason);
    if (this.attached) this.live.truncate(STREAM, frame, TRUNCATE_GRACE_MS);
    // A stream cut before its first frame (its token expired meanwhile) is answered now, with `frame`.
    this.arrived();
  }

  /** Past the authorization's end: the stream is cut with `expired` (true), else false. */
  private expired(): boolean {
    const until = this.options.authorizedUntil;
    if (until === undefined || Date.now() < until) return false;
    if (!this.ended) this.cut(this.options.expired, "the stream's authorization ended");
    return true;
  }

  /** A timer at the authorization's end (the invocation's, costing nothing while it waits). */
  private armExpiry(until: number): void {
    const wait = Math.min(Math.max(0, until - Date.now()), MAX_TIMER_MS);
    this.expiry = setTimeout(() => {
      this.expiry = undefined;
      if (!this.expired() && !this.ended) this.armExpiry(until);
    }, wait);
  }

  private stopTimer(): void {
    if (this.expiry !== undefined) clearTimeout(this.expiry);
    this.expiry = undefined;
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
