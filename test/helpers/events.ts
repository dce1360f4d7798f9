/**
 * Front-door helpers for the Events extension's tests (test/events): its methods as a 2026-07-28
 * client that declared the extension sends them, and the same in a 2025-11-25 session.
 */
import { expect } from "vitest";
import { post2026 } from "./era-2026";
import { post } from "./mcp";
import type { RpcReply } from "./rpc-expect";
import type { Session } from "./session";

export const EVENTS = "io.modelcontextprotocol/events";
export const DECLARED = { extensions: { [EVENTS]: {} } };

/** One 2026-07-28 request of the extension, from a client that declared it (unless `capabilities` says otherwise). */
export function events2026(
  method: string,
  params: Record<string, unknown> = {},
  capabilities: Record<string, unknown> = DECLARED,
): Promise<Response> {
  return post2026(method, params, { capabilities });
}

/** One request in a 2025-era session. */
export function eventsInSession(s: Session, method: string, params: Record<string, unknown> = {}): Promise<Response> {
  return post({ jsonrpc: "2.0", id: 1, method, params }, { sessionId: s.sessionId, version: s.version });
}

/** The JSON-RPC answer of a 200 response. */
export async function replyOf(res: Response): Promise<RpcReply> {
  expect(res.status).toBe(200);
  return (await res.json()) as RpcReply;
}

/** The result of a 200 answer that must not be an error. */
export async function resultOf(res: Response): Promise<Record<string, unknown>> {
  const reply = await replyOf(res);
  expect(reply.error).toBeUndefined();
  return reply.result as Record<string, unknown>;
}

/** An events/poll result, typed. */
export interface PollResult {
  events: { eventId: string; name: string; timestamp: string; data: Record<string, unknown>; cursor?: string | null }[];
  cursor: string | null;
  truncated: boolean;
  hasMore: boolean;
  nextPollMs: number;
}

export async function poll2026(params: Record<string, unknown>): Promise<PollResult> {
  return (await resultOf(await events2026("events/poll", params))) as unknown as PollResult;
}
