/**
 * `mcp-edge/bus`: mcp-edge's sharded hub as the event bus of a server built on the MCP SDK v2
 * (`createMcpHandler(factory, { bus: hubBus(env) })`), so a `subscriptions/listen` stream held by
 * one isolate hears what any other isolate, or another Worker bound to the same hub, publishes.
 * The SDK owns the wire (acknowledgement, filtering, subscription ids); the bus only moves events.
 *
 * How, on the hub's contract (durable-objects/hub/contract.ts) alone, with no change to the hub:
 * - `publish` is mcp-edge's `publish` (this isolate's ordered outbox to shard 0, which fans out
 *   to every shard that holds anyone), the event carried as a `taskStatus` event of a reserved
 *   id that no task can have, owned by a reserved subject. The hub gives such events to listen
 *   streams that name that id and were opened by that subject: only buses, never a client's
 *   stream, and never a 2025 session (the hub delivers task events to listen streams only).
 * - `subscribe` opens one hub listen stream per SDK listen stream, on a shard picked at random,
 *   in the request that listens (its reads belong to that request), and hands each event to the
 *   SDK's listener. The hub's caps hold: `maxStreams` per shard (429 past it, reported to
 *   `onerror`), `maxBufferedBytes` per stream, 32 MiB per shard. A stream the hub ends (a
 *   deploy, or the stream fell behind) is opened again, a few times, while the SDK listens.
 */
import { HEADER_LISTEN_OPEN, HUB_LISTEN_URL, type HubRpc, type ListenOpen, type PublishEvent } from "../../../durable-objects/hub/contract";
import { DEFAULT_HUB_SHARD, DEFAULT_HUB_SHARDS } from "../../platform/addresses";
import { hubStub } from "../../platform/hub-shards";
import { holdStream, upgradeInit } from "../../platform/held-stream";
import { refuse } from "../../wire/refusals";
import { streamNotAcknowledgedRow } from "../../wire/hub-refusals";
import { requireNamespace, HUB_BINDING } from "../../platform/bindings";
import { MAX_URI_LENGTH } from "../../mcp/handlers/resources";
import { publish, publishAndCount } from "./publish";

/** A change event of the SDK's `ServerEventBus` (`@modelcontextprotocol/server` 2.4), same shape. */
export type BusEvent = (
  | { kind: "tools_list_changed" }
  | { kind: "prompts_list_changed" }
  | { kind: "resources_list_changed" }
  | { kind: "resource_updated"; uri: string }
) & { params?: Record<string, unknown> };

/** The SDK's `ServerEventBus`, structurally: pass it as `createMcpHandler`'s `bus`. */
export interface HubBus {
  /** Hands the event to the hub (returns at once; a refused event goes to `onerror`). */
  publish(event: BusEvent): void;
  /**
   * mcp-edge's addition: publishes, waits until every hub shard holding a bus stream delivered the
   * event, and returns how many bus streams (SDK listen streams, in any isolate) got it.
   */
  publishAndCount(event: BusEvent): Promise<number>;
  /** Follows the hub's events until the returned function is called (idempotent). */
  subscribe(listener: (event: BusEvent) => void): () => void;
}

export interface HubBusOptions {
  /** The hub's name: buses of one name hear each other (default: the server's one hub, "default"). */
  hub?: string;
  /** Objects the hub spreads over: the same number in every Worker of the hub (default 16). */
  shards?: number;
  /** Separates buses on one hub: only buses of the same topic hear each other (default "default"). */
  topic?: string;
  /** Bus streams one hub shard holds at most; one more is refused (default 1,000). */
  maxStreams?: number;
  /** Unsent bytes one bus stream may hold before the hub ends it (default 1 MiB). */
  maxBufferedBytes?: number;
  /** Keep-alives on the hub's streams to the Worker (default 15 s). */
  keepAliveMs?: number;
  /** Hears what cannot be thrown to a caller: a refused stream, a hub that did not take an event. */
  onerror?: (error: Error) => void;
}

