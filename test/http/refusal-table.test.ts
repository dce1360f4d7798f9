/**
 * The docs/errors.md "HTTP errors" table, row by row, through the front door: each row names the
 * request that provokes it and the status and JSON-RPC code it must get (every row
 * of the error table has a test). The rows here and docs/errors.md's rows are compared too, so
 * a new row in either place fails until both agree.
 */
import { describe, expect, it } from "vitest";
import errorsPage from "../../docs/errors.md?raw";
import { ACCEPT_BOTH, initializeParams, MCP, openSession, post, request } from "../helpers/mcp";
import { envelope, MODERN, post2026 } from "../helpers/era-2026";
import { expectRpcError } from "../helpers/rpc-expect";
import { eventsErrorOf, type EventsFailure } from "../../src/wire/events-errors";

const PING = { jsonrpc: "2.0", id: 1, method: "ping" };
const FORGED_ID = "ab".repeat(32);

interface Row {
  /** The first cell of the docs/errors.md row, verbatim. */
  failure: string;
  status: number;
  code: number;
  /** The id the error must carry (null unless the request's id is recoverable). */
  id?: string | number | null;
  /** Provokes the refusal; undefined for rows proven by the named test file (they need a tuned server or a live stream). */
  provoke?: () => Promise<Response>;
  provenIn?: string;
}

