/**
 * A seeded wire fuzzer over both eras and every method, for any Worker under test (the demo, the
 * scaffold's server): valid requests built as a conforming client builds them, then mutated
 * (a wrong type, a missing or an extra field at any path, huge and odd strings, deep nesting,
 * bad or missing headers, a truncated body, a forged session id or requestState). The oracle is
 * docs/errors.md's refusal table: no 5xx, the request's id echoed wherever it was readable, every
 * (status, code) pair one the table lists, and no internal text (stack frames, binding or class
 * names, wrangler.toml lines) in any answer.
 */
import fc from "fast-check";
import errorsPage from "../../docs/errors.md?raw";
import { envelope, headers2026 } from "./era-2026";
import { ACCEPT_BOTH, MCP, openSession, post } from "./mcp";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Era = "2025" | "2026";

/** The methods of each era, with the params of a valid request (tool, prompt and resource names filled in at start). */
const METHODS: Record<Era, string[]> = {
  "2025": [
    "ping",
    "initialize",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
    "tasks/get",
    "tasks/list",
    "tasks/cancel",
    "tasks/result",
    "notifications/initialized",
    "notifications/cancelled",
  ],
  "2026": [
    "server/discover",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "subscriptions/listen",
    "tasks/get",
    "tasks/update",
    "tasks/cancel",
    "ping",
  ],
};

interface FuzzTarget {
  tools: string[];
  prompts: string[];
  resources: string[];
}

function validParams(method: string, target: FuzzTarget, pick: number): Record<string, Json> {
  const one = (list: string[], fallback: string) => (list.length > 0 ? (list[pick % list.length] as string) : fallback);
  switch (method) {
    case "initialize":
      return { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "fuzz", version: "1.0.0" } };
    case "tools/call":
      return { name: one(target.tools, "add"), arguments: {} };
    case "resources/read":
    case "resources/subscribe":
    case "resources/unsubscribe":
      return { uri: one(target.resources, "file:///none") };
    case "prompts/get":
      return { name: one(target.prompts, "none"), arguments: {} };
    case "completion/complete":
      return { ref: { type: "ref/prompt", name: one(target.prompts, "none") }, argument: { name: "x", value: "a" } };
    case "logging/setLevel":
      return { level: "info" };
    case "tasks/get":
    case "tasks/cancel":
    case "tasks/result":
    case "tasks/update":
      return { taskId: "ab".repeat(32) };
    case "subscriptions/listen":
      return { notifications: { toolsListChanged: true, resourceSubscriptions: [one(target.resources, "file:///none")] } };
    case "notifications/cancelled":
      return { requestId: 1, reason: "fuzz" };
    default:
      return {};
  }
}

/** Strings that have broken parsers elsewhere: controls, lone surrogates, RTL marks, path and prototype tricks. */
const ODD = [
  "",
  "\u0000",
  "\ud800",
  "\udfff\ud800",
  "\u202e\u2066",
  "../../etc/passwd",
  "__proto__",
  "constructor",
  "%00%ff",
  "{{7*7}}",
  "\r\nX-Injected: 1",
  "😀".repeat(50),
];
const junk: fc.Arbitrary<Json> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(...ODD),
  fc.string({ maxLength: 12 }),
  fc.constant<Json>([]),
  fc.constant<Json>({}),
  fc.constant<Json>([1, "a", null]),
);

type Mutation =
  | { kind: "none" }
  | { kind: "replace"; at: number; value: Json }
  | { kind: "delete"; at: number }
  | { kind: "extra"; at: number; key: string; value: Json }
  | { kind: "huge"; at: number; length: number }
  | { kind: "deep"; at: number; depth: number }
  | { kind: "truncate"; at: number }
  | { kind: "header"; name: string; value: string | undefined }
  | { kind: "forged-session" }
  | { kind: "forged-state"; state: string };

