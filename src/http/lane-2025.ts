/**
 * The 2025-era lane of POST /mcp in the Worker (2024-11-05 through 2025-11-25, the initialize
 * era): answers `initialize` (creating the session object in session mode); forwards an exchange
 * that needs the session to its object, body and all; or answers simple requests right here —
 * after one `confirm` call to the session object in session mode. Stateless mode answers
 * everything here, streaming (the Worker's one streaming reply) when the answer plan says so.
 */
import { challengeAnswer, inStreamChallenge, refuseMissingScopes } from "./operation-auth";
import { INTERNAL_ERROR, RpcError } from "../jsonrpc/errors";
import { notification, toWire, type RequestMessage } from "../jsonrpc/messages";
import type { ParsedBody } from "../jsonrpc/parse";

/** A body that parsed (the front door refuses the rest). */
type Parsed = Extract<ParsedBody, { ok: true }>;
import { planAnswer } from "../mcp/dispatch/answer-plan";
import type { Channel, SessionInfo, SessionState } from "../mcp/definition/context";
import { dispatchContext, dispatchNotification, dispatchRequest, type DispatchContext } from "../mcp/dispatch/dispatch";
import { LazyAbort } from "../mcp/dispatch/lazy-abort";
import { observerOf } from "../mcp/operations/observe";
import { messagesOf, replyBody, toExchange, type Exchange } from "../mcp/dispatch/exchange";
import { answerInitialize, ownedState } from "../mcp/dispatch/initialize-answer";
import { needsSession } from "../mcp/dispatch/routing";
import { limitRuns } from "../mcp/dispatch/run-limits";
import { clientsHearHub } from "../kernel/kernel";
import { sessionObjectId } from "../platform/addresses";
import { objectKeyOf, type EdgeRuntime } from "./runtime";
import { DEFAULT_HEADER_VERSION, isSupportedVersion } from "../mcp/definition/versions";
import { HEADER_PROTOCOL_VERSION, HEADER_SESSION_ID } from "../wire/headers";
import { accepted, json } from "../wire/json";
import { refuse } from "../wire/refusals";
import { forwardPost, observedHop } from "./forward";
import { warnIfNoStateSecret } from "./state-secret";
import { routeKey } from "../wire/route-params";
import { admissionRefusal } from "./admission";
import { checkProtocolVersionHeader } from "./guards";
import type { SessionObjectRpc } from "../../durable-objects/sessions/contract";
import type { EdgeRequest } from "./edge-request";
import { WorkerReply } from "./worker-reply";
import { heldRequestOf, serveFeatureStream, type HeldRequest } from "./feature-streams";

const STATELESS_REASON = "this server runs in stateless mode, so there is no session to carry the client's answer";

/** A 2025-era POST body: what it parsed to, and its text, forwarded as is to the session object. */
export interface Body2025 {
  parsed: Parsed;
  text: string;
}

