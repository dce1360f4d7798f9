/**
 * Plain HTTP answers shared by both lanes (the Worker and the Durable Objects): a JSON body, and
 * 202 with no body. Refusals are built from these by refusals.ts; SSE responses live in sse.ts.
 */

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
}

/** 2025-06-18 Streamable HTTP: notifications and responses only -> 202 with no body. */
export function accepted(): Response {
  return new Response(null, { status: 202 });
}
