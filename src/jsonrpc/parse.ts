/**
 * Untrusted text -> JSON-RPC messages. The one place that narrows outside input into
 * `Message`. A batch element that is not a valid message becomes an `invalid` entry so the
 * batch can still be answered element by element (JSON-RPC 2.0 §6).
 */
import { INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR, RpcError } from "./errors";
import type { ErrorObject, Message, Params, RequestId } from "./messages";

export type ParsedEntry = { ok: true; message: Message } | { ok: false; error: RpcError; id: RequestId | null };

export type ParsedBody =
  | { ok: true; batch: false; entry: ParsedEntry }
  | { ok: true; batch: true; entries: ParsedEntry[] }
  | { ok: false; error: RpcError };

/**
 * The deepest nesting a message may have, counting the message object itself as 1 (so a
 * `tools/call`'s `arguments` object is at 3 and may hold 61 more levels). Past it the message
 * is refused with -32602 and its id before anything walks it: digests, canonical forms, schema
 * validators, Workers RPC and storage all see only bounded JSON (docs/configuration.md "Limits").
 */
const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON text nests `[`/`{` deeper than `limit`: a few native searches for most bodies, one
 * pass over the structure for the others (docs/engine-notes.md "Bounding JSON depth before walking it").
 */
function exceedsDepth(text: string, limit: number): boolean {
  // Brackets inside strings only overcount: fewer than limit + 1 in all cannot nest deeper.
  let brackets = 0;
  for (let i = text.indexOf("{"); i !== -1 && brackets <= limit; i = text.indexOf("{", i + 1)) brackets++;
  for (let i = text.indexOf("["); i !== -1 && brackets <= limit; i = text.indexOf("[", i + 1)) brackets++;
  if (brackets <= limit) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: its closing quote is the next one not escaped by an odd run of backslashes.
      let end = text.indexOf('"', i + 1);
      for (;;) {
        if (end === -1) return false;
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      i = end;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** Whether a decoded value nests deeper than `limit` (the message itself is level 1); iterative. */
function nestsDeeper(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [v, depth] = top;
    if (typeof v !== "object" || v === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

function tooDeep(value: unknown): ParsedEntry {
  const id = isObject(value) ? value.id : null;
  return {
    ok: false,
    error: new RpcError(INVALID_PARAMS, `Invalid params: the message nests deeper than ${MAX_JSON_DEPTH} levels of JSON`),
    id: isRequestId(id) ? id : null,
  };
}

/** One message, refused with -32602 (and its id) when it nests too deep. */
function parseBounded(value: unknown, deep: boolean): ParsedEntry {
  return deep && nestsDeeper(value, MAX_JSON_DEPTH) ? tooDeep(value) : parseMessage(value);
}

/**
 * Parses a POST body. Malformed JSON is -32700; an empty batch or a non-object is -32600; a
 * message nesting deeper than MAX_JSON_DEPTH is -32602 with its id (a batch's other elements still run).
 */
export function parseBody(text: string): ParsedBody {
  let value: unknown;
  try {
    // Any depth parses; what walks the result is bounded (docs/engine-notes.md "Bounding JSON depth before walking it").
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: new RpcError(PARSE_ERROR, "Parse error: the body is not valid JSON") };
  }
  // A batch adds one level; the text check is exact per message only after decoding.
  const deep = exceedsDepth(text, MAX_JSON_DEPTH);
  if (Array.isArray(value)) {
    if (value.length === 0) {
      return { ok: false, error: new RpcError(INVALID_REQUEST, "Invalid Request: empty batch") };
    }
    return { ok: true, batch: true, entries: value.map((v) => parseBounded(v, deep)) };
  }
  return { ok: true, batch: false, entry: parseBounded(value, deep) };
}

/** A JSON object (not null, not an array): the one narrowing every module shares. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A numeric id must survive the round trip exactly: beyond ±(2^53 − 1) JSON.parse has already
 * rounded it (12345678901234567890 reads as 12345678901234567000), so echoing it would answer
 * a different id. Such an id is refused (-32600, id null) rather than echoed wrongly.
 */
function isExactNumber(value: number): boolean {
  return Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER;
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === "string" || (typeof value === "number" && isExactNumber(value));
}

const INEXACT_ID = `"id" is a number beyond ±${Number.MAX_SAFE_INTEGER}, which JSON numbers cannot carry exactly here; send it as a string`;

function invalid(reason: string, id: unknown = null): ParsedEntry {
  // Answer with the request's id when it is a valid one, else null (JSON-RPC 2.0 §5).
  return {
    ok: false,
    error: new RpcError(INVALID_REQUEST, `Invalid Request: ${reason}`),
    id: isRequestId(id) ? id : null,
  };
}

/** Narrows one decoded JSON value to a message. */
export function parseMessage(value: unknown): ParsedEntry {
  if (!isObject(value)) return invalid("a message must be a JSON object");
  if (value.jsonrpc !== "2.0") return invalid('"jsonrpc" must be "2.0"', value.id);
  const hasId = "id" in value;
  const { id, method } = value;

  if (method !== undefined) {
    if (typeof method !== "string" || method.length === 0) return invalid('"method" must be a non-empty string', id);
    let params: Params | undefined;
    if ("params" in value && value.params !== undefined) {
      // MCP params are always by-name (an object).
      if (!isObject(value.params)) return invalid('"params" must be an object', id);
      params = value.params;
    }
    if (!hasId) return { ok: true, message: { kind: "notification", method, params } };
    // MCP (2025-03-26 "Requests"): the ID MUST NOT be null.
    if (id === null) return invalid('"id" must not be null');
    if (typeof id === "number" && Number.isFinite(id) && !isExactNumber(id)) return invalid(INEXACT_ID);
    if (!isRequestId(id)) return invalid('"id" must be a string or a number');
    return { ok: true, message: { kind: "request", id, method, params } };
  }

  if ("result" in value || "error" in value) {
    if ("result" in value && "error" in value) return invalid('a response has "result" or "error", not both', id);
    if ("result" in value) {
      if (!isRequestId(id)) return invalid('a result needs a string or number "id"');
      if (!isObject(value.result)) return invalid('"result" must be an object', id);
      return { ok: true, message: { kind: "result", id, result: value.result } };
    }
    const error = value.error;
    if (!isObject(error) || typeof error.code !== "number" || typeof error.message !== "string") {
      return invalid('"error" must be an object with a numeric "code" and a string "message"', id);
    }
    if (id !== null && !isRequestId(id)) return invalid('an error response needs a string, number or null "id"');
    const errorObject: ErrorObject = { code: error.code, message: error.message };
    if ("data" in error) errorObject.data = error.data;
    return { ok: true, message: { kind: "error", id: id as RequestId | null, error: errorObject } };
  }
  return invalid('a message needs a "method", a "result" or an "error"', id);
}
