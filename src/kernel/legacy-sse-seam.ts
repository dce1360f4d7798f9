/**
 * The kernel's `legacy` seam: the 2024-11-05 HTTP+SSE transport (GET /sse, POST /messages), which the
 * `legacySse()` feature fills (and the deprecated `sessionObject(edge)` for an edge made before
 * features). The router mounts its paths (the resolved options' `legacySsePath`/`legacyMessagesPath`)
 * and hands each request to its Worker half; a session object hands it the internal URLs the Worker
 * half forwards. Without it neither bundles any of the transport. Types only.
 */
import type { Message, RequestMessage, ResponseMessage } from "../jsonrpc/messages";
import type { Principal } from "../mcp/definition/principal";
import type { Exchange } from "../mcp/dispatch/exchange";

/** One request to the transport's paths in the Worker, after the Host/Origin, auth and Accept/Content-Type checks. */
export interface LegacySseCall {
  readonly request: Request;
  /** With auth: who sent it. */
  readonly principal: Principal | undefined;
  /** The session binding (a misconfiguration naming the wrangler.toml lines when it is missing). */
  sessions(): DurableObjectNamespace;
  /** Holds a session object's answered upgrade as the client's `/sse` stream (byte bound, CPU budget, the token's expiry). */
  hold(answer: Response): Promise<Response>;
  /**
   * The POST's body, read within `maxBodyBytes` and admitted as any POST's (its operations' scopes with
   * auth, the features' `admit` checks), or the refusal to answer with.
   */
  body(): Promise<{ ok: true; text: string } | { ok: false; response: Response }>;
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
  /** GET on the stream path: a new session and its one stream, whose first event names `messagesPath?sessionId=…`. */
  open(call: LegacySseCall, messagesPath: string): Promise<Response>;
  /** POST on the messages path: one message (or batch) for the session, answered 202; its responses go on the stream. */
  post(call: LegacySseCall): Promise<Response>;
  /** In a session object: its answer to one of the internal URLs the Worker half forwards, or undefined for any other request. */
  answer(host: LegacyHost, request: Request, principal: Principal | undefined): Promise<Response> | undefined;
}
