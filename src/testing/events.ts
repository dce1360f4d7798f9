/**
 * The test client's side of the Events extension (io.modelcontextprotocol/events; docs/events.md
 * "Testing"): events/list through every page, events/poll, and an events/stream held open and read
 * in the background, resolved once its `notifications/events/active` arrived. On 2026-07-28 each
 * request declares the extension in its `_meta`; a 2025 session must have declared it in
 * `initialize` (`capabilities: { extensions: { "io.modelcontextprotocol/events": {} } }`).
 */
import { LiveNotificationStream, within, type NotificationStream, type StreamHooks } from "./streams";

export const EVENTS_EXTENSION = "io.modelcontextprotocol/events";

/** One occurrence as poll, push and webhook deliver it. */
export interface TestEventOccurrence {
  eventId: string;
  name: string;
  timestamp: string;
  data: unknown;
  cursor?: string | null;
  [key: string]: unknown;
}

export interface TestPollResult {
  events: TestEventOccurrence[];
  cursor: string | null;
  truncated: boolean;
  hasMore: boolean;
  nextPollMs: number;
  [key: string]: unknown;
}

export interface TestEventStream extends NotificationStream {
  /** The `notifications/events/active` params: the cursor the stream starts from and whether events were skipped. */
  readonly active: { cursor: string | null; truncated: boolean };
  /** The next `notifications/events/event`'s occurrence (without `_meta`), waiting for it up to the timeout. */
  nextEvent(options?: { timeoutMs?: number }): Promise<TestEventOccurrence>;
}

export interface TestEventsClient {
  /** Every event type the server offers (events/list, all pages). */
  list(): Promise<Array<{ name: string; description: string; delivery: string[]; [key: string]: unknown }>>;
  /** `events/poll`; `cursor` null or absent starts from now. */
  poll(
    name: string,
    args?: Record<string, unknown>,
    options?: { cursor?: string | null; maxAgeMs?: number; maxEvents?: number },
  ): Promise<TestPollResult>;
  /** Opens `events/stream`; resolves once the stream is active. A bad subscription throws its JSON-RPC error. Close it when done. */
  stream(name: string, args?: Record<string, unknown>, options?: { cursor?: string | null; maxAgeMs?: number }): Promise<TestEventStream>;
}

/** What the events client needs of the test client. */
export interface EventsWire {
  readonly era2026: boolean;
  readonly timeoutMs: number;
  /** One request with the Events extension declared (2026-07-28: in its `_meta`). */
  callWithEvents(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Posts a request that opens a stream (declaring the extension on 2026-07-28); the raw response. */
  postWithEvents(method: string, params: Record<string, unknown>): Promise<Response>;
  /** Throws the JSON-RPC error of a response that did not open a stream. */
  refusedStream(response: Response, label: string): Promise<never>;
  readonly hooks: StreamHooks;
}

class EventStream extends LiveNotificationStream implements TestEventStream {
  active: { cursor: string | null; truncated: boolean } = { cursor: null, truncated: false };

  async nextEvent(options: { timeoutMs?: number } = {}): Promise<TestEventOccurrence> {
    const params = (await this.next("notifications/events/event", options)).params ?? {};
    const { _meta: _subscription, ...occurrence } = params;
    return occurrence as TestEventOccurrence;
  }
}

function requestParams(name: string, args: Record<string, unknown>, options: Record<string, unknown>): Record<string, unknown> {
  const params: Record<string, unknown> = { name, arguments: args, cursor: options.cursor ?? null };
  for (const field of ["maxAgeMs", "maxEvents"]) if (options[field] !== undefined) params[field] = options[field];
  return params;
}

export function eventsClient(wire: EventsWire): TestEventsClient {
  return {
    async list() {
      const all: Array<{ name: string; description: string; delivery: string[] }> = [];
      let cursor: unknown;
      do {
        const page = await wire.callWithEvents("events/list", cursor === undefined ? {} : { cursor });
        all.push(...((page.events as typeof all | undefined) ?? []));
        cursor = page.nextCursor;
      } while (typeof cursor === "string");
      return all;
    },
    async poll(name, args = {}, options = {}) {
      return (await wire.callWithEvents("events/poll", requestParams(name, args, options))) as TestPollResult;
    },
    async stream(name, args = {}, options = {}) {
      const label = `the events/stream of "${name}"`;
      const response = await within(
        wire.postWithEvents("events/stream", requestParams(name, args, options)),
        wire.timeoutMs,
        `${label} to open`,
      );
      if (!(response.headers.get("Content-Type") ?? "").startsWith("text/event-stream")) return wire.refusedStream(response, label);
      const stream = await new EventStream(response, { label, timeoutMs: wire.timeoutMs }, wire.hooks).open(false);
      try {
        const active = (await stream.next("notifications/events/active")).params ?? {};
        stream.active = { cursor: (active.cursor as string | null | undefined) ?? null, truncated: active.truncated === true };
      } catch (error) {
        await stream.close();
        throw error;
      }
      return stream;
    },
  };
}
