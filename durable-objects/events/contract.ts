/**
 * The contract between the Worker and the events object (McpEvents, one per emitted event type):
 * what an emit writes, what a poll reads, what a push stream asks when it opens, and the narrow
 * host a part of the object (the log, the streams, webhook subscriptions) is given. Both sides
 * import this file; neither imports the other.
 */
import type { RequestId } from "../../src/jsonrpc/messages";
import { sseEventText } from "../../src/wire/sse";
import type { WebhookKey, WebhookSubscribeInput, WebhookSubscribeOutcome, WebhooksRpc } from "./webhooks-contract";

/** The binding and the class the Worker exports for it (wrangler.toml: new_sqlite_classes). */
export const EVENTS_BINDING = "MCP_EVENTS";
export const EVENTS_CLASS = "McpEvents";

/** SEP-3415: every stream notification (and webhook delivery) names its subscription here in `_meta`. */
export const SUBSCRIPTION_ID_KEY = "io.modelcontextprotocol/subscriptionId";

/** A notification on a push stream as its SSE frame text: the events object's and the Worker's frames alike. */
export function streamFrame(method: string, params: Record<string, unknown>, id: RequestId): string {
  return sseEventText(JSON.stringify({ jsonrpc: "2.0", method, params: { ...params, _meta: { [SUBSCRIPTION_ID_KEY]: id } } }));
}

/** The internal URL a push stream's upgrade is sent to, and the header carrying its StreamOpen (an upgrade has no body). */
export const EVENTS_STREAM_URL = "https://mcp-events.internal/stream";
export const HEADER_EVENTS_OPEN = "X-Mcp-Events-Open";

/** Event arguments as the subscriber (or an emit) gave them, after the event's `input` schema. */
export type EventArguments = Record<string, unknown>;

/** One emit, as the Worker sends it (`data` already checked against the payload schema). */
export interface EmitInput {
  /** The upstream's stable id when there is one (dedup within the retained log); minted when absent. */
  eventId?: string;
  data: unknown;
  /**
   * What the occurrence is about (`{ repo: "a/b" }`): it reaches the subscriptions whose arguments
   * all match these (a subscription with `{}` gets every emit of its event).
   */
  arguments: EventArguments;
}

/**
 * One event of the log as it crosses RPC: its position and its `data` as the JSON text stored (RPC
 * types nothing `unknown` inside a result, and a webhook body is built from the text as it is).
 */
export interface LoggedEvent {
  /** The log's sequence number: strictly increasing, never reused by one object. */
  seq: number;
  eventId: string;
  /** When it was emitted, ISO 8601. */
  timestamp: string;
  /** The occurrence's `data`, JSON text. */
  data: string;
}

/** One event of the log inside the object: with the arguments it was emitted with (what subscriptions match). */
export interface StoredEvent extends LoggedEvent {
  arguments: EventArguments;
}

export interface EmitOutcome {
  seq: number;
  eventId: string;
  /** The log already held this eventId: nothing was written or sent again. */
  duplicate: boolean;
  /** How many open push streams it was sent to. */
  streams: number;
}

/** What a poll (or a stream's replay) reads: events after a position, matching a subscription's arguments. */
export interface ReadQuery {
  /** The last position the reader has (from its cursor); null = start from now (nothing is replayed). */
  after: number | null;
  /** Skip events emitted before this instant (ms since the epoch: now − maxAgeMs); absent: no floor. */
  since?: number;
  arguments: EventArguments;
  /** The most events returned. */
  max: number;
}

export interface ReadResult {
  events: LoggedEvent[];
  /** The position to put in the next cursor: the last event returned, else the log's head. */
  position: number;
  /** Events the reader asked for were skipped: trimmed by retention, or older than `since`. */
  truncated: boolean;
  /** More matching events follow `position` (the read stopped at `max`). */
  hasMore: boolean;
}

