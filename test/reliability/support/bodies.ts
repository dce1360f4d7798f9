/**
 * Arbitraries for hostile POST bodies: every request, notification and response the demo
 * server understands as a valid template, then mutated at one field (a value of another type,
 * a missing or extra key, a duplicated key, a huge number literal), wrapped in batches of mixed
 * junk, nested thousands deep, or broken at the byte level (invalid UTF-8, truncation).
 */
import fc from "fast-check";
import { demoServer } from "../../../src/demo/server";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const encoder = new TextEncoder();

/** A body as sent (bytes) and as the server decodes it (WHATWG UTF-8 decode, invalid bytes become U+FFFD). */
export interface FuzzBody {
  bytes: Uint8Array;
  text: string;
  /** A short description for failure messages. */
  label: string;
}

function bodyOf(bytes: Uint8Array, label: string): FuzzBody {
  const text = new TextDecoder().decode(bytes);
  // fast-check prints counterexamples with this: long bodies are cut, so a failure report stays readable.
  const shown = text.length > 600 ? `${text.slice(0, 600)}… (${text.length} characters)` : text;
  return { bytes, text, label, [fc.toStringMethod]: () => `${label}: ${JSON.stringify(shown)}` } as FuzzBody;
}

function textBody(text: string, label: string): FuzzBody {
  return bodyOf(encoder.encode(text), label);
}

/** A value valid for a JSON Schema: the first enum value, 0 for numbers, "x" for strings, objects filled. */
function sampleFor(schema: unknown): Json {
  if (typeof schema !== "object" || schema === null) return "x";
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0] as Json;
  if (s.type === "number" || s.type === "integer") return typeof s.minimum === "number" ? s.minimum : 0;
  if (s.type === "boolean") return true;
  if (s.type === "array") return [];
  if (s.type === "object" || typeof s.properties === "object") {
    const out: Record<string, Json> = {};
    for (const [key, sub] of Object.entries((s.properties ?? {}) as Record<string, unknown>)) out[key] = sampleFor(sub);
    return out;
  }
  return "x";
}

/** One valid message of every kind the demo server serves, built from its own definitions. */
function validTemplates(): Json[] {
  const req = (method: string, params?: Record<string, Json>): Json =>
    params === undefined ? { jsonrpc: "2.0", id: 1, method } : { jsonrpc: "2.0", id: 1, method, params };
  const templates: Json[] = [
    req("ping"),
    req("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } },
      clientInfo: { name: "fuzz", version: "1.0.0", title: "Fuzz" },
    }),
    req("tools/list", { cursor: "dG9vbHM6MA" }),
    req("resources/list", {}),
    req("resources/templates/list", {}),
    req("prompts/list", {}),
    req("logging/setLevel", { level: "debug" }),
    req("completion/complete", {
      ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
      argument: { name: "arg1", value: "te" },
      context: { arguments: { arg2: "v" } },
    }),
    req("completion/complete", { ref: { type: "ref/resource", uri: "test://template/{id}/data" }, argument: { name: "id", value: "1" } }),
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "fuzz" } },
    { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
    { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "t", progress: 1, total: 2 } },
    { jsonrpc: "2.0", id: "s-00000000-1", result: { role: "assistant", content: { type: "text", text: "hi" }, model: "m" } },
    { jsonrpc: "2.0", id: "s-00000000-2", error: { code: -1, message: "refused", data: { why: "fuzz" } } },
  ];
  for (const tool of demoServer.tools.values()) {
    const params: Record<string, Json> = { name: tool.name, arguments: sampleFor(tool.listing.inputSchema) };
    params._meta = { progressToken: "p" };
    templates.push(req("tools/call", params));
  }
  for (const uri of demoServer.resources.keys()) {
    templates.push(req("resources/read", { uri }), req("resources/subscribe", { uri }), req("resources/unsubscribe", { uri }));
  }
  templates.push(req("resources/read", { uri: "test://template/123/data" }));
  for (const prompt of demoServer.prompts.values()) {
    const args: Record<string, Json> = {};
    for (const a of prompt.arguments) args[a.name] = "x";
    templates.push(req("prompts/get", { name: prompt.name, arguments: args }));
  }
  return templates;
}

