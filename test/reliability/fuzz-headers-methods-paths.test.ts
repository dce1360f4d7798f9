/**
 * Property: whatever the method, path and MCP headers of a request (Accept, Content-Type,
 * MCP-Protocol-Version, Mcp-Session-Id, Last-Event-ID, Origin, Host, Authorization — absent,
 * valid, empty, oversized, non-ASCII, or carrying injection attempts), the answer is success when
 * nothing is wrong and otherwise exactly one of docs/errors.md's rows for something that IS wrong
 * (the page does not order the checks). Never a 5xx, never a leak, never CORS for a foreign
 * origin or with credentials, and the session named keeps working.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from "vitest";
import type { Session } from "../helpers/session";
import { BASE, callOnStream, request, startSession } from "./support/direct";
import { SseReader } from "../helpers/sse";
import { expectSessionAlive } from "./support/client";
import { CODE } from "./support/documented";
import { leaksIn } from "./support/leaks";
import { fuzzParameters, reportFigures } from "./support/settings";

const SECRET = "Bearer sk-live-FUZZ-SECRET-0123456789abcdef";
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);
const VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/** A header: absent (undefined) or a value, some valid and many not. */
const junkHeader = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "\t",
    "x".repeat(16_384),
    "\u00e9\u00ff",
    "a\r\nX-Injected: 1",
    "a\nb",
    "a\rb",
    "\u0000",
    "%0d%0aX-Injected:%201",
    "null",
    "undefined",
    "*",
    "../../etc/passwd",
    "${jndi:ldap://x}",
  ),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "binary-ascii", maxLength: 30 }),
);

function header(valid: fc.Arbitrary<string>): fc.Arbitrary<string | undefined> {
  return fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 4, arbitrary: valid }, { weight: 3, arbitrary: junkHeader });
}

const requestShape = fc.record({
  method: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom("POST", "GET", "DELETE", "OPTIONS") },
    { weight: 2, arbitrary: fc.constantFrom("PUT", "PATCH", "HEAD", "post", "get", "FOO", "M-SEARCH", "PROPFIND") },
  ),
  path: fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom("/mcp", "/mcp?x=1", "/stateless/mcp") },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        "/mcp/",
        "/MCP",
        "//mcp",
        "/mcp/x",
        "/mcp%2F",
        "/%6dcp",
        "/",
        "/stateless",
        "/mcp;x",
        "/" + "a".repeat(8_000),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.webPath().filter((p) => p !== "/mcp" && p !== "/stateless/mcp" && !p.startsWith("/sse") && !p.startsWith("/messages")),
    },
  ),
  version: fc.constantFrom(...VERSIONS),
  host: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom("127.0.0.1:8787", "localhost", "[::1]:1", "LOCALHOST:80") },
    {
      weight: 2,
      arbitrary: fc.constantFrom("evil.example", "localhost.evil.example", "127.0.0.1.nip.io", "", "evil.example:8787", "127.0.0.2"),
    },
  ),
  accept: header(
    fc.constantFrom(
      "application/json, text/event-stream",
      "text/event-stream",
      "*/*",
      "application/*, text/*",
      "application/json;q=0.9, text/event-stream;q=0.1",
    ),
  ),
  contentType: header(
    fc.constantFrom(
      "application/json",
      "application/json; charset=utf-8",
      "APPLICATION/JSON",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data",
    ),
  ),
  protocolVersion: header(fc.constantFrom(...VERSIONS, "2025-06-18 ", "1999-01-01", "2025-06-18,2025-03-26")),
  sessionId: fc.oneof(
    { weight: 5, arbitrary: fc.constant("valid") },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 3, arbitrary: fc.oneof(junkHeader, fc.stringMatching(/^[0-9a-f]{64}$/), fc.constant("VALID-UPPER"), fc.constant("valid+1")) },
  ),
  lastEventId: fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constant("own") },
    {
      weight: 3,
      arbitrary: fc.oneof(junkHeader, fc.constantFrom("1_1", "999_1", "0_0", "1_99999999", "-1_1", "1_1_1", "99999999999999999_1")),
    },
  ),
  origin: fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: fc.constantFrom("http://localhost:5173", "https://127.0.0.1", "http://[::1]:3000") },
    {
      weight: 3,
      arbitrary: fc.oneof(
        fc.constantFrom(
          "https://evil.example",
          "null",
          "http://localhost.evil.example",
          "file://",
          "http://127.0.0.1.evil.example",
          "chrome-extension://abc",
        ),
        fc.webUrl(),
        junkHeader,
      ),
    },
  ),
  authorization: fc.oneof(
    fc.constant(undefined),
    fc.constant(SECRET),
    junkHeader.map((j) => `${SECRET}${j}`),
  ),
  body: fc.constantFrom("ping", "interactive", "notification", "initialize"),
});
type Shape = typeof requestShape extends fc.Arbitrary<infer T> ? T : never;

