/**
 * `events/poll` (SEP-3415 "Poll-Based Delivery"): stateless, one subscription per request, no
 * subscribe step. An upstream-backed type runs the author's `poll` here in the Worker (no Durable
 * Object); an emitted type reads its log with one request to its events object (writing nothing).
 */
import { INVALID_PARAMS, RpcError } from "../../jsonrpc/errors";
import type { Params } from "../../jsonrpc/messages";
import type { HandlerContext } from "../../mcp/definition/context";
import { cursorOf, occurrenceOf } from "../../../durable-objects/events/contract";
import type { EventDefinition, UpstreamEvent, UpstreamPollResult } from "./define";
import { maxAgeOf, type EventRegistry } from "./registry";

export interface PollAnswer {
  events: Record<string, unknown>[];
  cursor: string | null;
  truncated: boolean;
  hasMore: boolean;
  nextPollMs: number;
}

/** `maxEvents` of a request: a whole number ≥ 1 (capped at the server's ceiling), or the ceiling when absent. */
function maxEventsOf(params: Params, ceiling: number): number {
  const value = params.maxEvents;
  if (value === undefined || value === null) return ceiling;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1)
    throw new RpcError(INVALID_PARAMS, 'Invalid params: "maxEvents" must be a whole number, 1 or more');
  return Math.min(value, ceiling);
}

export async function pollEvents<Env>(registry: EventRegistry<Env>, params: Params, ctx: HandlerContext<Env>): Promise<PollAnswer> {
  const type = registry.find(params, "poll");
  const args = await registry.arguments(type, params);
  const maxAgeMs = maxAgeOf(params);
  const max = maxEventsOf(params, registry.options.maxEventsPerPoll);
  if (type.poll) return pollUpstream(type, { args, cursor: registry.upstreamCursor(params), maxAgeMs, max }, ctx);
  const after = registry.position(params);
  const query = { after, arguments: args, max, ...(maxAgeMs === undefined ? {} : { since: Date.now() - maxAgeMs }) };
  const read = await registry.object(ctx.env, type.name).read(type.name, query);
  return {
    events: read.events.map((event) => occurrenceOf(type.name, event)),
    cursor: cursorOf(read.position),
    truncated: read.truncated,
    hasMore: read.hasMore,
    nextPollMs: read.hasMore ? 0 : type.nextPollMs,
  };
}

interface UpstreamRequest {
  args: Record<string, unknown>;
  cursor: string | null;
  maxAgeMs: number | undefined;
  max: number;
}

/** One round of an upstream-backed type's `poll`, shaped and checked (also what drives its push streams). */
export async function pollUpstream<Env>(
  type: EventDefinition<Env>,
  request: UpstreamRequest,
  ctx: Pick<HandlerContext<Env>, "env" | "signal">,
): Promise<PollAnswer> {
  const poll = type.poll!;
  const result = await poll(request.args, request.cursor, { env: ctx.env, maxEvents: request.max, signal: ctx.signal });
  const checked = checkUpstream(type.name, result);
  let events = checked.events;
  let cursor = checked.cursor;
  let hasMore = checked.hasMore === true;
  // More than the client takes: cut where the last kept event says the upstream resumes.
  if (events.length > request.max && events[request.max - 1]?.cursor !== undefined) {
    cursor = events[request.max - 1]!.cursor!;
    events = events.slice(0, request.max);
    hasMore = true;
  }
  // The type's own cursor rule: null for an upstream without replay, a string otherwise (a null start is "from now").
  const floor = request.maxAgeMs === undefined || request.cursor === null ? undefined : Date.now() - request.maxAgeMs;
  const kept = floor === undefined ? events : events.filter((event) => Date.parse(timestampOf(event)) >= floor);
  return {
    events: kept.map((event) => upstreamOccurrence(type.name, event)),
    cursor,
    truncated: kept.length < events.length,
    hasMore,
    nextPollMs: hasMore ? 0 : (checked.nextPollMs ?? type.nextPollMs),
  };
}

function timestampOf(event: UpstreamEvent): string {
  const at = event.timestamp;
  if (at === undefined) return new Date().toISOString();
  return at instanceof Date ? at.toISOString() : new Date(at).toISOString();
}

function upstreamOccurrence(name: string, event: UpstreamEvent): Record<string, unknown> {
  const occurrence: Record<string, unknown> = { eventId: event.eventId, name, timestamp: timestampOf(event), data: event.data };
  if (event.cursor !== undefined) occurrence.cursor = event.cursor;
  return occurrence;
}

/** The author's answer as the wire needs it; a wrong shape is the author's bug (an Internal error, logged). */
function checkUpstream(name: string, result: UpstreamPollResult): UpstreamPollResult {
  if (typeof result !== "object" || result === null || !Array.isArray(result.events))
    throw new Error(`event "${name}": poll must return { events: [...], cursor }`);
  if (result.cursor !== null && typeof result.cursor !== "string")
    throw new Error(`event "${name}": poll's cursor must be a string or null`);
  for (const event of result.events) {
    if (typeof event?.eventId !== "string" || event.eventId.length === 0)
      throw new Error(`event "${name}": every polled event needs a string eventId`);
    if (event.timestamp !== undefined && Number.isNaN(new Date(event.timestamp).getTime()))
      throw new Error(`event "${name}": the event ${event.eventId} has a timestamp that is not a date`);
  }
  return result;
}
