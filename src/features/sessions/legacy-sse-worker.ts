/**
 * The 2024-11-05 HTTP+SSE transport's Worker half (the `legacySse()` feature, legacy-sse.ts): the router
 * hands it each request to the transport's paths through the kernel's `legacy` seam, after the Host/Origin
 * check and auth. A GET on the stream path makes a session's object and holds its one stream; a POST on the
 * messages path is checked as the endpoint checks a POST (Content-Type, the body's size, its operations'
 * scopes, the features' `admit` checks) before it reaches that object, which answers 202. Its half in the
 * session object is durable-objects/sessions/legacy-transport.ts.
 */
import type { LegacySseCall } from "../../kernel/legacy-sse-seam";
import { admitRefusal } from "../../kernel/kernel";
import { sessionStreamHold } from "../../kernel/session-streams";
import { parseBody } from "../../jsonrpc/parse";
import { toExchange } from "../../mcp/dispatch/exchange";
import { sessionObjectId } from "../../platform/addresses";
import { holdStream, upgradeInit } from "../../platform/held-stream";
import { checkAccept, checkContentType, readBody } from "../../wire/request-checks";
import { refuse } from "../../wire/refusals";
import { LEGACY_SESSION_ID_REQUIRED, LEGACY_SESSION_NOT_FOUND } from "../../wire/legacy-sse-refusals";
import { NO_PARAMS } from "../../wire/route-params";
import type { Principal } from "../../auth/principal";
import {
  encodePrincipal,
  HEADER_LEGACY_ENDPOINT,
  HEADER_PRINCIPAL,
  LEGACY_OPEN_URL,
  LEGACY_POST_URL,
} from "../../../durable-objects/sessions/contract";

/** The seam's Worker half: the router hands over only a GET on the stream path and a POST on the messages path. */
export async function serveLegacy<Env>(call: LegacySseCall<Env>, messagesPath: string): Promise<Response> {
  if (call.request.method === "GET") return checkAccept(call.request, ["text/event-stream"]) ?? openLegacyStream(call, messagesPath);
  return checkContentType(call.request) ?? postLegacyMessage(call);
}

/** Auth: the principal header for the session object (these internal requests never carry client headers). */
function principalHeaders(principal: Principal | undefined): Record<string, string> {
  return principal ? { [HEADER_PRINCIPAL]: encodePrincipal(principal) } : {};
}

/** GET /sse: a new session and its one stream, whose first event names the messages path to POST to. */
async function openLegacyStream<Env>(call: LegacySseCall<Env>, messagesPath: string): Promise<Response> {
  const { env, runtime, principal } = call;
  const namespace = runtime.sessionNamespace(env);
  const id = namespace.newUniqueId();
  const endpoint = `${messagesPath}?sessionId=${id.toString()}`;
  // The stream is held in the Worker; the session object sleeps behind its socket between messages (src/platform/held-stream.ts).
  const headers = { [HEADER_LEGACY_ENDPOINT]: endpoint, ...principalHeaders(principal) };
  const answer = await namespace.get(id).fetch(new Request(LEGACY_OPEN_URL, upgradeInit({ method: "GET", headers })));
  return holdStream(answer, sessionStreamHold(runtime.kernel.options, principal, "sse"));
}

/** POST /messages?sessionId=…: one message for the session's object, answered 202 there; its responses go on the stream. */
async function postLegacyMessage<Env>(call: LegacySseCall<Env>): Promise<Response> {
  const sessionId = new URL(call.request.url).searchParams.get("sessionId");
  if (sessionId === null) return refuse(LEGACY_SESSION_ID_REQUIRED);
  const namespace = call.runtime.sessionNamespace(call.env);
  const id = sessionObjectId(namespace, sessionId);
  if (!id) return refuse(LEGACY_SESSION_NOT_FOUND);
  const body = await readBody(call.request, call.runtime.kernel.options.maxBodyBytes);
  if (!body.ok) return body.response;
  // Scopes and rate limits are HTTP answers: checked before the 202 and before the session object is reached.
  const refused = await admissionRefusal(call, body.text);
  if (refused) return refused;
  return namespace.get(id).fetch(
    new Request(LEGACY_POST_URL, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...principalHeaders(call.principal) },
      body: body.text,
    }),
  );
}

/**
 * The body, not parsed yet, checked as the endpoint's POST is: its operations' scopes (with auth) and the
 * features' `admit` checks; parsed only when one checks. A body that does not parse is the object's to refuse.
 */
async function admissionRefusal<Env>(call: LegacySseCall<Env>, body: string): Promise<Response | undefined> {
  const { runtime, principal, env } = call;
  const kernel = runtime.kernel;
  const gate = principal === undefined ? undefined : kernel.gate;
  const admits = kernel.features.some((f) => f.admit);
  if (!gate && !admits) return undefined;
  const parsed = parseBody(body);
  if (!parsed.ok) return undefined;
  const requests = toExchange(parsed).requests;
  // The transport's paths name no route parameters.
  const missingScopes = gate && (await gate.refuseMissingScopes({ server: kernel.server, env, principal, params: NO_PARAMS }, requests));
  if (missingScopes) return missingScopes;
  if (!admits) return undefined;
  return admitRefusal(kernel, { requests, era: "2025", principal, request: call.info, env, clientKey: call.clientKey });
}