const HEADER_NAMES = ["Content-Type", "Accept", "MCP-Protocol-Version", "Mcp-Method", "Mcp-Name", "Mcp-Session-Id", "Last-Event-ID"];
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<Mutation>({ kind: "none" }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("replace" as const), at: fc.nat(), value: junk }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("delete" as const), at: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("extra" as const),
      at: fc.nat(),
      key: fc.constantFrom("x", "__proto__", "_meta", "id", ...ODD),
      value: junk,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("huge" as const), at: fc.nat(), length: fc.constantFrom(10_000, 300_000, 5_000_000) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("deep" as const), at: fc.nat(), depth: fc.constantFrom(30, 70, 2_000) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("header" as const),
      name: fc.constantFrom(...HEADER_NAMES),
      value: fc.option(
        fc.constantFrom("", "text/plain", "2024-01-01", "2026-07-28", "tools/call", "ab".repeat(32), "\u00ff", "x".repeat(9000)),
        {
          nil: undefined,
        },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.constant<Mutation>({ kind: "forged-session" }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("forged-state" as const),
      state: fc.oneof(fc.string({ maxLength: 40 }), fc.constant("a.b.c")),
    }),
  },
);

interface FuzzCase {
  era: Era;
  method: number;
  pick: number;
  elicits: boolean;
  mutation: Mutation;
}

const fuzzCase: fc.Arbitrary<FuzzCase> = fc.record({
  era: fc.constantFrom<Era>("2025", "2026"),
  method: fc.nat(),
  pick: fc.nat(),
  elicits: fc.boolean(),
  mutation,
});

/** Every [container, key] of a JSON tree, the root's own keys included. */
function slots(tree: Json): [Record<string, Json> | Json[], string | number][] {
  const out: [Record<string, Json> | Json[], string | number][] = [];
  const walk = (node: Json) => {
    if (Array.isArray(node)) node.forEach((v, i) => (out.push([node, i]), walk(v)));
    else if (node !== null && typeof node === "object") for (const [k, v] of Object.entries(node)) out.push([node, k]), walk(v);
  };
  walk(tree);
  return out;
}

function nested(depth: number): Json {
  let node: Json = 1;
  for (let i = 0; i < depth; i++) node = i % 2 === 0 ? [node] : { a: node };
  return node;
}

function mutateBody(body: Record<string, Json>, m: Mutation): Json {
  const all = slots(body);
  const slot = all[("at" in m ? m.at : 0) % all.length];
  if (!slot) return body;
  const [container, key] = slot;
  const set = (value: Json) => {
    if (Array.isArray(container)) container[key as number] = value;
    else Object.defineProperty(container, key, { value, enumerable: true, writable: true, configurable: true });
  };
  switch (m.kind) {
    case "replace":
      set(m.value);
      break;
    case "delete":
      if (Array.isArray(container)) container.splice(key as number, 1);
      else delete container[key as string];
      break;
    case "extra": {
      const target = container[key as never] as Json;
      if (target !== null && typeof target === "object" && !Array.isArray(target)) {
        Object.defineProperty(target, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
      } else set(m.value);
      break;
    }
    case "huge":
      set("A".repeat(m.length));
      break;
    case "deep":
      set(nested(m.depth));
      break;
    default:
      break;
  }
  return body;
}

interface Built {
  text: string;
  headers: Record<string, string>;
  /** The id a server can read from the body, when it can read one. */
  id: string | number | undefined;
}

/** A valid request of the case's era and method, then its mutation. */
function buildCase(c: FuzzCase, target: FuzzTarget, session: string): Built {
  const methods = METHODS[c.era];
  const method = methods[c.method % methods.length] as string;
  const params = validParams(method, target, c.pick);
  const notification = method.startsWith("notifications/");
  const body: Record<string, Json> = notification
    ? { jsonrpc: "2.0", method }
    : { jsonrpc: "2.0", id: c.pick % 3 === 0 ? `r-${c.pick}` : c.pick, method };
  let headers: Record<string, string> = { "Content-Type": "application/json", Accept: ACCEPT_BOTH };
  if (c.era === "2026") {
    const capabilities = c.elicits ? { elicitation: {}, sampling: {}, roots: {} } : {};
    const full = { ...params, _meta: envelope(capabilities) as Json };
    body.params = full;
    headers = { ...headers, ...headers2026(method, full as Record<string, unknown>) };
    if (c.mutation.kind === "forged-state")
      Object.assign(full, { requestState: c.mutation.state, inputResponses: { k: { action: "accept" } } });
  } else {
    if (Object.keys(params).length > 0) body.params = params;
    if (method !== "initialize") headers = { ...headers, "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25" };
  }
  const m = c.mutation;
  if (m.kind === "forged-session") headers["Mcp-Session-Id"] = "cd".repeat(32);
  if (m.kind === "header") {
    if (m.value === undefined) delete headers[m.name];
    else headers[m.name] = m.value;
  }
  let text = JSON.stringify(mutateBody(body, m));
  if (m.kind === "truncate") text = text.slice(0, m.at % text.length);
  return { text, headers, id: readableId(text) };
}

function readableId(text: string): string | number | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
    const id = (parsed as { id?: unknown }).id;
    if (typeof id === "string") return id;
    if (typeof id === "number" && Number.isSafeInteger(id)) return id;
  } catch {
    // not JSON: no id to read
  }
  return undefined;
}