/** A correct request for the endpoint and method, so that one perturbed field is the only defect. */
function validFor(shape: Shape): Shape {
  return {
    ...shape,
    path: "/mcp",
    host: "127.0.0.1:8787",
    accept: shape.method === "GET" ? "text/event-stream" : "application/json, text/event-stream",
    contentType: "application/json",
    protocolVersion: shape.version,
    sessionId: "valid",
    lastEventId: undefined,
    origin: undefined,
  };
}

const FIELDS = [
  "method",
  "path",
  "host",
  "accept",
  "contentType",
  "protocolVersion",
  "sessionId",
  "lastEventId",
  "origin",
  "authorization",
  "body",
] as const;

/** Half the cases change one field of a correct request (one defect at most), half change many at once. */
const shapes: fc.Arbitrary<Shape> = fc.oneof(
  requestShape,
  fc.tuple(requestShape, fc.constantFrom(...FIELDS)).map(([shape, field]) => ({ ...validFor(shape), [field]: shape[field] }) as Shape),
);

type Row = { status: number; code: number | null };
// (MAYBE rows: see defectsOf.)
/** Marks a refusal the request may or may not get (a well-formed Last-Event-ID of unknown standing, an empty Host or Origin). */
const MAYBE_TRANSPORT = 1;

function mediaTypes(value: string | null): string[] {
  return (value ?? "").split(",").map((part) => (part.split(";")[0] ?? "").trim().toLowerCase());
}
function accepts(value: string | null, type: string): boolean {
  const major = type.split("/")[0];
  return mediaTypes(value).some((r) => r === type || r === "*/*" || r === `${major}/*`);
}
function hostOf(authority: string): string {
  const lower = authority.toLowerCase();
  if (lower.startsWith("[")) return lower.slice(0, lower.indexOf("]") + 1);
  return lower.split(":")[0] ?? "";
}
function originAllowed(origin: string): boolean {
  try {
    return LOOPBACK.has(hostOf(new URL(origin).host));
  } catch {
    return false;
  }
}

const sessions: Record<string, Session> = {};
const lastEventIds: Record<string, string> = {};
const figures = { cases: 0, refusedByPlatform: 0, success: 0, refused: 0, statuses: "" };
const statusCounts = new Map<number, number>();

async function refreshOwnEventId(version: string): Promise<void> {
  const events = await (await callOnStream(sessions[version] as Session, 1, "stream_progress", { count: 2 }, "t")).all();
  lastEventIds[version] = events.find((e) => e.json !== undefined)?.id as string;
}

let consoleError: MockInstance;

beforeAll(async () => {
  consoleError = vi.spyOn(console, "error");
  for (const v of VERSIONS) {
    sessions[v] = await startSession(v);
    await refreshOwnEventId(v);
  }
});

afterAll(() => {
  consoleError.mockRestore();
  figures.statuses = [...statusCounts.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([s, n]) => `${s}:${n}`)
    .join(",");
  reportFigures("fuzz-headers-methods-paths", figures);
});

function bodyFor(kind: Shape["body"]): string {
  switch (kind) {
    case "ping":
      return JSON.stringify({ jsonrpc: "2.0", id: "h", method: "ping" });
    case "interactive":
      return JSON.stringify({
        jsonrpc: "2.0",
        id: "h",
        method: "tools/call",
        params: { name: "stream_progress", arguments: { count: 1 } },
      });
    case "notification":
      return JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
    case "initialize":
      return JSON.stringify({
        jsonrpc: "2.0",
        id: "h",
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "f", version: "1" } },
      });
  }
}

