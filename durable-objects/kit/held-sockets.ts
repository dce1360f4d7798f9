/**
 * The object side of a held stream (docs/operating.md "What sleeps"): the Worker invocation that
 * answered the client holds its long-lived SSE stream, and the object (a session, a hub shard)
 * is connected to that invocation by a WebSocket accepted with the Hibernation API, so an object
 * whose streams are all idle can sleep and the next event wakes it. Everything that must survive
 * a sleep lives on the socket: its tags (the kind, the stream, the client) and its attachment.
 * Nothing here is kept in memory: counts and lookups ask the runtime (`getWebSockets(tag)`).
 *
 * The wire between the two ends (src/platform/held-stream.ts is the other end): the object sends SSE
 * frames as text, as written to the client, one per message; it ends a stream gracefully by closing the
 * socket with HELD_END; the Worker closes the socket when its client leaves. At a cap the object
 * may probe a socket (HELD_PROBE): the Worker answers HELD_PRESENT when its client is still there
 * and closes the socket when it is not.
 */
import { HELD_PRESENT, HELD_PROBE, HELD_REVOKED } from "../../src/platform/held-stream";

/** Close code of a stream the object ended on purpose (any other end is a broken socket). */
const HELD_END = 1000;
/** How long a probe waits for the Worker's answer before the socket counts as there. */
const PROBE_WAIT_MS = 250;

/** What each held socket carries across a sleep: its stream number plus what its kind needs. */
export type Held<A> = A & { stream: number };

export class HeldSockets<A extends object> {
  /** Probes waiting for their socket's answer (only while the object is awake, by definition). */
  private readonly probes = new Map<WebSocket, (present: boolean) => void>();

  constructor(
    protected readonly ctx: DurableObjectState,
    /** The tag every socket of this registry carries ("get", "listen"): objects may hold several kinds. */
    protected readonly kind: string,
  ) {}

  /**
   * Accepts a new socket for `stream` and answers the Worker's upgrade with its other end.
   * Frames sent before the Worker accepted its end wait for it, in order.
   */
  open(stream: number, attachment: A, tags: string[] = []): { socket: WebSocket; response: Response } {
    const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
    this.ctx.acceptWebSocket(server, [this.kind, this.streamTag(stream), ...tags]);
    server.serializeAttachment({ ...attachment, stream });
    return { socket: server, response: new Response(null, { status: 101, webSocket: client }) };
  }

  /** This registry's open sockets, or those carrying `tag` too. */
  sockets(tag?: string): WebSocket[] {
    return this.ctx.getWebSockets(tag ?? this.kind).filter((ws) => ws.readyState === WebSocket.OPEN && this.owns(ws));
  }

  count(tag?: string): number {
    return this.sockets(tag).length;
  }

  socketOf(stream: number): WebSocket | undefined {
    return this.sockets(this.streamTag(stream))[0];
  }

  isAttached(stream: number): boolean {
    return this.socketOf(stream) !== undefined;
  }

  attachment(ws: WebSocket): Held<A> {
    return ws.deserializeAttachment() as Held<A>;
  }

  /** Whether a socket belongs to this registry (its first tag is the kind). */
  owns(ws: WebSocket): boolean {
    return this.ctx.getTags(ws)[0] === this.kind;
  }

  /** Writes a frame to the stream's socket, if it has one; false when it has none (or it just broke). */
  send(stream: number, frame: string): boolean {
    const ws = this.socketOf(stream);
    return ws ? sendOn(ws, frame) : false;
  }

  /** Ends a stream gracefully: the Worker writes what it has, then ends the client's stream. */
  close(stream: number, reason = "end"): void {
    const ws = this.socketOf(stream);
    if (ws) closeQuietly(ws, HELD_END, reason);
  }

  /**
   * The grant behind a stream was revoked: the Worker holding it ends it at once with its
   * authorization's ending frame (HELD_REVOKED). False when the socket already broke.
   */
  revoke(ws: WebSocket): boolean {
    return sendOn(ws, HELD_REVOKED);
  }

  /** Every stream of this registry revoked (a session's: they all belong to its one principal); how many were told. */
  revokeAll(): number {
    return this.sockets().filter((ws) => this.revoke(ws)).length;
  }

  closeAll(reason = "end"): number {
    const all = this.sockets();
    for (const ws of all) closeQuietly(ws, HELD_END, reason);
    return all.length;
  }

  /**
   * Whether the socket's client is still there: the Worker writes a keep-alive and answers, or
   * closes the socket when its client left. A Worker that does not answer in time counts as there.
   */
  probe(ws: WebSocket): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle(ws.readyState === WebSocket.OPEN), PROBE_WAIT_MS);
      const settle = (present: boolean) => {
        clearTimeout(timer);
        this.probes.delete(ws);
        resolve(present);
      };
      this.probes.set(ws, settle);
      if (!sendOn(ws, HELD_PROBE)) settle(false);
    });
  }

  /** The object's webSocketMessage: a probe's answer (nothing else comes from the Worker). */
  received(ws: WebSocket, message: string | ArrayBuffer): void {
    if (message === HELD_PRESENT) this.probes.get(ws)?.(true);
  }

  /** The object's webSocketClose / webSocketError: the socket is done; a probe waiting on it learns so. */
  ended(ws: WebSocket): void {
    this.probes.get(ws)?.(false);
    closeQuietly(ws, HELD_END, "closed");
  }

  private streamTag(stream: number): string {
    return `${this.kind}:${stream}`;
  }
}

function sendOn(ws: WebSocket, frame: string): boolean {
  try {
    ws.send(frame);
    return true;
  } catch {
    return false;
  }
}

function closeQuietly(ws: WebSocket, code: number, reason: string): void {
  try {
    ws.close(code, reason);
  } catch {
    // Already closing or closed.
  }
}

/** Whether a request is the Worker's upgrade to a held stream. */
export function isUpgrade(request: Request): boolean {
  return request.headers.get("Upgrade")?.toLowerCase() === "websocket";
}