/** docs/errors.md: each HTTP status's documented JSON-RPC codes (200 also takes every in-band code). */
function documentedPairs(): Map<number, Set<number>> {
  const pairs = new Map<number, Set<number>>([[200, new Set()]]);
  for (const line of errorsPage.split("\n")) {
    const cells = line.split("|").slice(1, -1);
    if (cells.length !== 3) continue;
    const codes = [...(cells[2] as string).matchAll(/-3\d{4}/g)].map((m) => Number(m[0]));
    const status = /^\s*(\d{3})\b/.exec(cells[1] as string);
    const key = status ? Number(status[1]) : 200; // "tool result", "in-stream": in-band
    const set = pairs.get(key) ?? new Set<number>();
    for (const code of codes) set.add(code);
    pairs.set(key, set);
    for (const code of codes) pairs.get(200)?.add(code);
  }
  return pairs;
}

const DOCUMENTED = documentedPairs();
/** The 2026-07-28 lane's renumbering of two codes (src/jsonrpc/errors.ts code2026). */
const CODE_2026: Record<number, number> = { [-31003]: -32003, [-32602]: -32007 };

function documented(status: number, code: number): boolean {
  const codes = DOCUMENTED.get(status);
  if (!codes) return false;
  return codes.has(code) || (CODE_2026[code] !== undefined && codes.has(CODE_2026[code] as number));
}

/** Internal text no client may read: stack frames, source positions, binding and class names, wrangler.toml lines. */
const INTERNAL =
  /\bat [\w$.<>]+ \(|\.[jt]s:\d+:\d+|\bMCP_(SESSION|HUB|TASK|USER)\b|\bMcp(Session|Hub|Task|User)\b|wrangler\.toml|durable_objects|new_sqlite_classes/;

/** Reads at most `ms` of an answer (a listen or a 2025 stream stays open), then lets go of it. */
async function readBounded(res: Response, ms: number): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + ms;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    const timer = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), left));
    const chunk = await Promise.race([reader.read(), timer]);
    if (chunk === "timeout" || chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  await reader.cancel().catch(() => undefined);
  return text;
}

interface Answer {
  id?: unknown;
  error?: { code?: unknown };
  result?: { isError?: unknown };
}

/** The JSON-RPC messages of an answer: its JSON body, or the data of its SSE events. */
function messagesOf(text: string, type: string): Answer[] {
  const parse = (s: string): Answer[] => {
    try {
      const value = JSON.parse(s) as unknown;
      return (Array.isArray(value) ? value : [value]).filter((v): v is Answer => v !== null && typeof v === "object");
    } catch {
      return [];
    }
  };
  if (!type.includes("text/event-stream")) return text === "" ? [] : parse(text);
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .flatMap((line) => parse(line.slice(6)));
}