/** The docs/errors.md rows that apply to this request; none means it must succeed. */
function defectsOf(shape: Shape, url: URL, method: string, headers: Headers): Row[] {
  const rows: Row[] = [];
  const refuse = (status: number, code: number | null) => rows.push({ status, code });
  // An empty Host or Origin may be served like an absent one (no browser sends either): both answers are accepted.
  if (headers.get("Host") === "") refuse(403, MAYBE_TRANSPORT);
  else if (!LOOPBACK.has(hostOf(headers.get("Host") ?? url.host))) refuse(403, CODE.TRANSPORT);
  const origin = headers.get("Origin");
  if (origin === "") refuse(403, MAYBE_TRANSPORT);
  else if (origin !== null && !originAllowed(origin)) refuse(403, CODE.TRANSPORT);
  // The router serves an endpoint with or without one trailing slash.
  const path = url.pathname.replace(/(.)\/$/, "$1");
  const endpoint = path === "/mcp" ? "session" : path === "/stateless/mcp" ? "stateless" : undefined;
  if (!endpoint) return (refuse(404, CODE.TRANSPORT), rows);
  if (method === "OPTIONS") return rows;
  const allowed = endpoint === "session" ? ["POST", "GET", "DELETE"] : ["POST"];
  if (!allowed.includes(method)) return (refuse(405, CODE.TRANSPORT), rows);
  const version = headers.get("MCP-Protocol-Version");
  if (version !== null && !VERSIONS.includes(version)) refuse(400, CODE.TRANSPORT);
  const sessionId = headers.get("Mcp-Session-Id");
  const validSession = sessionId !== null && sessionId === sessions[shape.version]?.sessionId;
  if (method === "POST") {
    if (mediaTypes(headers.get("Content-Type"))[0] !== "application/json") refuse(415, CODE.TRANSPORT);
    if (!accepts(headers.get("Accept"), "application/json") || !accepts(headers.get("Accept"), "text/event-stream"))
      refuse(406, CODE.TRANSPORT);
    if (endpoint === "session" && shape.body !== "initialize") {
      if (sessionId === null) refuse(400, CODE.TRANSPORT);
      else if (!validSession) refuse(404, CODE.SESSION_NOT_FOUND);
    }
    return rows;
  }
  if (method === "GET" && !accepts(headers.get("Accept"), "text/event-stream")) refuse(406, CODE.TRANSPORT);
  if (sessionId === null) refuse(400, CODE.TRANSPORT);
  else if (!validSession) refuse(404, CODE.SESSION_NOT_FOUND);
  const lastEventId = headers.get("Last-Event-ID");
  // An id of the right shape may or may not name a stream this session still keeps: both answers are documented.
  if (method === "GET" && lastEventId !== null && lastEventId !== lastEventIds[shape.version]) {
    refuse(400, /^\d{1,15}_\d{1,15}$/.test(lastEventId) ? MAYBE_TRANSPORT : CODE.TRANSPORT);
  }
  return rows;
}

/** Builds the request as a client would; undefined when the platform refuses the header values (CR, LF, NUL…). */
function build(shape: Shape): { url: URL; method: string; headers: Headers; sent: Record<string, string> } | undefined {
  const s = sessions[shape.version] as Session;
  let sessionId = shape.sessionId;
  if (sessionId === "valid") sessionId = s.sessionId;
  else if (sessionId === "VALID-UPPER") sessionId = s.sessionId.toUpperCase();
  else if (sessionId === "valid+1") sessionId = `${s.sessionId}0`;
  // DELETE of the live session would end it by design: aim DELETEs at ids that are not live.
  if (shape.method === "DELETE" && sessionId === s.sessionId) sessionId = `${s.sessionId.slice(0, 63)}x`;
  const raw: Record<string, string | undefined> = {
    Host: shape.host,
    Accept: shape.accept,
    "Content-Type": shape.contentType,
    "MCP-Protocol-Version": shape.protocolVersion,
    "Mcp-Session-Id": sessionId,
    "Last-Event-ID": shape.lastEventId === "own" ? lastEventIds[shape.version] : shape.lastEventId,
    Origin: shape.origin,
    Authorization: shape.authorization,
  };
  try {
    const headers = new Headers();
    const sent: Record<string, string> = {};
    for (const [k, v] of Object.entries(raw)) if (v !== undefined) headers.set(k, v), (sent[k] = v);
    const url = new URL(BASE + shape.path); // "//x" stays a path, not a host
    const method = new Request(url, { method: shape.method }).method; // normalises get/post, refuses forbidden methods
    return { url, method, headers, sent };
  } catch {
    return undefined;
  }
}