/** What the Worker asks when it opens a push stream (JSON in HEADER_EVENTS_OPEN). */
export interface StreamOpen {
  /** The `events/stream` request's id: the subscription id in every notification's `_meta`. */
  id: RequestId;
  name: string;
  arguments: EventArguments;
  /** As ReadQuery's: null = from now. */
  after: number | null;
  since?: number;
}

/**
 * The object's RPC surface (the stream is opened with `fetch(EVENTS_STREAM_URL)`, an upgrade); the webhook
 * calls (WebhooksRpc) answer only on an edge that delivers webhooks.
 */
export interface EventsRpc extends Rpc.DurableObjectBranded, WebhooksRpc {
  emit(name: string, input: EmitInput): Promise<EmitOutcome>;
  read(name: string, query: ReadQuery): Promise<ReadResult>;
}

/**
 * What a part of the events object is given: its storage and the log, never the class. The webhook
 * part (durable-objects/events/webhooks*.ts) is made from this host by `WebhookPartFactory`.
 */
export interface EventsHost {
  /** The Worker's bindings, as the object got them (an upstream-backed type's `poll` reads its upstream with them). */
  readonly env: unknown;
  /** The object's storage as the kit meters it (kit/edge-object.ts): every part writes through this one. */
  readonly storage: DurableObjectStorage;
  /** The event type this object serves (set by the first emit, read or stream it answers). */
  name(): string | undefined;
  /** Reads the log as a poll does. */
  read(query: ReadQuery): ReadResult;
}

/**
 * Where webhook subscriptions plug into the events object: it is told of every event the log
 * took (after it was written, before the emit answers), and runs the object's alarm. The object
 * owns no webhook state of its own.
 */
export interface WebhookPart {
  /** Events just appended to the log (never a duplicate). */
  appended(events: readonly StoredEvent[]): Promise<void>;
  /** events/subscribe, checked by the Worker: creates or refreshes the subscription (webhooks-contract.ts). */
  subscribe(input: WebhookSubscribeInput): Promise<WebhookSubscribeOutcome>;
  /** events/unsubscribe: whether a subscription had the key. */
  unsubscribe(key: WebhookKey): Promise<boolean>;
  /** The object's alarm fired (retries, expiries): the part reschedules what it still needs. */
  alarm(): Promise<void>;
}

/** Makes the webhook part of one events object; absent when the edge serves no webhook delivery. */
export type WebhookPartFactory = (host: EventsHost) => WebhookPart;

/** JSON with object keys sorted at every depth: two equal argument objects give one string (keys, dedup). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * Whether an occurrence emitted with `emitted` arguments reaches a subscription with `wanted`:
 * every argument the subscription names has the same value in the emit's (`{}` wants every one).
 */
export function argumentsMatch(wanted: EventArguments, emitted: EventArguments): boolean {
  for (const key of Object.keys(wanted)) {
    if (wanted[key] === undefined) continue;
    if (!Object.hasOwn(emitted, key) || canonicalJson(wanted[key]) !== canonicalJson(emitted[key])) return false;
  }
  return true;
}

/** Cursors of an emitted event's log: opaque to clients ("ev1_" and the position in base 36), read back here. */
const CURSOR_PREFIX = "ev1_";
const CURSOR_BODY = /^[0-9a-z]{1,11}$/;

export function cursorOf(position: number): string {
  return CURSOR_PREFIX + position.toString(36);
}

/** The position a cursor names, or undefined for a string this server never issued. */
export function positionOf(cursor: string): number | undefined {
  if (!cursor.startsWith(CURSOR_PREFIX)) return undefined;
  const body = cursor.slice(CURSOR_PREFIX.length);
  if (!CURSOR_BODY.test(body)) return undefined;
  const position = Number.parseInt(body, 36);
  return Number.isSafeInteger(position) ? position : undefined;
}

/** An occurrence as the wire carries it (a poll's `events[]`, a stream's event notification, a webhook body). */
export function occurrenceOf(name: string, event: LoggedEvent): Record<string, unknown> {
  return { eventId: event.eventId, name, timestamp: event.timestamp, data: JSON.parse(event.data), cursor: cursorOf(event.seq) };
}
