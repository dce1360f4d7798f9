/**
 * Checks of an HTTP request's media types and body, shared by every path that takes MCP messages: the
 * endpoints (src/http) and a feature's own paths (the 2024-11-05 transport's, src/features/sessions).
 * Each returns the refusal to answer with, or undefined to continue; `readBody` enforces the size limit
 * while reading.
 */
import { refuse, type Refusal } from "./refusals";

/** The media ranges of an Accept header, lower-cased, without parameters. */
function mediaRanges(accept: string): string[] {
  return accept.split(",").map((part) => part.split(";")[0]?.trim().toLowerCase() ?? "");
}

function acceptsType(ranges: readonly string[], type: string): boolean {
  const [major] = type.split("/");
  return ranges.some((range) => range === type || range === "*/*" || range === `${major}/*`);
}

/** POST must accept both JSON and SSE; GET must accept SSE (2025-06-18 Streamable HTTP). */
export function acceptRefusal(request: Request, types: readonly string[]): Refusal | undefined {
  // Parsed once per request, not once per required type: this runs on every POST.
  const ranges = mediaRanges(request.headers.get("Accept") ?? "");
  if (types.every((t) => acceptsType(ranges, t))) return undefined;
  return { reason: "not-acceptable", types };
}

export function checkAccept(request: Request, types: readonly string[]): Response | undefined {
  const refusal = acceptRefusal(request, types);
  return refusal && refuse(refusal);
}

export function contentTypeRefusal(request: Request): Refusal | undefined {
  const type = request.headers.get("Content-Type")?.split(";")[0]?.trim().toLowerCase();
  return type === "application/json" ? undefined : { reason: "unsupported-media-type" };
}

export function checkContentType(request: Request): Response | undefined {
  const refusal = contentTypeRefusal(request);
  return refusal && refuse(refusal);
}

function tooLarge(limit: number): Response {
  return refuse({ reason: "payload-too-large", limit });
}

/** The UTF-8 byte length of a string, without encoding it. */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // 1 byte below 0x80; 2 below 0x800; 3 otherwise (a surrogate pair is 4 for its 2 units).
    if (unit >= 0x80) bytes += unit >= 0x800 && (unit < 0xd800 || unit > 0xdfff) ? 2 : 1;
  }
  return bytes;
}

/**
 * Reads the body as UTF-8 text, stopping with 413 as soon as it passes `limit` bytes. A body
 * with a declared Content-Length (within the limit) is read in one native call; only a body of
 * unknown length is read chunk by chunk, so it can be cut off at the limit.
 */
export async function readBody(request: Request, limit: number): Promise<{ ok: true; text: string } | { ok: false; response: Response }> {
  const declared = Number(request.headers.get("Content-Length") ?? "NaN");
  if (declared > limit) return { ok: false, response: tooLarge(limit) };
  // A declared length goes straight to text(): reading `request.body` makes the runtime build a stream object.
  if (Number.isFinite(declared)) {
    const text = await request.text();
    // The declared length bounds what the connection delivers; an in-process Request may still lie.
    // UTF-8 takes at most 3 bytes per UTF-16 unit, so only a text that long needs its bytes counted.
    if (text.length * 3 > limit && utf8Length(text) > limit) return { ok: false, response: tooLarge(limit) };
    return { ok: true, text };
  }
  if (!request.body) return { ok: true, text: "" };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return { ok: false, response: tooLarge(limit) };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, text: new TextDecoder().decode(bytes) };
}
