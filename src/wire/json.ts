/**
 * Plain HTTP answers shared by both lanes (the Worker and the Durable Objects): a JSON body, and
 * 202 with no body. Refusals are built from these by refusals.ts; SSE responses live in sse.ts.
 */

const OK: ResponseInit = Object.freeze({ status: 200 });

/**
 * A JSON answer with `Content-Type: application/json` (unless `headers` names another). Built by
 * `Response.json`, which serialises and sets the header natively: a Response from a string and a
 * header record costs the runtime about twice as much to build.
 */
export function json(body: unknown, status = 200, headers?: Record<string, string>): Response {
  return Response.json(body, headers === undefined ? (status === 200 ? OK : { status }) : { status, headers });
}

/** 2025-06-18 Streamable HTTP: notifications and responses only -> 202 with no body. */
export function accepted(): Response {
  return new Response(null, { status: 202 });
}
