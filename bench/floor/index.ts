/**
 * The benchmark's floor Worker: what the platform costs before any MCP runtime does anything.
 * Every POST reads and parses its body and answers a fixed small JSON-RPC result (the echo
 * tool's answer); DELETE answers 204; POST /sse?count=N answers with N hand-formatted progress
 * notifications on an SSE stream, then the result; POST /do-sse?count=N&object=K does the same
 * from Durable Object K (the platform's cost of the session lane: a hop to an object and an SSE
 * reply, with no storage). POST /do-init creates a new Durable Object and stores one row in it
 * (answering its id in Mcp-Session-Id), and DELETE with that header deletes the object's
 * storage: the platform's cost of a session's life. No routing library, no validation.
 */
import { DurableObject } from "cloudflare:workers";

interface Env {
  FLOOR_OBJECT: DurableObjectNamespace<FloorObject>;
}

const encoder = new TextEncoder();
const RESULT = { content: [{ type: "text", text: "hello" }] };

function idOf(body: unknown): unknown {
  return typeof body === "object" && body !== null && "id" in body ? (body as { id: unknown }).id : null;
}

function streamProgress(id: unknown, count: number): Response {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  // One write per event, as a runtime that sends each notification when it happens would do.
  for (let i = 1; i <= count; i++) {
    const frame = `id: 1_${i}\nevent: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":${i},"total":${count}}}\n\n`;
    void writer.write(encoder.encode(frame));
  }
  const result = JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: `done ${count}` }] } });
  void writer.write(encoder.encode(`id: 1_${count + 1}\nevent: message\ndata: ${result}\n\n`));
  void writer.close();
  return new Response(readable, { headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" } });
}

async function parse(request: Request): Promise<{ ok: true; body: unknown } | { ok: false }> {
  try {
    return { ok: true, body: JSON.parse(await request.text()) };
  } catch {
    return { ok: false };
  }
}

const parseError = () => Response.json({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }, { status: 400 });

export class FloorObject extends DurableObject {
  override async fetch(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (path === "/do-init") {
      const text = await request.text();
      this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS session (state TEXT NOT NULL)");
      this.ctx.storage.sql.exec("INSERT INTO session (state) VALUES (?)", text);
      return new Response(JSON.stringify({ jsonrpc: "2.0", id: 0, result: {} }), { headers: { "Content-Type": "application/json" } });
    }
    if (request.method === "DELETE") {
      await this.ctx.storage.deleteAll();
      return new Response(null, { status: 204 });
    }
    const parsed = await parse(request);
    if (!parsed.ok) return parseError();
    return streamProgress(idOf(parsed.body), Number(new URL(request.url).searchParams.get("count") ?? "1"));
  }
}

export default {
  async fetch(request, env): Promise<Response> {
    const sessionId = request.headers.get("Mcp-Session-Id");
    if (request.method === "DELETE") {
      // The session-creation flow ends with DELETE: a /do-init object's storage is deleted.
      if (sessionId === null) return new Response(null, { status: 204 });
      return env.FLOOR_OBJECT.get(env.FLOOR_OBJECT.idFromString(sessionId)).fetch(request);
    }
    if (request.method !== "POST") return new Response("floor: POST and DELETE only", { status: 405 });
    const url = new URL(request.url);
    if (url.pathname === "/do-init") {
      const id = env.FLOOR_OBJECT.newUniqueId();
      const response = await env.FLOOR_OBJECT.get(id).fetch(request);
      return new Response(response.body, {
        status: response.status,
        headers: { "Content-Type": "application/json", "Mcp-Session-Id": id.toString() },
      });
    }
    if (url.pathname === "/do-sse") {
      const object = env.FLOOR_OBJECT.get(env.FLOOR_OBJECT.idFromName(url.searchParams.get("object") ?? "0"));
      return object.fetch(request);
    }
    const parsed = await parse(request);
    if (!parsed.ok) return parseError();
    if (url.pathname === "/sse") return streamProgress(idOf(parsed.body), Number(url.searchParams.get("count") ?? "1"));
    return new Response(JSON.stringify({ jsonrpc: "2.0", id: idOf(parsed.body), result: RESULT }), {
      headers: { "Content-Type": "application/json" },
    });
  },
} satisfies ExportedHandler<Env>;
