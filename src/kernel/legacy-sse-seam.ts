/**
 * The kernel's `legacy` seam: the 2024-11-05 HTTP+SSE transport (GET /sse, POST /messages), which the
 * `legacySse()` feature fills (and the deprecated `sessionObject(edge)` for an edge made before
 * features). The router mounts its paths (the resolved options' `legacySsePath`/`legacyMessagesPath`)
 * and hands each request there, after the Host/Origin check and auth, to its Worker half; a session
 * object hands it the internal URLs the Worker half forwards. Without it neither bundles any of the
 * transport. Types only.
 */
import type { Message, RequestMessage, ResponseMessage } from "../jsonrpc/messages";
import type { Principal } from "../mcp/definition/principal";
import type { RequestInfo } from "../mcp/definition/request-info";
import type { Exchange } from "../mcp/dispatch/exchange";
import type { Kernel } from "./feature";

/**
 * One request to the transport's paths in the Worker (a GET on the stream path, a POST on the messages
 * path), after the Host/Origin check and auth: the request's one value as the router made it
 * (src/http/edge-request.ts), of which the Worker half reads this much. Its checks (Accept, Content-Type,
 * the body's size, its scopes and the features' `admit` checks) are the transport's own.
 */
export interface LegacySseCall<Env> {
  readonly request: Request;
  readonly env: Env;
  /** With auth: who sent it. */
  readonly principal: Principal | undefined;
  /** Whom per-client caps and rate limits count it against. */
  readonly clientKey: string;
  /** `ctx.request` as the features' `admit` checks see it. */
  readonly info: RequestInfo;
  readonly runtime: {
    /** The edge's kernel: the resolved options (`maxBodyBytes`, how session streams are held), the auth gate, the features. */
    readonly kernel: Kernel<Env>;
    /** The session binding (a misconfiguration naming the wrangler.toml lines when it is missing). */
    sessionNamespace(env: Env): DurableObjectNamespace;
  };
}

/** What the transport keeps in its session's record (legacy_stream: its one stream; legacy_subject: who opened it). */
interface LegacyRecord {
  getMeta(key: "legacy_stream"): number | undefined;
  getMeta(key: "legacy_subject"): string | undefined;
  setMeta(key: "legacy_stream", value: number): void;
  setMeta(key: "legacy_subject", value: string): void;
}

/** The session's held sockets (durable-objects/kit/held-sockets.ts): the `/sse` stream is held by the Worker. */
interface LegacyHeldSockets {
  open(stream: number, attachment: object): { socket: WebSocket; response: Response };
  socketOf(stream: number): WebSocket | undefined;
  probe(socket: WebSocket): Promise<boolean>;
  isAttached(stream: number): boolean;
}

/** The session's state as the transport reads and writes it (durable-objects/sessions/core.ts). */
interface LegacySessionCore {
  /** Opens a stream in the session's event log, returning its number. */
  readonly log: { openStream(kind: "get"): number };
  readonly record: LegacyRecord;
  readonly held: LegacyHeldSockets;
  /** The negotiated state: null until the session is initialized. */
  readonly state: object | null;
  readonly terminated: boolean;
  touch(force?: boolean): void;
  emit(stream: number, message: Message | ResponseMessage): void;
}

/** The session's requests in flight (durable-objects/sessions/inflight.ts). */
interface LegacySessionRuns {
  receive(message: Message): void;
  /** The requests of an exchange that may start now; the others become -32003 errors (run-limits.ts). */
  admit(exchange: Exchange): Exchange;
  /** Runs a request on a stream (records it in flight first). */
  start(stream: number, request: RequestMessage, principal: Principal | undefined): void;
}

/** What the transport's session half needs from its session object (the object builds it: durable-objects/sessions/). */
export interface LegacyHost {
  readonly core: LegacySessionCore;
  readonly inflight: LegacySessionRuns;
  /** Runs the server's handlers of the client notifications among `messages` (defineNotification). */
  hear(messages: readonly Message[], principal: Principal | undefined): Promise<void>;
  /** Answers initialize, making the object a session owned by `subject`. */
  initialize(request: RequestMessage, subject: string | undefined): ResponseMessage;
}

/** The transport, both halves. */
export interface LegacySseSeam {
  /**
   * In the Worker: a GET on the stream path opens a session and its one stream, whose first event names
   * `messagesPath?sessionId=…`; a POST on the messages path carries one message (or batch) for the
   * session, answered 202, its responses going on the stream.
   */
  serve<Env>(call: LegacySseCall<Env>, messagesPath: string): Promise<Response>;
  /** In a session object: its answer to one of the internal URLs the Worker half forwards, or undefined for any other request. */
  answer(host: LegacyHost, request: Request, principal: Principal | undefined): Promise<Response> | undefined;
}