describe("fuzzed methods, paths and headers", () => {
  it("get success when nothing is wrong and otherwise one documented refusal for a real defect, with no 5xx, leak or stray CORS", {
    timeout: 600_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(shapes, async (shape) => {
        // Finished streams beyond the cap (100) are deleted oldest first: "own" names a fresh one.
        if (shape.lastEventId === "own") await refreshOwnEventId(shape.version);
        const built = build(shape);
        if (!built) figures.refusedByPlatform++;
        fc.pre(built !== undefined);
        figures.cases++;
        const { url, method, headers, sent } = built;
        consoleError.mockClear();
        // Canonical names, so the helper's default Host is replaced rather than joined into "a, b".
        const init: RequestInit & { headers: Record<string, string> } = { method, headers: sent };
        if (method !== "GET" && method !== "HEAD") init.body = bodyFor(shape.body);
        const res = await request(url.toString(), init);
        statusCounts.set(res.status, (statusCounts.get(res.status) ?? 0) + 1);
        // Rows marked MAYBE may be answered (as -32000) or not; the others must be, one of them.
        const all = defectsOf(shape, url, method, headers);
        const required = all.filter((r) => r.code !== MAYBE_TRANSPORT);
        const optional = all.filter((r) => r.code === MAYBE_TRANSPORT).map((r) => ({ ...r, code: CODE.TRANSPORT }));
        const refusedAtAll = res.status >= 400 && !(method === "OPTIONS" && res.status === 204);
        const rows = required.length > 0 || refusedAtAll ? [...required, ...optional] : [];
        const isSse = res.headers.get("Content-Type") === "text/event-stream";
        const text = isSse ? "" : await res.text();
        const requestParts = [...headers.values(), url.toString()];

        expect(res.status, text.slice(0, 200)).toBeLessThan(500);
        expect(leaksIn(text, requestParts, true)).toEqual([]);
        expect(text.includes("sk-live-FUZZ-SECRET"), "the Authorization secret is never echoed").toBe(false);
        expect(res.headers.get("Access-Control-Allow-Credentials")).toBeNull();
        const acao = res.headers.get("Access-Control-Allow-Origin");
        if (acao !== null) {
          expect(acao).toBe(headers.get("Origin"));
          expect(originAllowed(acao)).toBe(true);
        }

        if (rows.length > 0) {
          figures.refused++;
          // A HEAD answer carries the status and headers of the GET-like refusal, never a body.
          const body =
            method === "HEAD"
              ? { error: { code: rows.find((r) => r.status === res.status)?.code ?? NaN } }
              : (JSON.parse(text) as { error?: { code: number } });
          expect(rows, `${method} ${url.pathname}: got ${res.status} ${text.slice(0, 200)}`).toContainEqual({
            status: res.status,
            code: body.error?.code ?? null,
          });
          expect(res.headers.get("Content-Type")).toBe("application/json");
          if (res.status === 405) expect(res.headers.get("Allow")).toMatch(/POST/);
        } else {
          figures.success++;
          if (method === "OPTIONS") expect(res.status).toBe(204);
          else if (method === "GET") {
            expect(res.status, text).toBe(200);
            expect(isSse).toBe(true);
            if (headers.get("Last-Event-ID") === lastEventIds[shape.version])
              expect((await new SseReader(res).all()).at(-1)?.json?.id).toBe(1);
          } else if (shape.body === "notification") expect(res.status, text).toBe(202);
          else if (shape.body === "interactive") {
            expect(res.status, text).toBe(200);
            expect(isSse).toBe(true);
            expect((await new SseReader(res).all()).at(-1)?.json?.id).toBe("h");
          } else {
            expect(res.status, text).toBe(200);
            expect((JSON.parse(text) as { id: unknown; result?: unknown }).result).toBeDefined();
          }
        }
        await res.body?.cancel().catch(() => undefined);
        expect(
          consoleError.mock.calls.map((c) => String(c[0])),
          "the runtime logged an internal failure",
        ).toEqual([]);
        await expectSessionAlive(sessions[shape.version] as Session, figures.cases % 10 === 0);
      }),
      fuzzParameters(3000, 1),
    );
  });
});
