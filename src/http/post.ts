/**
 * POST /mcp in the Worker. Checks the request, parses it once, and then: answers
 * `initialize` (creating the session object in session mode); forwards an exchange that
 * needs the session to its object, body and all; or answers simple requests right here —
 * after one `confirm` call to the session object in session mode.
 */
import { errorMessage, resultMessage, toWire, type RequestMessage, type ResponseMessage } from "../jsonrpc/messages";
import { parseBody } from "../jsonrpc/parse";
import type { Channel, SessionInfo, SessionState } from "../mcp/context";
import { dispatchContext, dispatchRequest, toErrorObject, type DispatchContext } from "../mcp/dispatch";
import { messagesOf, replyBody, toExchange, type Exchange } from "../mcp/exchange";
import { limitRuns } from "../mcp/run-limits";
import { initialize } from "../mcp/handlers/initialize";
import { needsSession } from "../mcp/routing";
import { planAnswer } from "../mcp/answer-plan";
import { sessionObjectId } from "../mcp/session-id";
import { DEFAULT_HEADER_VERSION, isSupportedVersion } from "../mcp/versions";
import type { EdgeRuntime } from "./runtime";
import { acceptRefusal, checkProtocolVersionHeader, contentTypeRefusal, readBody } from "./guards";
import { HEADER_PROTOCOL_VERSION, HEADER_SESSION_ID } from "../wire/headers";
import { accepted, json } from "../wire/json";
import { refuse, refuseModern } from "../wire/refusals";
import { claimedRequestId, decideEra } from "./era";
import { serveModern, warnIfNoStateSecret } from "./modern";
import type { EdgeEnv } from "./runtime";
import { streamReply } from "./sse-reply";
import { checkScopes } from "../auth/authenticate";
import type { Principal } from "../auth/principal";
import { forwardPost } from "./forward";
import { requestInfo } from "../mcp/request-info";
import { rateLimited } from "./rate-limits";

/** `principal`: who sent the request, when the server has auth (checked by the router first). */
export async function handlePost<Env>(
  request: Request,
  env: Env,
  rt: EdgeRuntime<Env>,
  sessions: boolean,
  principal?: Principal,
): Promise<Response> {
  const early = contentTypeRefusal(request) ?? acceptRefusal(request, ["application/json", "text/event-stream"]);
  const body = await readBody(request, rt.options.maxBodyBytes);
  if (!body.ok) return early ? refuse(early) : body.response;
  const parsed = parseBody(body.text);
  // The body is read even for a refused Content-Type or Accept, only so that a refused 2026 request gets its own id back.
  if (early) return parsed.ok && claimedRequestId(parsed) !== undefined ? refuseModern(early, claimedRequestId(parsed)) : refuse(early);
  if (!parsed.ok) return refuse({ reason: "unparsable", code: parsed.error.code as -32700 | -32600, message: parsed.error.message });
  if (!parsed.batch && !parsed.entry.ok) {
    return refuse(
      { reason: "unparsable", code: parsed.entry.error.code as -32700 | -32600, message: parsed.entry.error.message },
      parsed.entry.id,
    );
  }
  // The era is decided here, once, from the body (DESIGN.md "Two eras on one endpoint"); the header never decides it.
  const decision = decideEra(request.headers, parsed, rt.options);
  switch (decision.era) {
    case "refused":
      return decision.modern ? refuseModern(decision.refusal, decision.id) : refuse(decision.refusal, decision.id);
    case "2026":
      warnIfNoStateSecret(rt, env);
      return (
        (await rateLimited(rt.options.rateLimits, env, request, [decision.message], principal, true)) ??
        serveModern(
          request.headers,
          decision.message,
          decision.envelope,
          env as Env & EdgeEnv,
          rt as EdgeRuntime<Env & EdgeEnv>,
          principal,
          requestInfo(request),
        )
      );
    case "2026-notification":
      // 2026-07-28 Streamable HTTP "Sending Messages": an accepted notification is 202; this revision defines none to act on.
      return accepted();
    case "2025":
      break;
  }
  const badVersion = checkProtocolVersionHeader(request);
  if (badVersion) return badVersion;
  const exchange = toExchange(parsed);
  // Auth: per-tool / per-resource scopes, before anything runs or is forwarded (403 insufficient_scope).
  if (principal && rt.options.auth) {
    const denied = checkScopes(exchange.requests, principal, rt.options.auth);
    if (denied) return denied;
  }
  const limited = await rateLimited(rt.options.rateLimits, env, request, exchange.requests, principal);
  if (limited) return limited;

  const init = exchange.requests.find((r) => r.method === "initialize");
  if (init) {
    // 2025-03-26 Lifecycle: the initialize request MUST NOT be part of a batch.
    if (exchange.batch) return refuse({ reason: "initialize-in-batch" }, init.id);
    return sessions ? initializeSession(init, env, rt, principal) : initializeStateless(init, rt);
  }

  if (!sessions) {
    const header = request.headers.get(HEADER_PROTOCOL_VERSION);
    const version = isSupportedVersion(header) ? header : DEFAULT_HEADER_VERSION;
    const dc = dispatchContext(rt.server, env, {
      era: "2025",
      sessions: false,
      session: undefined,
      protocolVersion: version,
      principal,
      request: requestInfo(request),
    });
    return answer(exchange, dc, rt.options.maxRunsPerRequest);
  }

  const sessionId = request.headers.get(HEADER_SESSION_ID);
  if (sessionId === null) {
    return refuse({ reason: "session-id-required", afterInitialize: true });
  }
  const namespace = rt.sessionNamespace(env);
  const id = sessionObjectId(namespace, sessionId);
  if (!id) return sessionNotFound();
  const stub = namespace.get(id);

  if (messagesOf(exchange).some((m) => needsSession(m, rt.server))) {
    // The body travels as a body, never through a header (bodies over ~16 KB break headers).
    // forwardPost: the principal, cf and the Worker's span go to the object in headers only the Worker sets.
    return forwardPost(rt.server, stub, request, body.text, principal, exchange.requests);
  }
  // Workers RPC types cannot express `unknown` fields; the object returns a SessionState or null.
  // Auth: the object refuses (null) a principal other than the session's creator; checked here again.
  const state = (await stub.confirm(principal?.subject)) as SessionState | null;
  if (state === null || state.subject !== principal?.subject) return sessionNotFound();
  const session: SessionInfo = { ...state, id: sessionId };
  const dc = dispatchContext(rt.server, env, {
    era: "2025",
    sessions: true,
    session,
    protocolVersion: state.protocolVersion,
    principal,
    request: requestInfo(request),
  });
  return answer(exchange, dc, rt.options.maxRunsPerRequest);
}

