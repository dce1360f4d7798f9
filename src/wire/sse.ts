/**
 * SSE on the wire for both lanes (WHATWG HTML "Server-sent events"): frame formatting and the
 * 200 response that carries a stream. Data is one JSON line, so no field can contain a newline;
 * ids are produced by the event log and never hold newlines.
 */

const encoder = new TextEncoder();

export function encodeSseEvent(data: string, id?: string, retryMs?: number): Uint8Array {
  return encoder.encode(sseEventText(data, id, retryMs));
}

/** The same frame as text (what an object sends to the Worker holding the stream, src/platform/held-stream.ts). */
export function sseEventText(data: string, id?: string, retryMs?: number): string {
  let frame = "";
  if (id !== undefined) frame += `id: ${id}\n`;
  if (retryMs !== undefined) frame += `retry: ${retryMs}\n`;
  frame += data === "" ? "data: \n\n" : `event: message\ndata: ${data}\n\n`;
  return frame;
}

/** An event with a name and plain-text data (the 2024-11-05 `endpoint` event), as text. */
export function sseNamedEventText(event: string, data: string): string {
  return `event: ${event}\ndata: ${data.replace(/[\r\n]/g, "")}\n\n`;
}

/** A comment line: ignored by clients, keeps intermediaries from cutting an idle stream. */
export const KEEPALIVE_FRAME: Uint8Array = encoder.encode(": keepalive\n\n");

export function encodeSseComment(text: string): Uint8Array {
  return encoder.encode(`: ${text.replace(/[\r\n]/g, " ")}\n\n`);
}

export const SSE_HEADERS: Record<string, string> = {
  "Content-Type": "text/event-stream",
  "Cache-Control": "no-store, no-transform",
};

/** The 200 answer carrying an SSE stream (`null` only before a stream exists); `headers` add to or override SSE_HEADERS. */
export function sseResponse(body: ReadableStream<Uint8Array> | null, headers: Record<string, string> = {}): Response {
  return new Response(body, { status: 200, headers: { ...SSE_HEADERS, ...headers } });
}
