/**
 * `events({ types, ...options })`: the Events extension (io.modelcontextprotocol/events, SEP-3415)
 * as a feature passed to createMcpEdge. It declares the extension, adds events/list and
 * events/poll (and the webhook wing's methods when given), answers events/stream with a held
 * stream, brings the McpEvents class (binding MCP_EVENTS) and offers `emit` for the Worker's code.
 */
import type { Feature } from "../../kernel/feature";
import type { MethodDefinition } from "../../mcp/definition/methods";
import { EVENTS_BINDING, EVENTS_CLASS, type EmitOutcome } from "../../../durable-objects/events/contract";
import { eventsObjectClass } from "../../../durable-objects/events/mcp-events";
import type { EventDefinition } from "./define";
import { emitEvent, type EmitOptions } from "./emit";
import { eventMethods } from "./methods";
import { EVENTS_EXTENSION, EventRegistry, type EventsWebhooks, type ResolvedEventsOptions } from "./registry";
import { streamLane } from "./stream";

export interface EventsOptions<Env = unknown> {
  /** The event types served (defineEvent). */
  types: readonly EventDefinition<Env>[];
  /** How much of an emitted type's log is kept for replay: by count (default 1,000) and age (default 24 h). */
  retention?: { maxEvents?: number; maxAgeMs?: number };
  /** A push stream's heartbeat interval (ms; default 25,000, at most 30,000 as SEP-3415 asks). */
  heartbeatMs?: number;
  /** events/list's page size (default 50). */
  pageSize?: number;
  /** events/poll's default and largest `maxEvents` (default 100). */
  maxEventsPerPoll?: number;
  /** The most push streams one emitted type holds open at once (default 10,000); past it, ResourceExhausted. */
  maxStreams?: number;
  /** Webhook delivery (events/subscribe, events/unsubscribe): `webhooks(...)` of mcp-edge/events. */
  webhooks?: EventsWebhooks<Env>;
}

export interface EventsFeature<Env = unknown> extends Feature<Env> {
  /** Emits one occurrence of an emitted event type (its log, its push streams, its webhook subscriptions). */
  emit(env: Env, name: string, data: unknown, options?: EmitOptions): Promise<EmitOutcome>;
  /** The types and checks this feature serves (what a test or the webhook wing reads). */
  readonly registry: EventRegistry<Env>;
}

const MAX_HEARTBEAT_MS = 30_000;

function resolve(options: EventsOptions<never>): ResolvedEventsOptions {
  const heartbeatMs = options.heartbeatMs ?? 25_000;
  if (!Number.isInteger(heartbeatMs) || heartbeatMs < 100 || heartbeatMs > MAX_HEARTBEAT_MS)
    throw new TypeError(`mcp-edge events(): heartbeatMs is a whole number of milliseconds from 100 to ${MAX_HEARTBEAT_MS}`);
  const resolved: ResolvedEventsOptions = {
    retention: { maxEvents: options.retention?.maxEvents ?? 1_000, maxAgeMs: options.retention?.maxAgeMs ?? 24 * 60 * 60 * 1000 },
    heartbeatMs,
    pageSize: options.pageSize ?? 50,
    maxEventsPerPoll: options.maxEventsPerPoll ?? 100,
    maxStreams: options.maxStreams ?? 10_000,
  };
  const { retention, pageSize, maxEventsPerPoll, maxStreams } = resolved;
  for (const [field, value] of Object.entries({ ...retention, pageSize, maxEventsPerPoll, maxStreams }))
    if (!Number.isInteger(value) || value < 1) throw new TypeError(`mcp-edge events(): ${field} is a whole number, 1 or more`);
  return resolved;
}

/** The Events extension as a feature: `createMcpEdge(server, { features: [events({ types: [...] })] })`. */
export function events<Env = unknown>(options: EventsOptions<Env>): EventsFeature<Env> {
  if (!Array.isArray(options?.types)) throw new TypeError("mcp-edge events(): pass { types: [defineEvent(...), ...] }");
  const registry = new EventRegistry<Env>(options.types, resolve(options as EventsOptions<never>));
  const methods: MethodDefinition<Env>[] = eventMethods(registry);
  if (options.webhooks) methods.push(...options.webhooks.methods(registry));
  // The object holds an emitted type's log, and the webhook subscriptions of any type (an upstream one's polled by its alarm).
  const emitted = options.types.some((type) => !type.poll || (options.webhooks !== undefined && type.delivery.includes("webhook")));
  const part = options.webhooks?.part(registry);
  const { retention, maxStreams } = registry.options;
  return {
    name: "events",
    registry,
    bindings: emitted ? { [EVENTS_BINDING]: EVENTS_CLASS } : undefined,
    methods,
    // The set of types is fixed for a deployment: no list-change notifications, so no `listChanged`.
    extensions: { [EVENTS_EXTENSION]: {} },
    streams: { "events/stream": (call) => streamLane(registry, call) },
    objects: (kernel) => ({ [EVENTS_CLASS]: eventsObjectClass(kernel, { retention, maxStreams, ...(part ? { webhooks: part } : {}) }) }),
    emit: (env, name, data, emitOptions) => emitEvent(registry, env, { ...emitOptions, name, data }),
  };
}
