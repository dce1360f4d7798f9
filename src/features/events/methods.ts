/**
 * events/list and events/poll as methods of the public extension API (src/mcp/handlers/methods.ts):
 * each exists only for a client that declared the Events extension (the refusal table's row for
 * an undeclared extension), in both eras.
 */
import type { MethodDefinition } from "../../mcp/definition/methods";
import { defineMethod } from "../../mcp/handlers/methods";
import { paginate } from "../../mcp/handlers/pagination";
import type { EventDefinition } from "./define";
import { pollEvents } from "./poll";
import { EVENTS_EXTENSION, type EventRegistry } from "./registry";

/** One descriptor of events/list (SEP-3415 "Discovery"). */
function descriptorOf(type: EventDefinition<never>): Record<string, unknown> {
  const descriptor: Record<string, unknown> = {
    name: type.name,
    description: type.description,
    delivery: [...type.delivery],
    inputSchema: type.input.json,
    payloadSchema: type.payload.json,
  };
  if (type.meta) descriptor._meta = type.meta;
  return descriptor;
}

export function eventMethods<Env>(registry: EventRegistry<Env>): MethodDefinition<Env>[] {
  const list = defineMethod<Env>(
    "events/list",
    { extension: EVENTS_EXTENSION, description: "The event types this server offers (paged)" },
    (params) => {
      const types = [...registry.types.values()] as EventDefinition<never>[];
      const { page, nextCursor } = paginate("events", types, params, registry.options.pageSize);
      const events = page.map(descriptorOf);
      return nextCursor ? { events, nextCursor } : { events };
    },
  );
  const poll = defineMethod<Env>(
    "events/poll",
    { extension: EVENTS_EXTENSION, description: "The events of one subscription after a cursor" },
    async (params, ctx) => ({ ...(await pollEvents(registry, params, ctx)) }),
  );
  return [list, poll];
}
