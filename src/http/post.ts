/**
 * POST /mcp in the Worker. Checks the request, parses it once, and then: answers
 * `initialize` (creating the session object in session mode); forwards an exchange that
 * needs the session to its object, body and all; or answers simple requests right here —
 * after one `confirm` call to the session object in session mode.
 */
import { INVALID_REQUEST, SESSION_NOT_FOUND, TRANSPORT_ERROR } from "../jsonrpc/errors";
import { errorMessage, resultMessage, toWire, type RequestMessage, type ResponseMessage } from "../jsonrpc/messages";
import { parseBody } from "../jsonrpc/parse";
import type { Channel, SessionInfo, SessionState } from "../mcp/context";
import { dispatchRequest, toErrorObject, type DispatchContext } from "../mcp/dispatch";
import { messagesOf, replyBody, toExchange, type Exchange } from "../mcp/exchange";
import { limitRuns } from "../mcp/run-limits";
import { initialize } from "../mcp/handlers/initialize";
import { isInteractiveCall, needsSession } from "../mcp/routing";
import { sessionObjectId } from "../mcp/session-id";
import { acceptsBatches, DEFAULT_HEADER_VERSION, isSupportedVersion } from "../mcp/versions";
import type { EdgeRuntime } from "./runtime";
import { checkAccept, checkContentType, checkProtocolVersionHeader, readBody } from "./guards";
import { HEADER_PROTOCOL_VERSION, HEADER_SESSION_ID } from "./headers";
import { accepted, json, rpcErrorResponse } from "./respond";
import { streamReply } from "./sse-reply";
import { checkScopes } from "../auth/authenticate";
import { forwardHeaders, type Principal } from "../auth/principal";

/** `principal`: who sent the request, when the server has auth (checked by the router first). */
export async function handlePost<Env>(request: Request, env: Env, rt: EdgeRuntime<Env>, sessions: boolean, principal?: Principal): Promise<Response> {
  const refused = checkContentType(request) ?? checkAccept(request, ["application/json", "text/event-stream"]) ?? checkProtocolVersionHeader(request);
  if (refused) return refused;
  const body = await readBody(request, rt.options.maxBodyBytes);
  if (!body.ok) return body.response;
  const parsed = parseBody(body.text);
  if (!parsed.ok) return rpcErrorResponse(400, parsed.error.code, parsed.error.message);
  if (!parsed.batch && !parsed.entry.ok) {
    return rpcErrorResponse(400, parsed.entry.error.code, parsed.entry.error.message, parsed.entry.id);
  }
  const exchange = toExchange(parsed);
  // Auth: per-tool / per-resource scopes, before anything runs or is forwarded (403 insufficient_scope).
  if (principal && rt.options.auth) {
    const denied = checkScopes(exchange.requests, principal, rt.options.auth);
    if (denied) return denied;
  }

  const init = exchange.requests.find((r) => r.method === "initialize");
  if (init) {
    // 2025-03-26 Lifecycle: the initialize request MUST NOT be part of a batch.
    if (exchange.batch) return rpcErrorResponse(400, INVALID_REQUEST, "Invalid Request: initialize must not be part of a batch", init.id);
    return sessions ? initializeSession(init, env, rt, principal) : initializeStateless(init, rt);
  }

  if (!sessions) {
    const header = request.headers.get(HEADER_PROTOCOL_VERSION);
    const version = isSupportedVersion(header) ? header : DEFAULT_HEADER_VERSION;
    return answer(exchange, { server: rt.server, env, sessions: false, session: undefined, protocolVersion: version, channel: undefined, ops: undefined, principal }, rt.options.maxRunsPerRequest);
  }

  const sessionId = request.headers.get(HEADER_SESSION_ID);
  if (sessionId === null) {
    return rpcErrorResponse(400, TRANSPORT_ERROR, `Bad Request: the ${HEADER_SESSION_ID} header is required after initialize`);
  }
  const namespace = rt.sessionNamespace(env);
  const id = sessionObjectId(namespace, sessionId);
  if (!id) return sessionNotFound();
  const stub = namespace.get(id);

  if (messagesOf(exchange).some((m) => needsSession(m, rt.server))) {
    // The body travels as a body, never through a header (bodies over ~16 KB break headers).
    // forwardHeaders: the principal goes to the object in a header only the Worker sets (a client's is removed).
    return stub.fetch(new Request(request.url, { method: "POST", headers: forwardHeaders(request.headers, principal), body: body.text }));
  }
  // Workers RPC types cannot express `unknown` fields; the object returns a SessionState or null.
  // Auth: the object refuses (null) a principal other than the session's creator; checked here again.
  const state = (await stub.confirm(principal?.subject)) as SessionState | null;
  if (state === null || state.subject !== principal?.subject) return sessionNotFound();
  const session: SessionInfo = { ...state, id: sessionId };
  return answer(exchange, { server: rt.server, env, sessions: true, session, protocolVersion: state.protocolVersion, channel: undefined, ops: undefined, principal }, rt.options.maxRunsPerRequest);
}

function sessionNotFound(): Response {
  return rpcErrorResponse(404, SESSION_NOT_FOUND, "Session not found: it expired or was terminated; send a new initialize request");
}

/** Answers simple requests in the Worker: JSON, or (stateless, interactive tool) a one-shot SSE stream. */
async function answer<Env>(all: Exchange, dc: DispatchContext<Env>, maxRunsPerRequest: number): Promise<Response> {
  if (all.batch && !acceptsBatches(dc.protocolVersion)) {
    return rpcErrorResponse(400, INVALID_REQUEST, `Invalid Request: JSON-RPC batches are not supported in protocol version ${dc.protocolVersion}`);
  }
  const exchange = limitRuns(all, { perRequest: maxRunsPerRequest });
  if (exchange.requests.length === 0) {
    return exchange.invalid.length === 0 ? accepted() : json(replyBody(exchange, []));
  }
  const signal = new AbortController().signal;
  if (exchange.requests.some((r) => isInteractiveCall(r, dc.server))) {
    return streamReply(exchange.requests, exchange.invalid, (r: RequestMessage, channel: Channel) => dispatchRequest(r, { ...dc, channel }, signal), {});
  }
  const responses = await Promise.all(exchange.requests.map((r) => dispatchRequest(r, dc, signal)));
  return json(replyBody(exchange, responses));
}

function initializeStateless<Env>(init: RequestMessage, rt: EdgeRuntime<Env>): Response {
  return json(toWire(runInitialize(init, rt, false).response));
}

function runInitialize<Env>(init: RequestMessage, rt: EdgeRuntime<Env>, sessions: boolean): { response: ResponseMessage; state?: SessionState } {
  try {
    const { result, state } = initialize(rt.server, init.params, sessions);
    return { response: resultMessage(init.id, result), state };
  } catch (error) {
    return { response: errorMessage(init.id, toErrorObject(error, init)) };
  }
}

async function initializeSession<Env>(init: RequestMessage, env: Env, rt: EdgeRuntime<Env>, principal: Principal | undefined): Promise<Response> {
  const { response, state } = runInitialize(init, rt, true);
  if (!state) return json(toWire(response));
  const namespace = rt.sessionNamespace(env);
  const id = namespace.newUniqueId();
  // Auth: the session is bound to the principal that created it.
  await namespace.get(id).init(principal ? { ...state, subject: principal.subject } : state);
  return json(toWire(response), 200, { [HEADER_SESSION_ID]: id.toString() });
}