/** Text that is deeply nested JSON: arrays or objects `depth` levels down. */
function nestedText(depth: number, kind: "array" | "object"): string {
  return kind === "array" ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
}

/** Values of every JSON type, including the awkward ones. */
export const junkValue: fc.Arbitrary<Json> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom<Json>(null, true, false, 0, -1, 1.5, "", " ", "\u0000", "\u2028", "%00", "../../", "<script>", "{}", "[]"),
  },
  { weight: 2, arbitrary: fc.constantFrom<Json>(1e308, -1e308, 5e-324, 2 ** 53 + 2, -(2 ** 63), 0.1 + 0.2) },
  { weight: 2, arbitrary: fc.integer() },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom<Json>("x".repeat(70_000), "é".repeat(40_000)) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json> },
  { weight: 1, arbitrary: fc.array(fc.constantFrom<Json>(1, "a", null), { maxLength: 5 }) },
);

/** Number literals JSON.parse turns into something else: Infinity, lost precision, -0. */
const hugeNumberLiteral = fc.constantFrom(
  "1e400",
  "-1e400",
  "123456789012345678901234567890",
  "0.0000000000000000000000001e-400",
  "-0",
  "1E+308",
  "9007199254740993",
);

type Path = (string | number)[];

function pathsOf(value: Json, prefix: Path = []): Path[] {
  const out: Path[] = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...pathsOf(v, [...prefix, i])));
  else if (value !== null && typeof value === "object") for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...prefix, k]));
  return out;
}

function clone(value: Json): Json {
  return JSON.parse(JSON.stringify(value)) as Json;
}

function parentOf(root: Json, path: Path): { parent: Json; key: string | number } | undefined {
  if (path.length === 0) return undefined;
  let node: Json = root;
  for (const step of path.slice(0, -1)) node = (node as Record<string | number, Json>)[step] as Json;
  return { parent: node, key: path[path.length - 1] as string | number };
}

type Mutation =
  | { op: "retype"; pick: number; value: Json }
  | { op: "delete"; pick: number }
  | { op: "add-key"; pick: number; key: string; value: Json }
  | { op: "duplicate-key"; pick: number; value: Json; before: boolean }
  | { op: "huge-number"; pick: number; literal: string }
  | { op: "none" };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant("retype" as const), pick: fc.nat(), value: junkValue }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("delete" as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("add-key" as const),
      pick: fc.nat(),
      key: fc.constantFrom("__proto__", "constructor", "toString", "_meta", "id", "jsonrpc", "x"),
      value: junkValue,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant("duplicate-key" as const), pick: fc.nat(), value: junkValue, before: fc.boolean() }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("huge-number" as const), pick: fc.nat(), literal: hugeNumberLiteral }) },
  { weight: 1, arbitrary: fc.constant({ op: "none" as const }) },
);

const MARK = "\u0001MUTATION\u0001";

/** Applies one mutation to a template and returns the JSON text (text-level for duplicates and number literals). */
function mutate(template: Json, m: Mutation): string {
  if (m.op === "none") return JSON.stringify(template);
  const root = clone(template);
  const paths = pathsOf(root);
  const path = paths[m.pick % paths.length] as Path;
  const at = parentOf(root, path);
  switch (m.op) {
    case "retype":
      if (!at) return JSON.stringify(m.value);
      (at.parent as Record<string | number, Json>)[at.key] = m.value;
      return JSON.stringify(root);
    case "delete":
      if (!at) return "";
      if (Array.isArray(at.parent)) at.parent.splice(at.key as number, 1);
      else delete (at.parent as Record<string, Json>)[at.key as string];
      return JSON.stringify(root);
    case "add-key": {
      const target = at ? ((at.parent as Record<string | number, Json>)[at.key] as Json) : root;
      const isObj = (v: Json): v is { [key: string]: Json } => v !== null && typeof v === "object" && !Array.isArray(v);
      const host = isObj(target) ? target : isObj(root) ? root : undefined;
      if (!host) return JSON.stringify(root);
      // Spelled out in the JSON text, so "__proto__" arrives as a real own key (JSON.parse keeps the last duplicate).
      host[MARK] = null;
      return JSON.stringify(root).replace(`${JSON.stringify(MARK)}:null`, () => `${JSON.stringify(m.key)}:${JSON.stringify(m.value)}`);
    }
    case "duplicate-key": {
      if (!at || Array.isArray(at.parent)) return JSON.stringify(root);
      const key = JSON.stringify(at.key);
      const original = JSON.stringify((at.parent as Record<string, Json>)[at.key as string]);
      (at.parent as Record<string, Json>)[at.key as string] = MARK;
      const dup = `${key}:${JSON.stringify(m.value)}`;
      const real = `${key}:${original}`;
      return JSON.stringify(root).replace(`${key}:${JSON.stringify(MARK)}`, () => (m.before ? `${dup},${real}` : `${real},${dup}`));
    }
    case "huge-number": {
      if (!at) return m.literal;
      (at.parent as Record<string | number, Json>)[at.key] = MARK;
      return JSON.stringify(root).replace(JSON.stringify(MARK), () => m.literal);
    }
  }
}

