/**
 * Reads SSE responses event by event, so tests await the next event instead of sleeping.
 * Parses the fields this server sends: id, retry, event, data; comments are skipped.
 */

export interface SseEvent {
  id?: string;
  retry?: number;
  event?: string;
  data: string;
  /** `data` parsed as JSON, or undefined for empty data (a priming event) and for a named event's text. */
  json?: Record<string, unknown>;
}

export class SseReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = "";
  private finished = false;

  constructor(response: Response) {
    if (!response.body) throw new Error("response has no body");
    this.reader = response.body.getReader();
  }

  /** The next event, or undefined when the stream ended. */
  async next(): Promise<SseEvent | undefined> {
    for (;;) {
      const boundary = this.buffer.indexOf("\n\n");
      if (boundary !== -1) {
        const block = this.buffer.slice(0, boundary);
        this.buffer = this.buffer.slice(boundary + 2);
        const event = parseBlock(block);
        if (event) return event;
        continue;
      }
      if (this.finished) return undefined;
      const { done, value } = await this.reader.read();
      if (done) {
        this.finished = true;
        continue;
      }
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }

  /** Reads events until the stream ends. */
  async all(): Promise<SseEvent[]> {
    const events: SseEvent[] = [];
    for (let e = await this.next(); e; e = await this.next()) events.push(e);
    return events;
  }

  /** Reads until an event satisfies `predicate`; returns every event read, that one last. */
  async until(predicate: (e: SseEvent) => boolean): Promise<SseEvent[]> {
    const events: SseEvent[] = [];
    for (let e = await this.next(); e; e = await this.next()) {
      events.push(e);
      if (predicate(e)) return events;
    }
    throw new Error(`stream ended before the expected event; got ${JSON.stringify(events.map((x) => x.data))}`);
  }

  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }
}

function parseBlock(block: string): SseEvent | undefined {
  const event: SseEvent = { data: "" };
  let sawField = false;
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":") || line === "") continue;
    sawField = true;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "id") event.id = value;
    else if (field === "retry") event.retry = Number(value);
    else if (field === "event") event.event = value;
    else if (field === "data") data.push(value);
  }
  if (!sawField) return undefined;
  event.data = data.join("\n");
  // A named event other than "message" (the 2024-11-05 `endpoint` event) carries plain text.
  const message = event.event === undefined || event.event === "message";
  if (message && event.data.trim() !== "") event.json = JSON.parse(event.data) as Record<string, unknown>;
  return event;
}

/** True for the event carrying the JSON-RPC response to `id`. */
export const isResponseTo = (id: unknown) => (e: SseEvent) =>
  e.json !== undefined && e.json.id === id && ("result" in e.json || "error" in e.json);

/**
 * The raw text of a response's stream, read until it contains `marker` (or the stream ended), then cancelled.
 * SSE comments (": keepalive") included, which SseReader passes over.
 */
export async function readTextUntil(response: Response, marker: string): Promise<string> {
  if (!response.body) throw new Error("response has no body");
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes(marker)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return text;
}
