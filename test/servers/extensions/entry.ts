/**
 * Test-only Worker: a vendor extension (`com.example/notes`) written only with the public API, as
 * docs/extensions.md shows it: gated methods (simple and interactive), an ungated one, a client
 * notification, a middleware that records what it wraps, a rate limit rule, operation events and tracing.
 * The Worker and its session objects run in the tests' isolate, so the tests read what is recorded here.
 */
import { z } from "zod";
import { createMcpEdge, defineServer, type OperationEvent } from "../../../src/index";
import { defineInteractiveMethod, defineMethod, defineNotification } from "../../../src/extensions";
// The operate fixture's in-memory stand-in for @opentelemetry/api (this project's isolate has its own copy).
import { memoryOtel } from "../operate/memory-tracer";
import { sessions } from "../../../src/features/sessions/index";

export const NOTES = "com.example/notes";

/** What the middleware wrapped, in order (`mw>method`, `<mw`). */
export const trail: string[] = [];
/** The notifications the server heard: their note, era and session. */
export const heard: { note: string; era: string; session: string | undefined }[] = [];
/** Every operation event (the cost counters). */
export const events: OperationEvent[] = [];

const server = defineServer({ name: "extensions-test", version: "1.0.0", extensions: { [NOTES]: { maxLength: 140 } } })
  .use(async (call, next) => {
    trail.push(`mw>${call.method}`);
    const result = await next();
    trail.push("<mw");
    return result;
  })
  // Gated on the extension, params by a zod shape.
  .add(
    defineMethod("com.example/notes/add", { extension: NOTES, params: { text: z.string().min(1).max(140) } }, (params, ctx) => ({
      added: params.text,
      era: ctx.era,
      tenant: ctx.request?.headers.get("X-Tenant") ?? null,
    })),
  )
  // Ungated, params by plain JSON Schema.
  .add(
    defineMethod(
      "com.example/echo",
      { params: { type: "object", properties: { word: { type: "string" } }, required: ["word"], additionalProperties: false } },
      (params) => ({ word: params.word }),
    ),
  )
  .add(defineMethod("com.example/notes/limited", { extension: NOTES }, () => ({ ok: true })))
  // Asks the user, then tells the client about it with a notification of the extension's own.
  .add(
    defineInteractiveMethod(
      "com.example/notes/confirm",
      { extension: NOTES, params: z.object({ text: z.string() }) },
      async (params, ctx) => {
        const answer = await ctx.elicit(`Save "${params.text}"?`, { save: z.boolean() });
        const saved = answer.action === "accept" && answer.content.save;
        await ctx.notify("notifications/com.example/notes/saved", { text: params.text, saved });
        return { saved };
      },
    ),
  )
  // Asks the client a request of the extension's own; its answer comes back as the client sent it.
  .add(
    defineInteractiveMethod("com.example/notes/sync", { extension: NOTES }, async (_params, ctx) => {
      const answer = await ctx.ask("com.example/notes/list", { since: 0 });
      return { count: Array.isArray(answer.notes) ? answer.notes.length : -1 };
    }),
  )
  .add(
    defineNotification("notifications/com.example/notes/seen", { extension: NOTES, params: { note: z.string() } }, (params, ctx) => {
      heard.push({ note: params.note, era: ctx.era, session: ctx.session?.id });
    }),
  );

const edge = createMcpEdge(server, {
  features: [sessions()],
  statelessPath: "/stateless/mcp",
  onEvent: (event) => events.push(event),
  tracing: { api: memoryOtel },
  rateLimits: [{ binding: "NOTES_LIMIT", match: (call) => call.method === "com.example/notes/limited" }],
});

export default edge.worker;
export const { McpSession } = edge.objects;
