/**
 * `emit(env, name, data, { eventId, arguments })`: from anywhere in the Worker (a tool, an inbound
 * webhook route of the author's), one occurrence of an emitted event type into its log, and from
 * there to its open push streams and webhook subscriptions. `data` is checked against the type's
 * payload schema and `arguments` against its input schema first (a TypeError naming the field).
 */
import { RpcError } from "../../jsonrpc/errors";
import { canonicalJson, type EmitOutcome } from "../../../durable-objects/events/contract";
import type { EventRegistry } from "./registry";

export interface EmitOptions {
  /** The upstream's stable id (a Stripe event id, a GitHub delivery id): an emit repeating a retained one is dropped. */
  eventId?: string;
  /** What the occurrence is about, in the type's input schema: it reaches the subscriptions whose arguments all match. */
  arguments?: Record<string, unknown>;
}

/** At most this many characters of JSON per emitted `data` (a webhook body is at most 256 KiB, SEP-3415). */
const MAX_DATA_CHARS = 200_000;

/** One emit as `feature.emit` was called. */
export interface Emit extends EmitOptions {
  name: string;
  data: unknown;
}

export async function emitEvent<Env>(registry: EventRegistry<Env>, env: Env, emit: Emit): Promise<EmitOutcome> {
  const { name, data, ...options } = emit;
  const type = registry.types.get(name);
  if (!type) throw new TypeError(`mcp-edge emit: no event type is named "${name}" (pass it in events({ types }))`);
  if (type.poll) throw new TypeError(`mcp-edge emit: "${name}" is upstream-backed (it has poll); only events without poll are emitted`);
  if (
    options.eventId !== undefined &&
    (typeof options.eventId !== "string" || options.eventId.length === 0 || options.eventId.length > 256)
  )
    throw new TypeError(`mcp-edge emit("${name}"): eventId is a string of 1 to 256 characters`);
  const payload = await type.payload.validate(data);
  if (!payload.ok) throw new TypeError(`mcp-edge emit("${name}"): data does not match the payload schema: ${payload.message}`);
  let args: Record<string, unknown>;
  try {
    args = await registry.arguments(type, { arguments: options.arguments ?? {} });
  } catch (error) {
    throw new TypeError(`mcp-edge emit("${name}"): ${error instanceof RpcError ? error.message : String(error)}`);
  }
  if (canonicalJson(data).length > MAX_DATA_CHARS)
    throw new TypeError(`mcp-edge emit("${name}"): data is over ${MAX_DATA_CHARS} characters of JSON`);
  const input = { data: payload.value, arguments: args, ...(options.eventId === undefined ? {} : { eventId: options.eventId }) };
  return registry.object(env, name).emit(name, input);
}