/** A task id no task object mints (those are 64 hex digits): the carrier of a topic's events. */
const TOPIC_PREFIX = "mcp-edge-bus:";
/** The owner of carried events and the subject of bus streams: client streams never match it. */
const BUS_SUBJECT = "mcp-edge-bus";
const KINDS = new Set(["tools_list_changed", "prompts_list_changed", "resources_list_changed", "resource_updated"]);
/** A carried event is at most this many bytes of JSON (its forwarded params included). */
const MAX_EVENT_BYTES = 65_536;
/** Pauses before opening an ended stream again; after the last one the bus gives up (and says so). */
const REOPEN_DELAYS_MS = [50, 500, 2_000];

interface Resolved {
  hub: string;
  shards: number;
  topicId: string;
  maxStreams: number;
  maxBufferedBytes: number;
  keepAliveMs: number;
  onerror: (error: Error) => void;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) throw new TypeError(`mcp-edge hubBus: ${name} must be a positive whole number`);
  return value;
}

function resolve(options: HubBusOptions): Resolved {
  const topic = options.topic ?? "default";
  if (typeof topic !== "string" || topic.length === 0 || topic.length > 128)
    throw new TypeError("mcp-edge hubBus: topic must be a string of 1-128 characters");
  return {
    hub: options.hub ?? DEFAULT_HUB_SHARD,
    shards: positive("shards", options.shards, DEFAULT_HUB_SHARDS),
    topicId: TOPIC_PREFIX + topic,
    maxStreams: positive("maxStreams", options.maxStreams, 1_000),
    maxBufferedBytes: positive("maxBufferedBytes", options.maxBufferedBytes, 1_048_576),
    keepAliveMs: positive("keepAliveMs", options.keepAliveMs, 15_000),
    onerror: options.onerror ?? ((error) => console.error(`mcp-edge: hubBus: ${error.message}`)),
  };
}

/** The event checked (a TypeError names the mistake, as `publish` does) and wrapped for the hub. */
function carrier(event: BusEvent, o: Resolved): PublishEvent {
  if (typeof event !== "object" || event === null || !KINDS.has(event.kind))
    throw new TypeError(`mcp-edge hubBus.publish: unknown event kind ${JSON.stringify((event as { kind?: unknown } | null)?.kind)}`);
  if (event.kind === "resource_updated") {
    if (typeof event.uri !== "string" || event.uri.length === 0)
      throw new TypeError("mcp-edge hubBus.publish: resource_updated needs a uri");
    if (event.uri.length > MAX_URI_LENGTH)
      throw new TypeError(`mcp-edge hubBus.publish: the uri is longer than ${MAX_URI_LENGTH} characters`);
  }
  const size = new TextEncoder().encode(JSON.stringify(event)).byteLength;
  if (size > MAX_EVENT_BYTES)
    throw new TypeError(`mcp-edge hubBus.publish: the event is ${size} bytes of JSON; at most ${MAX_EVENT_BYTES}`);
  return { type: "taskStatus", task: { taskId: o.topicId, status: "event", event }, owner: BUS_SUBJECT };
}

/** The bus event a hub frame carries, if it is one of this topic's. */
function carried(message: unknown, topicId: string): BusEvent | undefined {
  const m = message as { method?: unknown; params?: { taskId?: unknown; event?: unknown } } | null;
  if (m?.method !== "notifications/tasks" || m.params?.taskId !== topicId) return undefined;
  const event = m.params.event as BusEvent | undefined;
  return event && KINDS.has(event.kind) ? event : undefined;
}

/**
 * The hub's event bus for an MCP SDK v2 server in a Worker: `createMcpHandler(factory, { bus:
 * hubBus(env) })`, `env` with the `MCP_HUB` Durable Object binding (from `cloudflare:workers`,
 * or the fetch handler's). A missing binding throws at the first publish or listen, naming the
 * wrangler.toml lines to add.
 */
