/**
 * Test-only Worker: the Events extension as a user passes it in (mcp-edge/events): an emitted
 * event (`note.posted`, arguments `{ topic? }`), an upstream-backed one (`ticket.opened`, whose
 * upstream is the `upstream` list below, readable by the tests: the Worker runs in their isolate),
 * one offered only by poll, one not offered by poll, a tool that emits, and a short heartbeat so a test sees several.
 */
import { z } from "zod";
import { createMcpEdge, defineServer } from "../../../src/index";
import { sessions } from "../../../src/features/sessions/index";
import { defineEvent, events } from "../../../src/features/events/index";

/** The fake upstream of `ticket.opened`: the tests append to it; its cursor is the index after the last one read. */
export const upstream: { id: string; queue: "support" | "sales"; title: string; at: string }[] = [];
/** How many times the author's poll ran (the tests count rounds, never time). */
export const upstreamReads = { count: 0 };
/** An error the author's poll throws on its next run (a test sets it), as an upstream that revoked access would. */
export const upstreamFailure: { next: Error | undefined } = { next: undefined };

const notePosted = defineEvent("note.posted", {
  description: "A note was posted, optionally under a topic",
  input: { topic: z.string().min(1).optional() },
  payload: z.object({ text: z.string() }),
  meta: { "com.example/category": "notes" },
});

const ticketOpened = defineEvent("ticket.opened", {
  description: "A ticket was opened upstream",
  delivery: ["poll", "push"],
  input: { queue: z.enum(["support", "sales"]) },
  payload: { type: "object", properties: { title: { type: "string" } }, required: ["title"] },
  nextPollMs: 1_000,
  poll: (args, cursor) => {
    upstreamReads.count++;
    const failure = upstreamFailure.next;
    upstreamFailure.next = undefined;
    if (failure) throw failure;
    const from = cursor === null ? upstream.length : Number(cursor);
    const events = upstream
      .slice(from)
      .filter((ticket) => ticket.queue === args.queue)
      .map((ticket) => ({ eventId: ticket.id, timestamp: ticket.at, data: { title: ticket.title } }));
    return { events, cursor: String(upstream.length) };
  },
});

const auditOnly = defineEvent("audit.logged", { description: "An audit line (poll only)", delivery: ["poll"] });
const deployFinished = defineEvent("deploy.finished", {
  description: "A deploy finished (push and webhook only)",
  delivery: ["push", "webhook"],
});

export const feature = events({
  types: [notePosted, ticketOpened, auditOnly, deployFinished],
  heartbeatMs: 300,
  maxStreams: 8,
  pageSize: 2,
  retention: { maxEvents: 5 },
});

const server = defineServer({ name: "events-test", version: "1.0.0" }).tool(
  "post_note",
  { description: "Posts a note (emits note.posted)", input: { text: z.string(), topic: z.string().optional() } },
  async ({ text, topic }, ctx) => {
    const outcome = await feature.emit(ctx.env, "note.posted", { text }, topic === undefined ? {} : { arguments: { topic } });
    return { content: [{ type: "text", text: `posted to ${outcome.streams} streams` }] };
  },
);

const edge = createMcpEdge(server, { statelessPath: "/stateless/mcp", features: [sessions(), feature] });

export default edge.worker;
export const { McpSession, McpEvents } = edge.objects;