/** Bytes that are not UTF-8: stray continuation bytes, overlong forms, surrogates, truncated sequences. */
const invalidUtf8: fc.Arbitrary<number[]> = fc.constantFrom<number[]>(
  [0x80],
  [0xbf],
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xfe],
  [0xff],
  [0xc3],
  [0xe2, 0x82],
  [0xef, 0xbb, 0xbf],
);

function insertBytes(text: string, at: number, bytes: number[]): Uint8Array {
  const head = encoder.encode(text.slice(0, at));
  const tail = encoder.encode(text.slice(at));
  const out = new Uint8Array(head.length + bytes.length + tail.length);
  out.set(head, 0);
  out.set(bytes, head.length);
  out.set(tail, head.length + bytes.length);
  return out;
}

const templates = validTemplates();
const template: fc.Arbitrary<Json> = fc.constantFrom(...templates);

/** One message: a template, mutated once (most of the time). */
const mutatedMessage: fc.Arbitrary<string> = fc.tuple(template, mutation).map(([t, m]) => mutate(t, m));

/** Every kind of hostile body, with weights that keep most cases meaningful JSON-RPC. */
export const hostileBody: fc.Arbitrary<FuzzBody> = fc.oneof(
  { weight: 8, arbitrary: mutatedMessage.map((text) => textBody(text, "mutated message")) },
  {
    weight: 3,
    arbitrary: fc
      .array(
        fc.oneof(
          mutatedMessage,
          template.map((t) => JSON.stringify(t)),
          junkValue.map((v) => JSON.stringify(v)),
        ),
        { minLength: 1, maxLength: 6 },
      )
      .map((items) => textBody(`[${items.map((i) => (i === "" ? "null" : i)).join(",")}]`, "batch of mixed junk")),
  },
  { weight: 1, arbitrary: fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), fc.json()).map((t) => textBody(t, "random text")) },
  {
    weight: 1,
    arbitrary: fc.tuple(template, fc.nat(), fc.nat({ max: 3 })).map(([t, cut, extra]) => {
      const text = JSON.stringify(t);
      return textBody(text.slice(0, cut % text.length) + ["", "}", "]]", ",,"][extra], "truncated message");
    }),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(template, fc.nat(), invalidUtf8).map(([t, at, bytes]) => {
      const text = JSON.stringify(t);
      return bodyOf(insertBytes(text, at % (text.length + 1), bytes), `invalid UTF-8 ${bytes.map((b) => b.toString(16)).join(" ")}`);
    }),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(template, fc.nat(), fc.constantFrom(1_000, 10_000, 100_000), fc.constantFrom("array" as const, "object" as const))
      .map(([t, pick, depth, kind]) => {
        const paths = pathsOf(t).filter((p) => p.length > 0);
        const path = paths[pick % paths.length] as Path;
        const root = clone(t);
        const at = parentOf(root, path)!;
        (at.parent as Record<string | number, Json>)[at.key] = MARK;
        return textBody(
          JSON.stringify(root).replace(JSON.stringify(MARK), () => nestedText(depth, kind)),
          `nested ${depth} deep at ${path.join(".")}`,
        );
      }),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(nestedText(200_000, "array"), "", " ", "null", "[]", "[[]]", "[null]", "{}", '"x"', "1e400", "\uFEFF{}")
      .map((t) => textBody(t, "degenerate body")),
  },
);
