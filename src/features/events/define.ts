/**
 * Event types as values: `defineEvent(name, config)` checks a definition once (its name, its
 * delivery modes, its schemas compiled by the validator tools use) and gives what events/list
 * shows and what poll, push and webhook delivery check against. Either upstream-backed (the
 * author's `poll` reads the upstream; mcp-edge drives it, no Durable Object involved) or emitted
 * (`emit(env, name, data)` from anywhere in the Worker; the events object keeps its log).
 */
import type { Awaitable } from "../../mcp/definition/definitions";
import { compileSchema, type CompiledSchema, type InferSchema, type SchemaInput } from "../../mcp/definition/schema";
import type { JsonSchemaCompiler } from "../../mcp/json-schema/types";

export type DeliveryMode = "poll" | "push" | "webhook";
const DELIVERY_MODES: readonly DeliveryMode[] = ["poll", "push", "webhook"];

/** Event names: 1-128 of A-Z a-z 0-9 and `_ - . /` (they travel in headers and object names). */
const EVENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_./-]{0,127}$/;

/** One occurrence as an upstream-backed poll returns it. */
export interface UpstreamEvent<Data = unknown> {
  /** The upstream's stable id for it (a message id, a delivery id): clients deduplicate by it. */
  eventId: string;
  /** When it happened (a Date, or an ISO 8601 string); absent: now. */
  timestamp?: string | Date;
  data: Data;
  /** The position right after this event, when the upstream has one: lets mcp-edge cut a batch at `maxEvents`. */
  cursor?: string;
}

/** What the author's `poll` gets beside the arguments and the cursor. */
export interface UpstreamPollContext<Env = unknown> {
  env: Env;
  /** The most events the client takes in this answer (return more only if each carries its own `cursor`). */
  maxEvents: number;
  /** The request's abort signal (the client left, or the stream ended). */
  signal: AbortSignal | undefined;
}

/** What the author's `poll` returns: the events after `cursor`, oldest first, and the position after them. */
export interface UpstreamPollResult<Data = unknown> {
  events: UpstreamEvent<Data>[];
  /** The upstream position to resume from (a history id, a page token); null when the upstream has no replay. */
  cursor: string | null;
  /** More events wait upstream (the client polls again at once). */
  hasMore?: boolean;
  /** How long the client should wait before its next poll (ms); absent: the event's `nextPollMs`. */
  nextPollMs?: number;
}

export interface EventConfig<I extends SchemaInput | undefined = undefined, P extends SchemaInput | undefined = undefined, Env = unknown> {
  /** What the event is, for the client's model (events/list). */
  description: string;
  /** The modes it is offered in (default all three); a request in another mode gets Unsupported. */
  delivery?: readonly DeliveryMode[];
  /** The subscription's arguments (zod, a zod shape, or JSON Schema with `type: "object"`); default: none. */
  input?: I;
  /** The schema of each occurrence's `data`; emitted data is checked against it. Default: any object. */
  payload?: P;
  /** events/list's `_meta` for this descriptor. */
  meta?: Record<string, unknown>;
  /**
   * Upstream-backed: reads the upstream after `cursor` (null = start from now: return the current
   * position and no events). Without it the event is emitted (`emit(env, name, data)`).
   */
  poll?: (
    args: I extends SchemaInput ? InferSchema<I> : Record<string, unknown>,
    cursor: string | null,
    ctx: UpstreamPollContext<Env>,
  ) => Awaitable<UpstreamPollResult<P extends SchemaInput ? InferSchema<P> : unknown>>;
  /** The poll interval suggested to clients, and used to drive push for an upstream-backed event (ms; default 5,000). */
  nextPollMs?: number;
  /** What validates a raw JSON Schema `input` or `payload` (defineServer's `jsonSchema`): the core validator without it, `fullJsonSchema` for all of 2020-12. */
  jsonSchema?: JsonSchemaCompiler;
}

/** An event type as defined (checked once). */
export interface EventDefinition<Env = unknown> {
  readonly kind: "event";
  readonly name: string;
  readonly description: string;
  readonly delivery: readonly DeliveryMode[];
  readonly input: CompiledSchema;
  readonly payload: CompiledSchema;
  readonly meta: Record<string, unknown> | undefined;
  readonly nextPollMs: number;
  /** Present for upstream-backed events. */
  readonly poll:
    | ((args: Record<string, unknown>, cursor: string | null, ctx: UpstreamPollContext<Env>) => Awaitable<UpstreamPollResult>)
    | undefined;
}

const ANY_OBJECT = { type: "object" } as const;
const NO_ARGUMENTS = { type: "object", properties: {}, additionalProperties: false } as const;
const DEFAULT_NEXT_POLL_MS = 5_000;

/** Defines an event type; throws a TypeError naming what to fix. */
export function defineEvent<Env = unknown, I extends SchemaInput | undefined = undefined, P extends SchemaInput | undefined = undefined>(
  name: string,
  config: EventConfig<I, P, Env>,
): EventDefinition<Env> {
  if (typeof name !== "string" || !EVENT_NAME.test(name))
    throw new TypeError(`event "${name}": names are 1-128 characters of A-Z a-z 0-9 _ - . / (e.g. "github.push")`);
  if (typeof config?.description !== "string" || config.description.length === 0)
    throw new TypeError(`event "${name}": a description (for the client's model) is required`);
  const delivery = checkDelivery(name, config.delivery);
  if (config.jsonSchema !== undefined && typeof config.jsonSchema !== "function")
    throw new TypeError(`event "${name}": jsonSchema is a JSON Schema compiler, such as fullJsonSchema from "mcp-edge/json-schema"`);
  const input = compileSchema((config.input ?? NO_ARGUMENTS) as SchemaInput, "input", `event "${name}" input`, config);
  if (input.json.type !== "object") throw new TypeError(`event "${name}": the input schema must have type "object"`);
  const payload = compileSchema((config.payload ?? ANY_OBJECT) as SchemaInput, "output", `event "${name}" payload`, config);
  if (config.poll !== undefined && typeof config.poll !== "function")
    throw new TypeError(`event "${name}": poll is a function (arguments, cursor, ctx) => { events, cursor }`);
  const nextPollMs = config.nextPollMs ?? DEFAULT_NEXT_POLL_MS;
  if (!Number.isInteger(nextPollMs) || nextPollMs < 0) throw new TypeError(`event "${name}": nextPollMs is a whole number of milliseconds`);
  return {
    kind: "event",
    name,
    description: config.description,
    delivery,
    input,
    payload,
    meta: config.meta,
    nextPollMs,
    poll: config.poll as EventDefinition<Env>["poll"],
  };
}

function checkDelivery(name: string, delivery: readonly DeliveryMode[] | undefined): readonly DeliveryMode[] {
  if (delivery === undefined) return DELIVERY_MODES;
  if (!Array.isArray(delivery) || delivery.length === 0)
    throw new TypeError(`event "${name}": delivery is a non-empty list of "poll", "push" and "webhook"`);
  for (const mode of delivery)
    if (!DELIVERY_MODES.includes(mode))
      throw new TypeError(`event "${name}": delivery mode "${String(mode)}" is not one of poll, push, webhook`);
  return [...new Set(delivery)];
}
