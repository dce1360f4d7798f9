/** docs/server.md's example, type-checked so the manual stays true (not run as a test). */
import { z } from "zod";
import { createMcpEdge, defineServer, text, toolError, type EdgeEnv } from "../../src/index";
import { sessions } from "../../src/features/sessions/index";

interface Env extends EdgeEnv {
  NOTES: KVNamespace;
}

const server = defineServer<Env>({
  name: "notes",
  version: "1.0.0",
  instructions: "Stores short notes. Use search_notes before add_note to avoid duplicates.",
});

// A simple tool: runs in the Worker, answered as JSON. Its context can read the request
// (env, signal, session, _meta) but cannot send anything to the client.
server.tool(
  "add_note",
  {
    description: "Store a note",
    input: z.object({ id: z.string(), body: z.string().max(10_000) }), // or a raw JSON Schema object
    output: z.object({ stored: z.boolean() }), // optional: outputSchema
    annotations: { idempotentHint: true },
  },
  async ({ id, body }, ctx) => {
    await ctx.env.NOTES.put(id, body);
    return { content: [text(`stored ${id}`)], structuredContent: { stored: true } };
  },
);

// An interactive tool: runs in the session's Durable Object and answers over SSE.
server.interactiveTool(
  "summarise_notes",
  { description: "Summarise all notes with the client's model", input: z.object({ maxWords: z.number().int() }) },
  async ({ maxWords }, ctx) => {
    await ctx.log("info", "listing notes");
    const { keys } = await ctx.env.NOTES.list();
    let done = 0;
    for (const key of keys) await ctx.progress(++done, keys.length, key.name); // only sent if the client asked for progress
    const answer = await ctx.sample({
      messages: [
        { role: "user", content: { type: "text", text: `Summarise in ${maxWords} words: ${keys.map((k) => k.name).join(", ")}` } },
      ],
      maxTokens: 400,
    });
    if (answer.content.type !== "text") return toolError("the model answered without text");
    return { content: [text(answer.content.text)] };
  },
);

server.resource("notes://index", { name: "Index", mimeType: "application/json" }, async (uri, ctx) => {
  const { keys } = await ctx.env.NOTES.list();
  return { uri, text: JSON.stringify(keys.map((k) => k.name)) };
});

server.resourceTemplate(
  "notes://{id}",
  {
    name: "Note",
    mimeType: "text/plain",
    complete: { id: async (prefix, ctx) => (await ctx.env.NOTES.list({ prefix })).keys.map((k) => k.name) },
  },
  async (uri, { id }, ctx) => ({ uri, text: (await ctx.env.NOTES.get(id!)) ?? "" }),
);

server.prompt("review_note", { description: "Review one note", arguments: [{ name: "id", required: true }] }, async ({ id }) => ({
  messages: [{ role: "user", content: { type: "text", text: `Review note ${id}` } }],
}));

const edge = createMcpEdge(server, { features: [sessions()], allowedHosts: ["notes.example.workers.dev"] });
export const readmeWorker = edge.worker;
export const { McpSession: ReadmeSession } = edge.objects;
