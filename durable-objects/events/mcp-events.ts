/**
 * McpEvents: one object per emitted event type (bound as MCP_EVENTS, addressed by the event's
 * name), made by the object kit (kit/edge-object.ts) like every class. It keeps the type's bounded,
 * replayable log (event-log.ts), feeds its push streams (event-streams.ts; the Worker holds them, so
 * this object sleeps between emits), and hands every appended event to its webhook part when the
 * edge delivers webhooks (the WebhookPart of contract.ts, made by the `webhooks` factory of its
 * config). An upstream-backed type reaches it only for webhooks: its alarm polls the upstream for the
 * type's subscriptions (its poll and push streams run in the Worker). With the server's `onEvent`, each
 * request it serves and each alarm is its own event (place "events") with the rows it wrote.
 */
import { json } from "../../src/wire/json";
import { eventsErrorOf } from "../../src/wire/events-errors";
import { refuse } from "../../src/wire/refusals";
import { EdgeObject, type ObjectBinding } from "../kit/edge-object";
import { isUpgrade } from "../kit/held-sockets";
import {
  EVENTS_STREAM_URL,
  HEADER_EVENTS_OPEN,
  type EmitInput,
  type EmitOutcome,
  type EventsHost,
  type EventsRpc,
  type ReadQuery,
  type ReadResult,
  type StreamOpen,
  type WebhookPart,
  type WebhookPartFactory,
} from "./contract";
import type { WebhookKey, WebhookSubscribeInput, WebhookSubscribeOutcome } from "./webhooks-contract";
import { EventLog, type Retention } from "./event-log";
import { EventStreams } from "./event-streams";

/** How many events a stream's replay sends at most (the rest is past retention's default count anyway). */
const MAX_STREAM_REPLAY = 1_000;
/** The key (storage.kv) remembering which event type this object serves, for its alarms. */
const NAME_KEY = "name";

/** What every events object of one edge is made with. */
export interface EventsObjectConfig {
  retention: Retention;
  /** The most push streams this object holds open at once; past it, an open is refused with ResourceExhausted. */
  maxStreams: number;
  /** The webhook part's factory (the `webhooks` option of `events()`); absent: no webhook delivery. */
  webhooks?: WebhookPartFactory;
}

/** The events object; made per edge by `eventsObjectClass(binding, config)`, which binds both. */
class McpEventsObject extends EdgeObject<unknown> implements EventsRpc {
  readonly #config: EventsObjectConfig;
  readonly #log: EventLog;
  readonly #streams: EventStreams;
  /** The plug for webhook subscriptions (durable-objects/events/webhooks*.ts): told of every appended event. */
  readonly #webhooks: WebhookPart | undefined;
  #name: string | undefined;

  constructor(ctx: DurableObjectState, env: unknown, binding: ObjectBinding | undefined, config: EventsObjectConfig) {
    // No operation counts its requests (an emit comes from the Worker's own code): it bills them itself.
    super(ctx, env, binding, { place: "events", rows: "events" });
    this.#config = config;
    this.#log = new EventLog(this.storage.sql, config.retention);
    this.#streams = new EventStreams(ctx);
    const host: EventsHost = {
      env,
      storage: this.storage,
      name: () => this.#served(),
      read: (query) => this.#log.read(query, Date.now()),
    };
    this.#webhooks = config.webhooks?.(host);
  }

  async emit(name: string, input: EmitInput): Promise<EmitOutcome> {
    this.#serve(name, true);
    const eventId = input.eventId ?? crypto.randomUUID();
    const appended = this.#log.append(input, eventId, Date.now());
    if (appended.duplicate) return { seq: appended.seq, eventId, duplicate: true, streams: 0 };
    const { event } = appended;
    const streams = this.#streams.deliver(name, event);
    if (this.#webhooks) await this.#webhooks.appended([event]);
    this.served("emit", 1);
    return { seq: event.seq, eventId: event.eventId, duplicate: false, streams };
  }

  async webhookSubscribe(input: WebhookSubscribeInput): Promise<WebhookSubscribeOutcome> {
    this.#serve(input.key.name, true);
    try {
      return await this.#webhookPart().subscribe(input);
    } finally {
      this.served("webhookSubscribe", 1);
    }
  }

  async webhookUnsubscribe(key: WebhookKey): Promise<boolean> {
    try {
      return await this.#webhookPart().unsubscribe(key);
    } finally {
      this.served("webhookUnsubscribe", 1);
    }
  }

  async read(name: string, query: ReadQuery): Promise<ReadResult> {
    this.#serve(name, false);
    const result = this.#log.read(query, Date.now());
    this.served("read", 1);
    return result;
  }

  /** Opens a push stream (the Worker's events/stream checked the request): `active`, the replay, then live emits. */
  protected override async onRequest(request: Request): Promise<Response> {
    const header = request.headers.get(HEADER_EVENTS_OPEN);
    if (request.url !== EVENTS_STREAM_URL || !isUpgrade(request) || header === null) return refuse({ reason: "not-found" });
    const open = JSON.parse(header) as StreamOpen;
    this.#serve(open.name, false);
    // Opening a stream writes no rows: the request is its cost, told now.
    this.served("events/stream", 1);
    if (this.#streams.count() >= this.#config.maxStreams) return refused(open, this.#config.maxStreams);
    const replay = this.#log.read({ after: open.after, since: open.since, arguments: open.arguments, max: MAX_STREAM_REPLAY }, Date.now());
    return this.#streams.open(open, replay, streamNumber());
  }

  protected override onSocketMessage(socket: WebSocket, message: string | ArrayBuffer): void {
    this.#streams.received(socket, message);
  }

  protected override onSocketClose(socket: WebSocket): void {
    this.#streams.ended(socket);
  }

  protected override async onAlarm(): Promise<void> {
    if (this.#webhooks) await this.#webhooks.alarm();
  }

  /** The webhook part; the Worker calls it only on an edge that delivers webhooks (the methods exist only there). */
  #webhookPart(): WebhookPart {
    if (!this.#webhooks) throw new Error("mcp-edge: a webhook call reached an events object of an edge without events({ webhooks })");
    return this.#webhooks;
  }

  /** Remembers the event type this object serves (written once, by its first emit or subscribe). */
  #serve(name: string, writing: boolean): void {
    if (this.#name === name) return;
    this.#name = name;
    if (writing && this.storage.kv.get(NAME_KEY) !== name) this.storage.kv.put(NAME_KEY, name);
  }

  #served(): string | undefined {
    this.#name ??= this.storage.kv.get<string>(NAME_KEY);
    return this.#name;
  }
}

/** The events object class of one edge (its observer from `binding`): `export const { McpEvents } = edge.objects`. */
export function eventsObjectClass(
  binding: ObjectBinding | undefined,
  config: EventsObjectConfig,
): new (
  ctx: DurableObjectState,
  env: unknown,
) => EventsRpc {
  return class McpEvents extends McpEventsObject {
    constructor(ctx: DurableObjectState, env: unknown) {
      super(ctx, env, binding, config);
    }
  };
}

/** The answer to an open past `maxStreams`: the client gets it as the request's error (no stream). */
function refused(open: StreamOpen, max: number): Response {
  const error = eventsErrorOf({ reason: "resource-exhausted", limit: "streams", max });
  return json({ jsonrpc: "2.0", id: open.id, error });
}

/** A stream's number among this object's sockets (its tag): random, so none repeats across wakes. */
function streamNumber(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]!;
}