/** Serves a POST the front door decided is a 2025-era one: `edge`, the request's one value; `body`, what it carried. */
export async function serve2025<Env>(edge: EdgeRequest<Env>, body: Body2025): Promise<Response> {
  const { request, env, runtime, principal, sessions } = edge;
  const badVersion = checkProtocolVersionHeader(request);
  if (badVersion) return badVersion;
  const exchange = toExchange(body.parsed);
  // Auth: each operation's scopes, before anything runs or is forwarded (403 insufficient_scope).
  const scopeCheck = refuseMissingScopes(edge, exchange.requests);
  const denied = scopeCheck && (await scopeCheck);
  if (denied) return denied;
  const admission = admissionRefusal(edge, exchange.requests, "2025");
  const limited = admission && (await admission);
  if (limited) return limited;

  const init = exchange.requests.find((r) => r.method === "initialize");
  if (init) {
    // 2025-03-26 Lifecycle: the initialize request MUST NOT be part of a batch.
    if (exchange.batch) return refuse({ reason: "initialize-in-batch" }, init.id);
    return sessions ? initializeSession(edge, init) : initializeStateless(init, runtime);
  }

  const held = heldRequestOf(edge, exchange);
  if (!sessions) {
    const header = request.headers.get(HEADER_PROTOCOL_VERSION);
    const version = isSupportedVersion(header) ? header : DEFAULT_HEADER_VERSION;
    // A feature's held stream (events/stream) of a stateless server: no session, so no declared capabilities.
    if (held)
      return serveFeatureStream(held.lane, edge, held.message, { era: "2025", protocolVersion: version, clientCapabilities: undefined });
    const dispatch = dispatchContext(runtime.server, env, {
      era: "2025",
      sessions: false,
      session: undefined,
      protocolVersion: version,
      principal,
      request: edge.info,
    });
    return answer(edge, exchange, dispatch);
  }

  return serveInSession(edge, exchange, body.text, held);
}
/** A request of an existing session: forwarded to its object when it needs it, else answered here after `confirm`. */
async function serveInSession<Env>(edge: EdgeRequest<Env>, exchange: Exchange, body: string, held?: HeldRequest<Env>): Promise<Response> {
  const { request, env, runtime, principal } = edge;
  const sessionId = request.headers.get(HEADER_SESSION_ID);
  if (sessionId === null) {
    return refuse({ reason: "session-id-required", afterInitialize: true });
  }
  const namespace = runtime.sessionNamespace(env);
  const id = sessionObjectId(namespace, objectKeyOf(runtime, sessionId));
  if (!id) return sessionNotFound();
  const stub = namespace.get(id);

  // A feature's held stream (events/stream): the Worker holds it with the session's capabilities (one `confirm`).
  if (held) return streamInSession(edge, { stub, sessionId, ...held });
  if (messagesOf(exchange).some((m) => needsSession(m, runtime.server))) {
    // The body travels as a body, never through a header (bodies over ~16 KB break headers).
    // forwardPost: the principal, cf and the Worker's span go to the object in headers only the Worker sets.
    return forwardPost(edge, stub, exchange, body);
  }
  // Only `notifications/initialized` (every other notification went to the object above): 202 once
  // the object confirms the session, 404 for an ended or unknown one as for any other message.
  if (exchange.requests.length === 0 && exchange.invalid.length === 0) {
    const state = await observedHop(edge, exchange, "worker", () => confirmSession(edge, stub, sessionId));
    return state === null ? sessionNotFound() : accepted();
  }
  const state = await confirmSession(edge, stub, sessionId);
  if (state === null) return sessionNotFound();
  // ctx.session.id and the events name the session by its object id (a deferred id's seal is not an identity).
  const session: SessionInfo = { ...state, id: sessionId.slice(0, 64) };
  const dispatch = dispatchContext(runtime.server, env, {
    era: "2025",
    sessions: true,
    session,
    protocolVersion: state.protocolVersion,
    principal,
    request: edge.info,
    // The `confirm` above: one Durable Object request (the cost counters).
    doRequests: 1,
  });
  return answer(edge, exchange, dispatch);
}

/** A feature's stream in a session: confirmed first (404 for an ended or unknown one), then held by the Worker. */
async function streamInSession<Env>(
  edge: EdgeRequest<Env>,
  held: HeldRequest<Env> & { stub: DurableObjectStub<SessionObjectRpc>; sessionId: string },
): Promise<Response> {
  const state = await confirmSession(edge, held.stub, held.sessionId);
  if (state === null) return sessionNotFound();
  const era = { era: "2025", protocolVersion: state.protocolVersion, clientCapabilities: state.clientCapabilities } as const;
  return serveFeatureStream(held.lane, edge, held.message, era);
}

function sessionNotFound(): Response {
  return refuse({ reason: "session-not-found" });
}

/**
 * The session's state from its object (`confirm`: one object request), or null when it does not
 * exist for this request. Auth: the object refuses (null) a principal other than the session's
 * creator, or another route than the session's (another tenant's path); checked here again.
 */
async function confirmSession<Env>(
  edge: EdgeRequest<Env>,
  stub: DurableObjectStub<SessionObjectRpc>,
  sessionId: string,
): Promise<SessionState | null> {
  const { principal, params } = edge;
  const route = routeKey(params);
  // Workers RPC types cannot express `unknown` fields; the object returns a SessionState or null.
  const state = (await stub.confirm(principal?.subject, route, sessionId)) as SessionState | null;
  if (state === null || state.subject !== principal?.subject || (state.route ?? "") !== route) return null;
  return state;
}

/**
 * Answers simple requests in the Worker: JSON, or (stateless, interactive tool) a one-shot SSE
 * stream. A handler's `reauthenticate()` / `needScopes()` makes the JSON answer its 401/403.
 */