function sessionNotFound(): Response {
  return refuse({ reason: "session-not-found" });
}

/** Answers simple requests in the Worker: JSON, or (stateless, interactive tool) a one-shot SSE stream. */
async function answer<Env>(all: Exchange, dc: DispatchContext<Env>, maxRunsPerRequest: number): Promise<Response> {
  const plan = planAnswer(all, dc.protocolVersion, dc.server, (e) => limitRuns(e, { perRequest: maxRunsPerRequest }));
  if (plan.kind === "refuse") return refuse(plan.refusal);
  if (plan.kind === "accepted") return accepted();
  const { exchange } = plan;
  const signal = new AbortController().signal;
  if (plan.kind === "stream") {
    return streamReply(
      exchange.requests,
      exchange.invalid,
      (r: RequestMessage, channel: Channel) => dispatchRequest(r, { ...dc, channel }, signal),
      {},
    );
  }
  const responses = await Promise.all(exchange.requests.map((r) => dispatchRequest(r, dc, signal)));
  return json(replyBody(exchange, responses));
}

function initializeStateless<Env>(init: RequestMessage, rt: EdgeRuntime<Env>): Response {
  return json(toWire(runInitialize(init, rt, false).response));
}

function runInitialize<Env>(
  init: RequestMessage,
  rt: EdgeRuntime<Env>,
  sessions: boolean,
): { response: ResponseMessage; state?: SessionState } {
  try {
    const { result, state } = initialize(rt.server, init.params, sessions);
    return { response: resultMessage(init.id, result), state };
  } catch (error) {
    return { response: errorMessage(init.id, toErrorObject(error, init)) };
  }
}

async function initializeSession<Env>(
  init: RequestMessage,
  env: Env,
  rt: EdgeRuntime<Env>,
  principal: Principal | undefined,
): Promise<Response> {
  const { response, state } = runInitialize(init, rt, true);
  if (!state) return json(toWire(response));
  const namespace = rt.sessionNamespace(env);
  const id = namespace.newUniqueId();
  // Auth: the session is bound to the principal that created it.
  await namespace.get(id).init(principal ? { ...state, subject: principal.subject } : state);
  return json(toWire(response), 200, { [HEADER_SESSION_ID]: id.toString() });
}
