/**
 * Helpers for tests of the session Durable Object: interactive calls over SSE, stream
 * resumption with Last-Event-ID, the client's answers and notifications, and a look at the
 * object's SQLite storage. Built on mcp.ts and sse.ts, whose behaviour they leave unchanged.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { McpSessionObject } from "../../durable-objects/sessions/mcp-session";
import type { SessionState } from "../../src/mcp/definition/context";
import { MCP, openSession, post, request } from "./mcp";
import { SseReader, type SseEvent } from "./sse";

/** A session as the client knows it: its id and the negotiated revision. */
export interface Session {
  sessionId: string;
  version: string;
}

const namespace = (env as unknown as { MCP_SESSION: DurableObjectNamespace<McpSessionObject> }).MCP_SESSION;

/** The session's object: both forms of session id begin with its id (durable-objects/sessions/deferred.ts). */
export function sessionStub(sessionId: string): DurableObjectStub<McpSessionObject> {
  return namespace.get(namespace.idFromString(sessionId.slice(0, 64)));
}

/** The session's negotiated state from its object (`confirm`), or null when it does not exist. */
export async function sessionState(sessionId: string): Promise<SessionState | null> {
  // Workers RPC types cannot express SessionState's `unknown` fields; confirm returns exactly this.
  return (await sessionStub(sessionId).confirm()) as SessionState | null;
}

/** initialize + initialized; asserts the server negotiated the revision asked for. */
export async function startSession(version: string, capabilities: Record<string, unknown> = {}): Promise<Session> {
  const session = await openSession(version, capabilities);
  expect(session.version).toBe(version);
  return session;
}

/** POSTs any JSON-RPC message (or batch) in a session. */
export function send(s: Session, body: unknown): Promise<Response> {
  return post(body, { sessionId: s.sessionId, version: s.version });
}

/** POSTs tools/call; `progressToken` goes in `_meta`. */
export function postToolCall(
  s: Session,
  id: number | string,
  name: string,
  args: Record<string, unknown> = {},
  progressToken?: string | number,
): Promise<Response> {
  const params: Record<string, unknown> = { name, arguments: args };
  if (progressToken !== undefined) params._meta = { progressToken };
  return send(s, { jsonrpc: "2.0", id, method: "tools/call", params });
}

/** Asserts a response is an SSE stream and returns a reader over it. */
export function sseOf(res: Response): SseReader {
  expect(res.status).toBe(200);
  expect(res.headers.get("Content-Type")).toBe("text/event-stream");
  return new SseReader(res);
}

/** Starts an interactive tool call and returns the reader of its POST stream. */
export async function callOnStream(
  s: Session,
  id: number | string,
  name: string,
  args: Record<string, unknown> = {},
  progressToken?: string | number,
): Promise<SseReader> {
  return sseOf(await postToolCall(s, id, name, args, progressToken));
}

/** GET /mcp: the standalone stream, or with `lastEventId` the resumption of the stream it names. */
export function getStream(s: Session, lastEventId?: string, sessionId = s.sessionId): Promise<Response> {
  const headers: Record<string, string> = { Accept: "text/event-stream", "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": s.version };
  if (lastEventId !== undefined) headers["Last-Event-ID"] = lastEventId;
  return request(MCP, { method: "GET", headers });
}

export function deleteSession(s: Session): Promise<Response> {
  return request(MCP, { method: "DELETE", headers: { "Mcp-Session-Id": s.sessionId, "MCP-Protocol-Version": s.version } });
}

/** The client's result for a server-initiated request. */
export function answer(s: Session, id: unknown, result: Record<string, unknown>): Promise<Response> {
  return send(s, { jsonrpc: "2.0", id, result });
}

export function cancel(s: Session, requestId: number | string, reason = "test"): Promise<Response> {
  return send(s, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason } });
}

/** The sequence number of an event id `<stream>_<seq>`. */
export function seqOf(id: string | undefined): number {
  const m = /^(\d+)_(\d+)$/.exec(id ?? "");
  if (!m) throw new Error(`not an event id: ${String(id)}`);
  return Number(m[2]);
}

/** The stream number of an event id `<stream>_<seq>`. */
export function streamOf(id: string | undefined): number {
  const m = /^(\d+)_(\d+)$/.exec(id ?? "");
  if (!m) throw new Error(`not an event id: ${String(id)}`);
  return Number(m[1]);
}

/** Asserts every event has an id, all on one stream, with strictly increasing sequence numbers. */
export function expectOrderedIds(events: SseEvent[]): void {
  for (const e of events) expect(e.id, `event without id: ${e.data}`).toMatch(/^\d+_\d+$/);
  expect(new Set(events.map((e) => streamOf(e.id))).size).toBeLessThanOrEqual(1);
  const seqs = events.map((e) => seqOf(e.id));
  for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBeGreaterThan(seqs[i - 1] as number);
}

export const isRequest = (method: string) => (e: SseEvent) => e.json?.method === method && "id" in e.json;
export const isNotification = (method: string) => (e: SseEvent) => e.json?.method === method && !("id" in e.json);
export const isAnyResponse = (e: SseEvent) => e.json !== undefined && ("result" in e.json || "error" in e.json);

/** The text of the first content item of a tools/call result event. */
export function toolText(e: SseEvent | undefined): string {
  const result = e?.json?.result as { content?: { text?: string }[] } | undefined;
  return result?.content?.[0]?.text ?? "";
}

export function isToolError(e: SseEvent | undefined): boolean {
  return (e?.json?.result as { isError?: boolean } | undefined)?.isError === true;
}

/** Runs a read-only SQL query inside the session object, on its own storage. */
export function sql<T extends Record<string, SqlStorageValue>>(
  sessionId: string,
  query: string,
  ...bindings: SqlStorageValue[]
): Promise<T[]> {
  return runInDurableObject(sessionStub(sessionId), (_instance, state) => state.storage.sql.exec<T>(query, ...bindings).toArray());
}

/** Row counts of every table in the object's SQLite storage (Cloudflare's internal `_cf_` tables excluded). */
export function tableSizes(sessionId: string): Promise<Record<string, number>> {
  return runInDurableObject(sessionStub(sessionId), (_instance, state) => {
    const tables = state.storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'sqlite_%'")
      .toArray();
    const sizes: Record<string, number> = {};
    for (const { name } of tables) sizes[name] = state.storage.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM "${name}"`).one().n;
    // The session's record (state, activity, tombstone) is in the key-value store.
    sizes["(key-value)"] = [...state.storage.kv.list()].length;
    return sizes;
  });
}

/** The session object's idle timeout (30 minutes), after which its alarm terminates it. */
const IDLE_TIMEOUT_MS = 30 * 60_000;

/** Makes the session look idle since long ago (last activity is persisted in the key-value store as epoch ms). */
export async function makeIdle(s: Session): Promise<void> {
  await runInDurableObject(sessionStub(s.sessionId), (_instance, state) => {
    // Written as the object writes it (INSERT: a session used only within its first 30 s has no row yet).
    state.storage.kv.put("last_active", Date.now() - IDLE_TIMEOUT_MS - 1);
  });
}

/**
 * Runs the termination alarm now, or waits for the run the runtime already started (it was set
 * for "now"): a callback in the object waits behind the alarm's storage operations.
 */
export async function runTerminationAlarm(s: Session): Promise<void> {
  await runDurableObjectAlarm(sessionStub(s.sessionId));
  await runInDurableObject(sessionStub(s.sessionId), () => undefined);
}