const ROWS: Row[] = [
  {
    failure: "`Host` not allowed, or `Origin` not allowed",
    status: 403,
    code: -32000,
    provoke: () => post(PING, { headers: { Origin: "https://evil.example" } }),
  },
  {
    failure: "POST `Content-Type` not `application/json`",
    status: 415,
    code: -32000,
    provoke: () => post(PING, { headers: { "Content-Type": "text/plain" } }),
  },
  {
    failure: "`Accept` lacks `application/json` and `text/event-stream` (POST) or `text/event-stream` (GET)",
    status: 406,
    code: -32000,
    provoke: () => post(PING, { headers: { Accept: "application/json" } }),
  },
  { failure: "body is not JSON", status: 400, code: -32700, provoke: () => post("{not json") },
  {
    failure: "JSON but not a valid JSON-RPC message (incl. `id: null`)",
    status: 400,
    code: -32600,
    id: 7,
    provoke: () => post({ jsonrpc: "1.0", id: 7, method: "ping" }),
  },
  {
    failure: "numeric request `id` beyond ±(2^53 − 1) (JSON.parse would round it, so it could not be echoed exactly)",
    status: 400,
    code: -32600,
    provoke: () => post('{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}'),
  },
  {
    failure: "batch in a 2025-06-18+ session, or `initialize` inside a batch",
    status: 400,
    code: -32600,
    id: 1,
    provoke: () => post([{ jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams() }]),
  },
  {
    failure: "unsupported `MCP-Protocol-Version` header",
    status: 400,
    code: -32000,
    provoke: () => post(PING, { version: "1999-01-01" }),
  },
  {
    failure: "`Mcp-Session-Id` missing after initialize",
    status: 400,
    code: -32000,
    provoke: () => post(PING, { version: "2025-06-18" }),
  },
  {
    failure:
      "session unknown, malformed, expired or terminated (every message, `notifications/initialized` included); with " +
      "`deferredSessions()`, an id whose seal is altered, padded, cut or another session's, and the bare object id " +
      "of a deferred session ([Sessions](sessions.md#when-a-session-gets-its-object))",
    status: 404,
    code: -32001,
    provoke: () => post(PING, { version: "2025-06-18", sessionId: FORGED_ID }),
  },
  {
    failure: "body over `maxBodyBytes`",
    status: 413,
    code: -32003,
    provoke: () => post("x".repeat(4 * 1024 * 1024 + 1)),
  },
  { failure: "too many open streams in a session", status: 429, code: -32003, provenIn: "test/sessions/session-limits.tuned.test.ts" },
  {
    failure: "over a `rateLimits()` rule's limit ([Operating](operating.md#rate-limits))",
    status: 429,
    code: -32003,
    provenIn: "test/rate-limits/rate-limits.operate.test.ts",
  },
  {
    failure: "a `rateLimits()` rule naming a binding the Worker lacks",
    status: 500,
    code: -32603,
    provenIn: "test/rate-limits/rate-limits.operate.test.ts",
  },
  {
    failure: "2026-07-28 `subscriptions/listen`: more open listen streams than `listen.maxStreams`",
    status: 429,
    code: -32003,
    provenIn: "test/hub/listen-streams.test.ts",
  },
  {
    failure: "`subscriptions/listen` the hub did not acknowledge within 10 s (a shard stuck or failing)",
    status: 503,
    code: -32603,
    provenIn: "test/hub/held-stream-endings.test.ts",
  },
  {
    failure: "`subscriptions/listen` with `taskIds` but without the tasks extension declared in this request",
    status: 400,
    code: -32021,
    provenIn: "test/hub/listen-streams.test.ts",
  },
  {
    failure: "`Last-Event-ID` naming no stream of the session, or older than the trimmed events",
    status: 400,
    code: -32000,
    provoke: async () => {
      const s = await openSession();
      return request(MCP, {
        method: "GET",
        headers: {
          Accept: "text/event-stream",
          "Mcp-Session-Id": s.sessionId,
          "MCP-Protocol-Version": s.version,
          "Last-Event-ID": "nostream_1",
        },
      });
    },
  },
  {
    failure: "other HTTP method on the endpoint",
    status: 405,
    code: -32000,
    provoke: () => request(MCP, { method: "PUT", headers: { Accept: ACCEPT_BOTH } }),
  },
  {
    failure: "unknown path (without `fallback`)",
    status: 404,
    code: -32000,
    provoke: () => request("http://127.0.0.1:8787/nowhere", { method: "GET" }),
  },
  {
    failure:
      "a Durable Object binding a request needs is missing (`MCP_SESSION` in session mode, `MCP_HUB` for publish and for a listen naming task ids, `MCP_TASK`, `MCP_USER`) or bound without its SQLite migration (misconfigured Worker); a listen naming task ids on an edge without `hub()` ([Subscriptions](hub.md#a-server-with-nothing-to-deliver))",
    status: 500,
    code: -32603,
    provenIn: "test/http/misconfiguration.test.ts",
  },
  {
    failure: "an unexpected failure in the Worker (a Durable Object that failed or was reset mid-request, a bug)",
    status: 500,
    code: -32603,
    provenIn: "test/http/last-resort.test.ts",
  },
  {
    failure: "with `auth`: the access token could not be checked (JWKS or introspection endpoint unreachable)",
    status: 503,
    code: -32000,
    provenIn: "test/auth/introspection.test.ts",
  },
  {
    failure:
      "with `auth`: a token that lacks a scope the operation needs (`requiredScopes`, `toolScopes`/`resourceScopes`, a definition's `scopes`), or a handler threw `needScopes([...])`",
    status: 403,
    code: -32000,
    provenIn: "test/auth/scope-challenge.step-up.test.ts",
  },
  {
    failure: "with `auth`: a handler threw `reauthenticate()`",
    status: 401,
    code: -32000,
    provenIn: "test/auth/handler-challenge.step-up.test.ts",
  },
  {
    failure:
      "`testAuth()`: a malformed test token (a segment that is not base64url, e.g. 4n+1 characters), or a test token on a request to a host that is not a loopback one",
    status: 401,
    code: -32000,
    provenIn: "test/package/kit.package-kit.test.ts",
  },
  {
    failure: "2026-07-28: a header missing or disagreeing with the body (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`)",
    status: 400,
    code: -32020,
    id: 1,
    provoke: () => post2026("tools/list", {}, { headers: { "Mcp-Method": "prompts/list" } }),
  },
  {
    failure: "2026-07-28: a client capability the request did not declare",
    status: 400,
    code: -32021,
    id: 1,
    provoke: () => post2026("tools/call", { name: "test_missing_capability", arguments: {} }),
  },
  {
    failure: '2026-07-28: a protocol version not served (also every unclaimed request with `eras: ["2026"]`)',
    status: 400,
    code: -32022,
    id: 1,
    provoke: () =>
      post2026(
        "server/discover",
        {},
        {
          meta: envelope({}, { "io.modelcontextprotocol/protocolVersion": "2099-01-01" }),
          headers: { "MCP-Protocol-Version": "2099-01-01" },
        },
      ),
  },
  {
    failure: "2026-07-28: malformed `_meta` envelope, or a 2026 header without one",
    status: 400,
    code: -32602,
    id: 1,
    provoke: () => post2026("server/discover", {}, { meta: { "io.modelcontextprotocol/protocolVersion": MODERN } }),
  },
  { failure: "2026-07-28: removed or unknown method", status: 404, code: -32601, id: 1, provoke: () => post2026("ping") },
  {
    failure: "2026-07-28: a batch containing a claimed request",
    status: 400,
    code: -32600,
    provenIn: "test/era-2026/era-decision.test.ts",
  },
];

