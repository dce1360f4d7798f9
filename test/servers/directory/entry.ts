/**
 * Test-only Worker: a server ready for the directories (docs/publishing.md), written with the public
 * API only, for `mcp-edge doctor --directory` (test/e2e/doctor/doctor.test.ts). Every tool has a title
 * and its three hints; the server has an icon; search and fetch are the deep-research pair (the
 * recipe docs/publishing.md shows); the MCP App page names its own domain; the ChatGPT domain check's
 * token is served by the fallback.
 */
import { z } from "zod";
import { createMcpEdge, defineServer, text, type EdgeEnv } from "../../../src/index";
import { sessions } from "../../../src/features/sessions/index";
import { uiResource } from "../../../src/features/apps/index";

const DOCS = [
  { id: "doc-1", title: "Getting started", url: "https://docs.example.com/start", text: "Install, then run npm test." },
  { id: "doc-2", title: "Deploying", url: "https://docs.example.com/deploy", text: "npx wrangler deploy, then mcp-edge doctor." },
];
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };

const server = defineServer<EdgeEnv>({
  name: "com.example/directory-ready",
  version: "1.0.0",
  description: "A server ready for the directories",
  icons: [{ src: "https://docs.example.com/icon.png", mimeType: "image/png", sizes: ["64x64"] }],
});

server.tool(
  "search",
  {
    title: "Search the docs",
    description: "Searches the documentation; returns matching documents' ids, titles and URLs",
    input: { query: z.string() },
    output: z.object({ results: z.array(z.object({ id: z.string(), title: z.string(), url: z.string() })) }),
    annotations: READ_ONLY,
  },
  ({ query }) => {
    const words = query.toLowerCase().split(/\s+/);
    const hits = DOCS.filter((d) => words.some((w) => `${d.title} ${d.text}`.toLowerCase().includes(w)));
    const results = hits.map(({ id, title, url }) => ({ id, title, url }));
    return { content: [text(JSON.stringify({ results }))], structuredContent: { results } };
  },
);

server.tool(
  "fetch",
  {
    title: "Fetch a document",
    description: "Fetches one document's full text by the id search returned",
    input: { id: z.string() },
    output: z.object({ id: z.string(), title: z.string(), text: z.string(), url: z.string() }),
    annotations: READ_ONLY,
  },
  ({ id }) => {
    const doc = DOCS.find((d) => d.id === id);
    if (!doc) throw new Error(`no document ${id}`);
    return { content: [text(JSON.stringify(doc))], structuredContent: doc };
  },
);

server.add(
  uiResource(
    "ui://directory-ready/board.html",
    { name: "board", title: "Board", domain: "https://board.docs.example.com" },
    () => "<!doctype html><title>Board</title>",
  ),
);

const edge = createMcpEdge(server, {
  features: [sessions()],
  // ChatGPT's domain check: the token its submission form gives (a placeholder here).
  fallback: (request) =>
    new URL(request.url).pathname === "/.well-known/openai-apps-challenge"
      ? new Response("doctor-test-challenge-token", { headers: { "Content-Type": "text/plain" } })
      : new Response("Not found", { status: 404 }),
});
export default edge.worker;
export const { McpSession } = edge.objects;
