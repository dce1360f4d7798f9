/**
 * The demo's event types (mcp-edge/events, docs/events.md): `demo.note.posted`, emitted by the
 * demo's inbound route (POST /events/notes, as a Stripe or GitHub webhook route would), and
 * `demo.clock.tick`, upstream-backed: its "upstream" is the clock, whose history is every tick
 * since the cursor, so poll and push need no storage at all. Both are offered in every mode.
 */
import { z } from "zod";
import { defineEvent, events } from "../features/events/index";

/** The most ticks one poll returns (a client days behind gets the newest ones and `truncated`). */
const MAX_TICKS = 100;

const notePosted = defineEvent("demo.note.posted", {
  description: "A note was posted to the demo (POST /events/notes with {text, topic?}); subscribe to one topic or to all",
  input: { topic: z.string().min(1).max(64).optional().describe("Only notes posted under this topic") },
  payload: z.object({ text: z.string(), topic: z.string().optional() }),
});

const clockTick = defineEvent("demo.clock.tick", {
  description: "The clock ticked: one event every `everySeconds` (an upstream read on each poll, nothing stored)",
  input: { everySeconds: z.number().int().min(5).max(3600).default(60).describe("The tick interval in seconds") },
  payload: z.object({ tick: z.number().int(), at: z.string() }),
  nextPollMs: 5_000,
  poll: ({ everySeconds }, cursor) => {
    const periodMs = everySeconds * 1000;
    const now = Math.floor(Date.now() / periodMs);
    // The cursor is the last tick delivered; null starts from now.
    const last = cursor === null ? now : Number.parseInt(cursor, 10);
    if (!Number.isSafeInteger(last)) return { events: [], cursor: String(now) };
    const first = Math.max(last + 1, now - MAX_TICKS + 1);
    const events = [];
    for (let tick = first; tick <= now; tick++) {
      const at = new Date(tick * periodMs).toISOString();
      events.push({ eventId: `tick-${everySeconds}-${tick}`, timestamp: at, data: { tick, at } });
    }
    return { events, cursor: String(now) };
  },
});

/** The demo's Events feature: passed to createMcpEdge in worker.ts; its `emit` serves the notes route. */
export const demoEvents = events({ types: [notePosted, clockTick] });

/** POST /events/notes `{ text, topic? }`: emits `demo.note.posted` (what an inbound webhook route of a real server does). */
export async function postNote(request: Request, env: unknown): Promise<Response> {
  if (request.method !== "POST")
    return new Response('POST a JSON body {"text": "...", "topic": "..."}\n', { status: 405, headers: { Allow: "POST" } });
  const body = (await request.json().catch(() => undefined)) as { text?: unknown; topic?: unknown } | undefined;
  if (typeof body?.text !== "string" || (body.topic !== undefined && typeof body.topic !== "string"))
    return Response.json({ error: 'the body is {"text": string, "topic"?: string}' }, { status: 400 });
  const data = body.topic === undefined ? { text: body.text } : { text: body.text, topic: body.topic };
  const outcome = await demoEvents.emit(
    env,
    "demo.note.posted",
    data,
    body.topic === undefined ? {} : { arguments: { topic: body.topic } },
  );
  return Response.json({ eventId: outcome.eventId, streams: outcome.streams }, { status: 202 });
}