/** The docs/errors.md rows whose status column is a plain HTTP status (the in-band rows follow them). */
function documentedRows(): { failure: string; status: number; code: number }[] {
  const section = errorsPage.split("# HTTP errors")[1]?.split("\n## ")[0] ?? "";
  const rows: { failure: string; status: number; code: number }[] = [];
  for (const line of section.split("\n")) {
    const cells = line
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim());
    const status = /^(\d{3})\b/.exec(cells[1] ?? "");
    const code = /^(-\d{5})\b/.exec(cells[2] ?? "");
    if (cells.length === 3 && status && code && status[1] !== "200") {
      rows.push({ failure: cells[0] as string, status: Number(status[1]), code: Number(code[1]) });
    }
  }
  return rows;
}

describe("docs/errors.md HTTP errors table", () => {
  it("lists exactly the rows this test proves, with the same status and code", () => {
    expect(documentedRows()).toEqual(ROWS.map(({ failure, status, code }) => ({ failure, status, code })));
  });

  for (const row of ROWS) {
    const provoke = row.provoke;
    if (!provoke) continue; // proven in row.provenIn
    it(`answers "${row.failure}" with ${row.status} and ${row.code}`, async () => {
      await expectRpcError(await provoke(), row.status, row.code, row.id ?? null);
    });
  }

  it("names the allowed methods in Allow on 405", async () => {
    const res = await request(MCP, { method: "PUT", headers: {} });
    expect(res.headers.get("Allow")).toBe("GET, POST, DELETE, OPTIONS");
  });
});

/** The Events extension's errors as their table beside the refusal table numbers them (src/wire/events-errors.ts): the rows of docs/errors.md that start with Events must say the same. */
const EVENTS_ROWS: { failure: string; refusal: EventsFailure }[] = [
  { failure: "an unknown event name", refusal: { reason: "not-found", kind: "event", name: "x" } },
  { failure: "the principal may not use this event", refusal: { reason: "forbidden", detail: "no" } },
  { failure: "a server limit or quota reached", refusal: { reason: "resource-exhausted", limit: "subscriptions", max: 1 } },
  { failure: "a delivery mode the event type does not offer", refusal: { reason: "unsupported", detail: "no", data: {} } },
  { failure: "a webhook endpoint failed", refusal: { reason: "callback-endpoint", detail: "no", category: "timeout" } },
];

describe("docs/errors.md Events rows", () => {
  it("give each Events error the code of its table, answered 200 (one line in src/jsonrpc/errors.ts changes both)", () => {
    const lines = errorsPage.split("\n").filter((line) => line.startsWith("| Events"));
    for (const { failure, refusal } of EVENTS_ROWS) {
      const line = lines.find((l) => l.includes(failure));
      expect(line, failure).toBeDefined();
      expect(line).toContain(`| 200 | ${eventsErrorOf(refusal).code} `);
    }
  });
});
