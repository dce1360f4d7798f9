/**
 * The event types one `events()` feature serves, and the checks every mode makes the same way:
 * the name (NotFound), the delivery mode (Unsupported), the arguments against the type's input
 * schema (-32602 naming the field), a cursor this server issued (-32602). Poll, push and the
 * webhook wing (src/features/events/webhooks*.ts) all go through here.
 */
import { INVALID_PARAMS, RpcError } from "../../jsonrpc/errors";
import type { Params } from "../../jsonrpc/messages";
import { isObject } from "../../jsonrpc/parse";
import type { MethodDefinition } from "../../mcp/definition/methods";
import { requireNamespace, EVENTS_BINDING } from "../../platform/bindings";
import { eventsError } from "../../wire/events-errors";
import {
  canonicalJson,
  positionOf,
  type EventArguments,
  type EventsRpc,
  type WebhookPartFactory,
} from "../../../durable-objects/events/contract";
import type { Retention } from "../../../durable-objects/events/event-log";
import type { DeliveryMode, EventDefinition } from "./define";

/** The extension's identifier (SEP-3415): declared by the server, and by a client that uses it. */
export const EVENTS_EXTENSION = "io.modelcontextprotocol/events";
/** Canonical JSON of a subscription's arguments may be at most this long (a push stream keeps them on its socket). */
const MAX_ARGUMENTS_CHARS = 4_096;

export interface ResolvedEventsOptions {
  retention: Retention;
  /** A push stream's heartbeat interval (ms, at most 30,000). */
  heartbeatMs: number;
  /** events/list's page size. */
  pageSize: number;
  /** events/poll's `maxEvents` when the client gives none, and its ceiling. */
  maxEventsPerPoll: number;
  /** The most push streams one emitted type holds open at once. */
  maxStreams: number;
}

/**
 * The webhook wing, plugged in by `events({ webhooks: ... })` (src/features/events/webhooks*.ts):
 * the methods it adds (events/subscribe, events/unsubscribe) and the part each events object runs.
 */
export interface EventsWebhooks<Env = unknown> {
  methods(registry: EventRegistry<Env>): MethodDefinition<Env>[];
  /** The part each events object of the feature with `registry` runs (an upstream-backed type's poll is read there). */
  part(registry: EventRegistry<Env>): WebhookPartFactory;
}

export class EventRegistry<Env = unknown> {
  readonly types: ReadonlyMap<string, EventDefinition<Env>>;

  constructor(
    types: readonly EventDefinition<Env>[],
    readonly options: ResolvedEventsOptions,
  ) {
    const byName = new Map<string, EventDefinition<Env>>();
    for (const type of types) {
      if (type?.kind !== "event") throw new TypeError("mcp-edge events({ types }): each type is made by defineEvent(name, config)");
      if (byName.has(type.name)) throw new TypeError(`mcp-edge events({ types }): two event types are named "${type.name}"`);
      byName.set(type.name, type);
    }
    this.types = byName;
  }

  /** The event type a request names, offered in `mode`: else -32602 (no name), NotFound or Unsupported. */
  find(params: Params, mode: DeliveryMode): EventDefinition<Env> {
    const name = params.name;
    if (typeof name !== "string" || name.length === 0)
      throw new RpcError(INVALID_PARAMS, 'Invalid params: "name" must be the name of an event (events/list names them)');
    const type = this.types.get(name);
    if (!type) throw eventsError({ reason: "not-found", kind: "event", name });
    if (!type.delivery.includes(mode))
      throw eventsError({
        reason: "unsupported",
        detail: `the event "${name}" is not offered by ${mode} (it is offered by ${type.delivery.join(", ")})`,
        data: { feature: "deliveryMode", value: mode },
      });
    return type;
  }

  /** The request's `arguments` checked by the type's input schema (absent = `{}`); -32602 naming the field. */
  async arguments(type: EventDefinition<Env>, params: Params): Promise<EventArguments> {
    const given = params.arguments ?? {};
    if (!isObject(given))
      throw new RpcError(INVALID_PARAMS, `Invalid params: "arguments" must be an object (the input schema of "${type.name}")`);
    const checked = await type.input.validate(given);
    if (!checked.ok) throw new RpcError(INVALID_PARAMS, `Invalid params: arguments of "${type.name}": ${checked.message}`);
    const value = isObject(checked.value) ? checked.value : given;
    if (canonicalJson(value).length > MAX_ARGUMENTS_CHARS)
      throw new RpcError(INVALID_PARAMS, `Invalid params: "arguments" come to more than ${MAX_ARGUMENTS_CHARS} characters of JSON`);
    return value;
  }

  /** An emitted event's log position from the request's `cursor` (null or absent = from now); -32602 for a foreign string. */
  position(params: Params): number | null {
    const cursor = params.cursor;
    if (cursor === undefined || cursor === null) return null;
    const position = typeof cursor === "string" ? positionOf(cursor) : undefined;
    if (position === undefined)
      throw new RpcError(
        INVALID_PARAMS,
        'Invalid params: "cursor" is not one this server issued; send the cursor of a previous answer, or null to start from now',
      );
    return position;
  }

  /** The upstream cursor of an upstream-backed event (null or absent = from now); -32602 when not a string. */
  upstreamCursor(params: Params): string | null {
    const cursor = params.cursor;
    if (cursor === undefined || cursor === null) return null;
    if (typeof cursor !== "string") throw new RpcError(INVALID_PARAMS, 'Invalid params: "cursor" must be a string or null');
    return cursor;
  }

  /** The events object of an emitted event type (one per name); a missing binding names the wrangler.toml lines. */
  object(env: unknown, name: string): DurableObjectStub<EventsRpc> {
    const namespace = requireNamespace<DurableObjectNamespace<EventsRpc>>(env, EVENTS_BINDING, `the emitted event "${name}"`);
    return namespace.getByName(name);
  }
}

/** `maxAgeMs` of a request: a whole number of milliseconds ≥ 0, or absent; -32602 otherwise. */
export function maxAgeOf(params: Params): number | undefined {
  const value = params.maxAgeMs;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0)
    throw new RpcError(INVALID_PARAMS, 'Invalid params: "maxAgeMs" must be a whole number of milliseconds (0 or more)');
  return value;
}
