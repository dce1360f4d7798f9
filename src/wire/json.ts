/**
 * Plain HTTP answers shared by both lanes (the Worker and the Durable Objects): a JSON body, and
 * 202 with no body. Refusals are built from these by refusals.ts; SSE responses live in sse.ts.
 */

const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ "Content-Type": "application/json" });

export function json(body: unknown, status = 200, headers?: Record<string, string>): Response {
  const all = headers === undefined ? JSON_HEADERS : { "Content-Type": "application/json", ...headers };
  return new Response(JSON.stringify(body), { status, headers: all });
}

/** 2025-06-18 Streamable HTTP: notifications and responses only -> 202 with no body. */
export function accepted(): Response {
  return new Response(null, { status: 202 });
}