/** What went wrong with one answer, or undefined when it is one docs/errors.md documents. */
function judge(built: Built, status: number, type: string, text: string): string | undefined {
  if (status >= 500) return `HTTP ${status}`;
  const messages = messagesOf(text, type);
  // What mcp-edge itself says: a body that is not JSON-RPC, every error and every failed tool's
  // result; a successful result is the server author's content (the demo's skills quote wrangler.toml).
  const own =
    messages.length === 0
      ? text
      : JSON.stringify(messages.map((m) => m.error ?? (m.result?.isError ? m.result : undefined)).filter(Boolean));
  const leak = INTERNAL.exec(own);
  if (leak) return `internal text in the answer: ${JSON.stringify(leak[0])}`;
  if (status === 202 || status === 204) return undefined;
  if (!type.includes("text/event-stream") && messages.length === 0 && text !== "")
    return `status ${status} with a body that is not JSON-RPC`;
  for (const message of messages) {
    const code = message.error?.code;
    if (typeof code !== "number") continue;
    if (!documented(status, code)) return `status ${status} with code ${code}, a pair docs/errors.md does not list`;
    if (message.id !== null && message.id !== undefined && built.id !== undefined && message.id !== built.id) {
      return `answered id ${JSON.stringify(message.id)} to request id ${JSON.stringify(built.id)}`;
    }
    // A readable id is echoed by every answer that reached the JSON-RPC layer (transport refusals before the body are exempt).
    const transport = [-32000, -32001].includes(code) || [413, 406, 415, 403, 405].includes(status);
    if (built.id !== undefined && message.id === null && !transport)
      return `code ${code} answered with id null though the request's id ${JSON.stringify(built.id)} was readable`;
  }
  return undefined;
}

export interface FuzzRun {
  cases: number;
  statuses: Record<string, number>;
  slow: number;
}

/** Opens what a case needs (a 2025 session, the server's names) once. */
async function prepare(): Promise<{ target: FuzzTarget; session: string }> {
  const { sessionId } = await openSession("2025-11-25");
  const list = async (method: string, key: string, field: string): Promise<string[]> => {
    const params = { _meta: envelope() };
    const res = await post({ jsonrpc: "2.0", id: 1, method, params }, { headers: headers2026(method, params) });
    const body = (await res.json()) as { result?: Record<string, { [k: string]: unknown }[]> };
    return (body.result?.[key] ?? []).map((item) => String(item[field]));
  };
  return {
    session: sessionId,
    target: {
      tools: await list("tools/list", "tools", "name"),
      prompts: await list("prompts/list", "prompts", "name"),
      resources: await list("resources/list", "resources", "uri"),
    },
  };
}

/** Sends one case through the Worker's front door and judges its answer; throws with the seed on a finding. */
async function runCase(c: FuzzCase, target: FuzzTarget, session: string, seed: number, run: FuzzRun): Promise<void> {
  const built = buildCase(c, target, session);
  const pending = post(built.text, { url: MCP, headers: built.headers });
  const timeout = new Promise<"slow">((resolve) => setTimeout(() => resolve("slow"), 3_000));
  const res = await Promise.race([pending, timeout]);
  run.cases++;
  if (res === "slow") {
    run.slow++;
    return;
  }
  const type = res.headers.get("Content-Type") ?? "";
  const text = await readBounded(res, type.includes("text/event-stream") ? 50 : 3_000);
  run.statuses[res.status] = (run.statuses[res.status] ?? 0) + 1;
  const problem = judge(built, res.status, type, text);
  if (problem) {
    throw new Error(
      `wire fuzz (seed ${seed}): ${problem}\nrequest headers: ${JSON.stringify(built.headers)}\nrequest body: ${built.text.slice(0, 400)}\nanswer: ${res.status} ${text.slice(0, 400)}`,
    );
  }
}

/**
 * The whole property: `runs` cases from `seed`, each judged; prints one line with the case count,
 * the statuses seen and the seed, and names the seed in any failure.
 */
export async function fuzzWire(label: string, parameters: { seed: number; numRuns: number }): Promise<FuzzRun> {
  const { target, session } = await prepare();
  const run: FuzzRun = { cases: 0, statuses: {}, slow: 0 };
  const started = Date.now();
  await fc.assert(
    fc.asyncProperty(fuzzCase, (c) => runCase(c, target, session, parameters.seed, run)),
    { seed: parameters.seed, numRuns: parameters.numRuns, endOnFailure: true, verbose: 0 },
  );
  const statuses = Object.entries(run.statuses)
    .map(([status, n]) => `${status}×${n}`)
    .join(" ");
  console.log(
    `[wire-fuzz] ${label}: cases=${run.cases} slow=${run.slow} statuses=${statuses} in ${Date.now() - started} ms (seed ${parameters.seed})`,
  );
  return run;
}