async function answer<Env>(edge: EdgeRequest<Env>, all: Exchange, dispatch: DispatchContext<Env>): Promise<Response> {
  const { runtime } = edge;
  // Notifications of the server's own (defineNotification; stateless: no session object hears them) finish first.
  if (dispatch.server.notifications.size > 0) {
    for (const message of all.others) if (message.kind === "notification") await dispatchNotification(message, dispatch);
  }
  const plan = planAnswer(all, dispatch.protocolVersion, dispatch.server, (e) =>
    limitRuns(e, { perRequest: runtime.options.maxRunsPerRequest }),
  );
  if (plan.kind === "refuse") return refuse(plan.refusal);
  if (plan.kind === "accepted") return accepted();
  const { exchange } = plan;
  if (plan.kind === "stream") return streamAnswer(edge, exchange, dispatch);
  // A JSON answer has no stream the client could close, so its signal never aborts.
  const abort = new LazyAbort();
  const responses = await Promise.all(exchange.requests.map((r) => dispatchRequest(r, dispatch, abort)));
  return challengeAnswer(edge, exchange.requests, responses) ?? json(replyBody(exchange, responses));
}

/** A stateless exchange's streamed answer: its notifications, then every response (the invalid entries' first). */
function streamAnswer<Env>(edge: EdgeRequest<Env>, exchange: Exchange, dispatch: DispatchContext<Env>): Response {
  const reply = new WorkerReply(edge.runtime.options.session.keepAliveMs);
  const controller = new LazyAbort();
  reply.onCancel(() => controller.abort(new RpcError(INTERNAL_ERROR, "the client closed the response stream")));
  const channel: Channel = {
    notify(method, params) {
      return reply.notify(toWire(notification(method, params)));
    },
    request() {
      return Promise.reject(new Error(STATELESS_REASON));
    },
    closeStream() {},
    logLevel() {
      return undefined;
    },
    requestUnavailable: STATELESS_REASON,
  };
  reply.start();
  const streamed = { ...dispatch, channel };
  const work = (async () => {
    for (const response of exchange.invalid) await reply.notify(toWire(response));
    await Promise.all(
      exchange.requests.map(async (r) =>
        reply.notify(toWire(await inStreamChallenge(edge, r, await dispatchRequest(r, streamed, controller)))),
      ),
    );
    reply.finish();
  })();
  work.catch((error) => console.error("mcp-edge: stateless stream failed", error));
  return reply.response();
}

function initializeStateless<Env>(init: RequestMessage, runtime: EdgeRuntime<Env>): Response {
  return json(toWire(answerInitialize(runtime.server, init, false).response));
}

async function initializeSession<Env>(edge: EdgeRequest<Env>, init: RequestMessage): Promise<Response> {
  const { env, runtime, principal } = edge;
  const route = routeKey(edge.params);
  const { response, state } = answerInitialize(runtime.server, init, clientsHearHub(runtime.kernel.seams, env));
  if (!state) return json(toWire(response));
  const namespace = runtime.sessionNamespace(env);
  const id = namespace.newUniqueId();
  const objectId = id.toString();
  const owned = ownedState(state, principal?.subject, route);
  // A deferred session (durable-objects/sessions/deferred.ts): no object yet; its id carries the state, sealed.
  const sealer = runtime.kernel.seams.sealer;
  // Without a usable secret deferred sessions fall back to an object now: said once, with the fix.
  if (sealer) warnIfNoStateSecret(runtime, env);
  const sealed = await sealer?.mint(env, objectId, owned);
  const sessionId = sealed ?? objectId;
  // The cost counters: initialize is one Durable Object request (`init`) unless deferred; the object's own event counts its rows.
  const span = observerOf(runtime.server)?.start(
    {
      method: "initialize",
      params: init.params ?? {},
      requestId: init.id,
      sessionId: objectId,
      protocolVersion: state.protocolVersion,
    },
    "worker",
    env,
  );
  try {
    if (!sealed) {
      span?.countDoRequests();
      await namespace.get(id).init(owned);
    }
  } catch (error) {
    span?.threw(error);
    throw error;
  } finally {
    span?.end();
  }
  return json(toWire(response), 200, { [HEADER_SESSION_ID]: sessionId });
}