export function hubBus(env: object, options: HubBusOptions = {}): HubBus {
  const o = resolve(options);
  let streams = 0;
  return {
    publish(event) {
      const hubEvent = carrier(event, o);
      // A missing binding throws here, naming the lines to add (publish would only reject).
      requireNamespace(env, HUB_BINDING, "the MCP SDK bus (mcp-edge/bus)");
      publish(env, hubEvent, { shard: o.hub, shards: o.shards }).catch((error: unknown) =>
        o.onerror(error instanceof Error ? error : new Error(String(error))),
      );
    },
    async publishAndCount(event) {
      const report = await publishAndCount(env, carrier(event, o), { shard: o.hub, shards: o.shards });
      return report.listenStreams;
    },
    subscribe(listener) {
      const follower = new Follower(env, o, `bus-${++streams}`, listener);
      void follower.run();
      return () => follower.stop();
    },
  };
}

/** One SDK listen stream's hub stream: opened, read, opened again when the hub ends it, closed by stop(). */
class Follower {
  private stopped = false;
  private reader: ReadableStreamDefaultReader<string> | undefined;

  constructor(
    private readonly env: object,
    private readonly o: Resolved,
    private readonly id: string,
    private readonly listener: (event: BusEvent) => void,
  ) {}

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.reader?.cancel().catch(() => {});
  }

  async run(): Promise<void> {
    let attempt = 0;
    while (!this.stopped) {
      try {
        if (await this.follow()) attempt = 0;
      } catch (error) {
        if (!this.stopped) this.o.onerror(error instanceof Error ? error : new Error(String(error)));
      }
      if (this.stopped) return;
      const delay = REOPEN_DELAYS_MS[attempt++];
      if (delay === undefined) {
        this.o.onerror(new Error(`the hub ended a listen stream ${REOPEN_DELAYS_MS.length + 1} times in a row; it stays closed`));
        return;
      }
      await new Promise((done) => setTimeout(done, delay));
    }
  }

  /** Opens the hub stream and reads it to its end; true when it was acknowledged. */
  private async follow(): Promise<boolean> {
    const index = Math.floor(Math.random() * this.o.shards);
    const open: ListenOpen = {
      id: this.id,
      filter: { taskIds: [this.o.topicId] },
      subject: BUS_SUBJECT,
      keepAliveMs: this.o.keepAliveMs,
      maxStreams: this.o.maxStreams,
      client: BUS_SUBJECT,
      maxBufferedBytes: this.o.maxBufferedBytes,
      at: { name: this.o.hub, index },
    };
    const hub = hubStub<HubRpc>(this.env, { name: this.o.hub, index }, "the MCP SDK bus (mcp-edge/bus)");
    // The shard answers with a hibernatable socket, as for any listen stream; holdStream turns it
    // into the SSE stream read below. The filter is the socket's first message (an upgrade has no body).
    const { filter, ...head } = open;
    const answer = await hub.fetch(HUB_LISTEN_URL, upgradeInit({ method: "GET", headers: { [HEADER_LISTEN_OPEN]: JSON.stringify(head) } }));
    const response = await holdStream(answer, {
      first: JSON.stringify(filter),
      awaitFirst: { refusal: () => refuse(streamNotAcknowledgedRow(10), this.id) },
      keepAliveMs: this.o.keepAliveMs,
      maxBufferedBytes: this.o.maxBufferedBytes,
    });
    if (!response.ok || !response.body) {
      const body = await response.text();
      this.stopped = true;
      throw new Error(`the hub refused a listen stream (HTTP ${response.status}): ${body.slice(0, 300)}`);
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    this.reader = reader;
    if (this.stopped) await reader.cancel();
    return this.read(reader);
  }

  private async read(reader: ReadableStreamDefaultReader<string>): Promise<boolean> {
    let acknowledged = false;
    let buffered = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return acknowledged;
      buffered += value;
      const frames = buffered.split("\n\n");
      buffered = frames.pop() ?? "";
      for (const frame of frames) {
        const data = frame
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).trimStart())
          .join("\n");
        if (!data) continue;
        const message = JSON.parse(data) as { method?: string };
        if (message.method === "notifications/subscriptions/acknowledged") acknowledged = true;
        const event = carried(message, this.o.topicId);
        if (event && !this.stopped) this.listener(event);
      }
    }
  }
}
