/**
 * Plays the client's part on an SSE answer until every request it carries is settled: answers
 * the server's requests (sampling, elicitation, roots) with the answers it is given, cancels a
 * call that streams on and on (a countdown, a long progress run), and resumes a 2025-11-25 stream
 * the server closed early. Waits on events, never on time.
 */
import { expect } from "vitest";
import { SseReader, type SseEvent } from "../../helpers/sse";
import type { Session } from "../../helpers/session";
import { getStream, post } from "./direct";
import type { RpcId, RpcResponse } from "./documented";

/** Events after which a call still without a response is cancelled (progress runs may be 100,000 long). */
const CANCEL_AFTER_EVENTS = 40;
/** A stream the server closes early (2025-11-25 SSE polling) is resumed at most this often. */
const MAX_RESUMES = 5;

export interface Driven {
  events: SseEvent[];
  /** Responses by request id, in arrival order (a duplicated response shows up as two). */
  responses: Map<string, RpcResponse[]>;
  /** Ids of the calls this driver cancelled: they may end without a response. */
  cancelled: Set<string>;
  /** Server-to-client requests seen and answered. */
  serverRequests: number;
}

export const idKey = (id: unknown): string => JSON.stringify(id);

function isResponse(json: Record<string, unknown> | undefined): boolean {
  return json !== undefined && !("method" in json) && ("result" in json || "error" in json);
}

/**
 * Reads `res` (an SSE answer to a POST carrying `ids`) until each id has a response or was
 * cancelled. `answerFor` gives the body the client POSTs back for each server request.
 */
export async function driveStream(
  s: Session,
  res: Response,
  ids: readonly RpcId[],
  answerFor: (request: Record<string, unknown>, index: number) => unknown,
): Promise<Driven> {
  const driven: Driven = { events: [], responses: new Map(), cancelled: new Set(), serverRequests: 0 };
  const open = () => ids.filter((id) => !driven.responses.has(idKey(id)) && !driven.cancelled.has(idKey(id)));
  let reader = new SseReader(res);
  let resumes = 0;
  let sinceResponse = 0;
  for (;;) {
    const event = await reader.next();
    if (event === undefined) {
      // The stream ended: fine once everything is settled; a stream closed early is resumed.
      const lastId = [...driven.events].reverse().find((e) => e.id !== undefined)?.id;
      if (open().length === 0 || lastId === undefined || resumes >= MAX_RESUMES || s.version < "2025-11-25") break;
      resumes += 1;
      const resumed = await getStream(s, lastId);
      expect(resumed.status, `resume with ${lastId}`).toBe(200);
      reader = new SseReader(resumed);
      continue;
    }
    driven.events.push(event);
    const json = event.json;
    if (json === undefined) continue; // priming event
    if (isResponse(json)) {
      const key = idKey(json.id);
      driven.responses.set(key, [...(driven.responses.get(key) ?? []), json as unknown as RpcResponse]);
      sinceResponse = 0;
      continue;
    }
    if (typeof json.method === "string" && "id" in json) {
      const answer = answerFor(json, driven.serverRequests++);
      const ack = await post(answer, s);
      expect(ack.status, `answer to ${json.method}: ${await ack.clone().text()}`).toBe(202);
      await ack.body?.cancel();
      continue;
    }
    sinceResponse += 1;
    if (sinceResponse === CANCEL_AFTER_EVENTS) {
      for (const id of open()) {
        driven.cancelled.add(idKey(id));
        const ack = await post(
          { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "fuzz: too long" } },
          s,
        );
        expect(ack.status).toBe(202);
        await ack.body?.cancel();
      }
    }
  }
  await reader.cancel();
  return driven;
}

/** The client's default answers: what a cooperative client would say to each kind of request. */
export function cooperativeAnswer(request: Record<string, unknown>): unknown {
  const id = request.id;
  switch (request.method) {
    case "sampling/createMessage":
      return { jsonrpc: "2.0", id, result: { role: "assistant", content: { type: "text", text: "ok" }, model: "fuzz" } };
    case "elicitation/create":
      return { jsonrpc: "2.0", id, result: { action: "decline" } };
    case "roots/list":
      return { jsonrpc: "2.0", id, result: { roots: [] } };
    default:
      return { jsonrpc: "2.0", id, result: {} };
  }
}
