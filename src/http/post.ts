/**
 * POST /mcp in the Worker, the front door of both eras: checks the content type, the accepted
 * types and the body, parses it once, decides its era once (era.ts), and hands it to its lane:
 * lane-2025.ts (initialize, sessions, stateless) or lane-2026.ts (one claimed request).
 */
import { parseBody } from "../jsonrpc/parse";
import { is2026Version } from "../mcp/definition/versions";
import { HEADER_PROTOCOL_VERSION } from "../wire/headers";
import { acceptRefusal, contentTypeRefusal, readBody } from "../wire/request-checks";
import { refuse, refuse2026 } from "../wire/refusals";
import { claimedRequestId, decideEra } from "./era";
import { accept2026Notification, serve2026 } from "./lane-2026";
import { warnIfNoStateSecret } from "./state-secret";
import { serve2025 } from "./lane-2025";
import type { EdgeEnv } from "./runtime";
import type { EdgeRequest } from "./edge-request";
import { MisconfiguredError } from "../platform/bindings";
import { reportUnexpected } from "../mcp/operations/unexpected";
import type { RequestId } from "../jsonrpc/messages";

/**
 * `edge`: the request's one value (edge-request.ts), its principal checked by the router first.
 * A deployment mistake met on the way (a missing binding) is answered with the request's id.
 */
export async function handlePost<Env>(edge: EdgeRequest<Env>): Promise<Response> {
  let id: RequestId | null = null;
  try {
    return await servePost(edge, (readable) => {
      id = readable;
    });
  } catch (error) {
    if (error instanceof MisconfiguredError) return refuse(error.refusal, id);
    // The last resort, with the request's id: a Durable Object that failed or was reset, a bug.
    return refuse({ reason: "internal", reference: reportUnexpected(`POST (id ${JSON.stringify(id)})`, error) }, id);
  }
}

async function servePost<Env>(edge: EdgeRequest<Env>, readId: (id: RequestId | null) => void): Promise<Response> {
  const { request, env, runtime } = edge;
  const early = contentTypeRefusal(request) ?? acceptRefusal(request, ["application/json", "text/event-stream"]);
  const body = await readBody(request, runtime.options.maxBodyBytes);
  if (!body.ok) {
    if (early) return refuse(early);
    // Unread, the body cannot say its era: a 2026-07-28 version header gets that era's limit code.
    const claims2026 = is2026Version(request.headers.get(HEADER_PROTOCOL_VERSION));
    return claims2026 ? refuse2026({ reason: "payload-too-large", limit: runtime.options.maxBodyBytes }, undefined) : body.response;
  }
  const parsed = parseBody(body.text);
  // The body is read even for a refused Content-Type or Accept, only so that a refused 2026 request gets its own id back.
  if (early) return parsed.ok && claimedRequestId(parsed) !== undefined ? refuse2026(early, claimedRequestId(parsed)) : refuse(early);
  if (!parsed.ok)
    return refuse({ reason: "unparsable", code: parsed.error.code as -32700 | -32600 | -32602, message: parsed.error.message });
  if (!parsed.batch && !parsed.entry.ok) {
    return refuse(
      { reason: "unparsable", code: parsed.entry.error.code as -32700 | -32600 | -32602, message: parsed.entry.error.message },
      parsed.entry.id,
    );
  }
  // The era is decided here, once, from the body (DESIGN.md "Protocol eras on one endpoint"); the header never decides it.
  if (!parsed.batch && parsed.entry.ok && "id" in parsed.entry.message) readId(parsed.entry.message.id);
  // The session endpoint needs the session binding whatever the era (router.ts): checked here, where the id is known.
  if (edge.sessions) runtime.sessionNamespace(env as Env & EdgeEnv);
  const decision = decideEra(request.headers, parsed, runtime.options);
  switch (decision.era) {
    case "refused":
      return decision.era2026 ? refuse2026(decision.refusal, decision.id) : refuse(decision.refusal, decision.id);
    case "2026":
      warnIfNoStateSecret(runtime, env);
      // Its rate limits are checked in the lane, where a later round of an MRTR call is told from a new call.
      return serve2026(edge as EdgeRequest<Env & EdgeEnv>, decision);
    case "2026-notification":
      // 2026-07-28 Streamable HTTP "Sending Messages": an accepted notification is 202; this revision defines none
      // to act on, an extension may (defineNotification).
      return accept2026Notification(edge, decision.message);
    case "2025":
      return serve2025(edge, { parsed, text: body.text });
  }
}
