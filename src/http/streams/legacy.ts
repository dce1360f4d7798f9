/**
 * The 2024-11-05 HTTP+SSE transport, for older clients: GET /sse opens a session and its one
 * stream, whose first event names the endpoint to POST to; each POST there is answered 202
 * and its responses travel on the stream. The session object serves both, so older clients
 * get every feature of a session. The Worker only mints the session and forwards.
 */
import { sessionObjectId } from "../../platform/addresses";
import { checkAccept, checkContentType, readBody } from "../guards";
import { refuse } from "../../wire/refusals";
import type { EdgeEnv } from "../runtime";
import type { EdgeRequest } from "../edge-request";

import {
  encodePrincipal,
  HEADER_LEGACY_ENDPOINT,
  HEADER_PRINCIPAL,
  LEGACY_OPEN_URL,
  LEGACY_POST_URL,
} from "../../../durable-objects/sessions/contract";
import { refuseMissingScopes } from "../operation-auth";
import type { Principal } from "../../auth/principal";
import { parseBody } from "../../jsonrpc/parse";
import { toExchange } from "../../mcp/dispatch/exchange";
import { bodyAdmissionRefusal } from "../admission";
import { holdStream, upgradeInit } from "../../platform/held-stream";
import { sessionStreamHold } from "./session-streams";

/** Auth: the principal header for the session object (these internal requests never carry client headers). */
function principalHeaders(principal: Principal | undefined): Record<string, string> {
  return principal ? { [HEADER_PRINCIPAL]: encodePrincipal(principal) } : {};
}

/** GET /sse: a new session and its one stream, whose first event names `messagesPath` to POST to. */
export async function openLegacyStream<Env extends EdgeEnv>(edge: EdgeRequest<Env>, messagesPath: string): Promise<Response> {
  const { request, env, runtime, principal } = edge;
  const refused = checkAccept(request, ["text/event-stream"]);
  if (refused) return refused;
  const namespace = runtime.sessionNamespace(env);
  const id = namespace.newUniqueId();
  const endpoint = `${messagesPath}?sessionId=${id.toString()}`;
  // The stream is held here; the session object sleeps behind its socket between messages (src/platform/held-stream.ts).
  const answer = await namespace
    .get(id)
    .fetch(
      new Request(
        LEGACY_OPEN_URL,
        upgradeInit({ method: "GET", headers: { [HEADER_LEGACY_ENDPOINT]: endpoint, ...principalHeaders(principal) } }),
      ),
    );
  return holdStream(answer, sessionStreamHold(runtime.options, principal, "sse"));
}

/** POST /messages?sessionId=…: one message for the session's object, answered 202 there; its responses go on the stream. */
export async function postLegacyMessage<Env extends EdgeEnv>(edge: EdgeRequest<Env>): Promise<Response> {
  const { request, env, runtime, principal } = edge;
  const refused = checkContentType(request);
  if (refused) return refused;
  const sessionId = new URL(request.url).searchParams.get("sessionId");
  if (sessionId === null) return refuse({ reason: "legacy-session-id-required" });
  const namespace = runtime.sessionNamespace(env);
  const id = sessionObjectId(namespace, sessionId);
  if (!id) return refuse({ reason: "session-not-found", legacy: true });
  const body = await readBody(request, runtime.options.maxBodyBytes);
  if (!body.ok) return body.response;
  if (principal && runtime.kernel.gate) {
    // Auth: per-tool / per-resource scopes are an HTTP answer, so they are checked before the 202.
    const parsed = parseBody(body.text);
    const denied = parsed.ok ? await refuseMissingScopes(edge, toExchange(parsed).requests) : undefined;
    if (denied) return denied;
  }
  // Rate limits: an HTTP answer too, before the 202 and before the session object is reached.
  const limited = await bodyAdmissionRefusal(edge, body.text);
  if (limited) return limited;
  return namespace.get(id).fetch(
    new Request(LEGACY_POST_URL, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...principalHeaders(principal) },
      body: body.text,
    }),
  );
}
