/**
 * The 2026-07-28 lane, entirely in the Worker (DESIGN.md "Protocol eras on one endpoint"): one
 * claimed request in, one answer out, no session and no object. Unknown and removed methods
 * are 404 -32601; MRTR inputs (`requestState`, `inputResponses`) are verified before the
 * handler runs; the handler runs with this request's envelope, and an unanswered ask turns
 * the answer into `input_required` with a freshly signed `requestState`.
 */
import { challengeAnswer, inStreamChallenge, refuseMissingScopes } from "./operation-auth";
import { INTERNAL_ERROR, RpcError } from "../jsonrpc/errors";
import { finish2026Response } from "../mcp/era-2026/result-2026";
import {
  errorMessage,
  notification,
  toWire,
  type NotificationMessage,
  type RequestMessage,
  type ResponseMessage,
} from "../jsonrpc/messages";
import type { Channel } from "../mcp/definition/context";
import { clientsHearHub } from "../kernel/kernel";
import { dispatchContext, dispatchNotification, dispatchRequest, is2026Method, type LaneContext } from "../mcp/dispatch/dispatch";
import { readEnvelope } from "../mcp/era-2026/envelope";
import { MrtrRound } from "../mcp/era-2026/mrtr";
import { LazyAbort } from "../mcp/dispatch/lazy-abort";
import { meterEvent, newMeter, observerOf } from "../mcp/operations/observe";
import { secretOf } from "./state-secret";
import { isInteractiveCall } from "../mcp/dispatch/routing";
import { accepted, json } from "../wire/json";
import { answerHttp, refuse2026 } from "../wire/refusals";
import { taskLaneFor } from "../kernel/task-seam";
import type { EraDecision } from "./era";
import { servedVersions } from "../kernel/versions";
import type { EdgeRequest } from "./edge-request";
import { WorkerReply } from "./worker-reply";
import { admissionRefusal } from "./admission";
import { checkParamHeaders } from "./param-headers";
import { featureStreamOf, serveFeatureStream } from "./feature-streams";
import type { EdgeEnv, EdgeRuntime } from "./runtime";

type Outcome = { kind: "done"; response: ResponseMessage } | { kind: "ended" };

/** The abort reason of a run that stopped to ask: one instance, as building an error (its stack) costs more than the rest of the ending. */
const RUN_ENDED_TO_ASK = new RpcError(INTERNAL_ERROR, "the run ended to ask the client for input");

/** The JSON answer: 200, except a missing client capability or a per-client cap (refusals.ts answerHttp); this era's codes. */
function jsonAnswer(response: ResponseMessage): Response {
  const answer = finish2026Response(response);
  const { status, headers } = answerHttp(answer);
  return json(toWire(answer), status, headers);
}

/** The era decision of a claimed request: its message and its `_meta` envelope (era.ts). */
type Claimed = Extract<EraDecision, { era: "2026" }>;

/** Serves one claimed 2026-07-28 request: `edge`, the request's one value; `claimed`, what the era decision read from it. */
export async function serve2026<Env extends EdgeEnv>(edge: EdgeRequest<Env>, claimed: Claimed): Promise<Response> {
  const { env, runtime, principal } = edge;
  const { message, envelope } = claimed;
  const opened = await openRound(edge, message);
  // A call counts once, whatever its rounds: a retry whose requestState verified continues a call its first round
  // already counted (so a rule's budget is calls, as on 2025, and a user's answer is never refused); any other request counts.
  const admission = opened instanceof MrtrRound && opened.continuesCall ? undefined : admissionRefusal(edge, [message], "2026");
  const limited = admission && (await admission);
  if (limited) return limited;
  const before = beforeDispatch(edge, claimed);
  if (before) return before;
  // Auth: the operation's scopes, before anything runs (403 insufficient_scope naming the complete set).
  const scopeCheck = refuseMissingScopes(edge, [message]);
  const denied = scopeCheck && (await scopeCheck);
  if (denied) return denied;
  if (!(opened instanceof MrtrRound)) return jsonAnswer(errorMessage(message.id, opened.toJSON()));
  const lane: Lane2026 = {
    era: "2026",
    envelope,
    supportedVersions: servedVersions(runtime.options),
    principal,
    tasks: taskLaneFor(runtime.kernel.seams, runtime.server, env, edge.clientKey),
    hearsHub: clientsHearHub(runtime.kernel.seams, env),
    request: edge.info,
  };
  // A simple tool, a list, a read: nothing can stream or ask, so no run, reply or channel is built.
  // (A JSON answer has no stream the client could close, so its signal never aborts.)
  if (!isInteractiveCall(message, runtime.server)) {
    const response = await dispatchRequest(message, dispatchContext(runtime.server, env, lane), new LazyAbort());
    return challengeAnswer(edge, [message], [response]) ?? jsonAnswer(response);
  }
  return runInteractive(edge, { message, lane, round: opened });
}

/**
 * The request's MRTR round, or the RpcError that answers it (a bad `requestState` or `inputResponses`, sent after the
 * checks before dispatch). Synchronous unless a requestState is verified (docs/engine-notes.md "Microtask turns").
 */
function openRound<Env extends EdgeEnv>(
  edge: EdgeRequest<Env>,
  message: RequestMessage,
): MrtrRound | RpcError | Promise<MrtrRound | RpcError> {
  const { env, runtime, principal } = edge;
  const settings = {
    subject: principal?.subject ?? "",
    secret: secretOf(env),
    ttlMs: runtime.options.mrtrStateTtlMs,
    ownMethod: runtime.server.methods.get(message.method)?.interactive,
  };
  try {
    const round = MrtrRound.open(message, settings);
    return round instanceof MrtrRound ? round : round.catch(asRpcError);
  } catch (error) {
    return asRpcError(error);
  }
}

/** An RpcError is the request's answer; anything else is a failure of ours (post.ts answers it). */
function asRpcError(error: unknown): RpcError {
  if (error instanceof RpcError) return error;
  throw error;
}

type Lane2026 = Extract<LaneContext, { era: "2026" }>;

/**
 * What is answered before any handler runs: an unknown or removed method (404 -32601, 2026-07-28
 * streamable-http.mdx "Protocol Version Header"), a feature's held stream (the hub's
 * `subscriptions/listen`, basic/patterns/subscriptions.mdx), `Mcp-Param-*` headers that disagree with the arguments.
 */
function beforeDispatch<Env extends EdgeEnv>(edge: EdgeRequest<Env>, claimed: Claimed): Response | Promise<Response> | undefined {
  const { runtime } = edge;
  const { message, envelope } = claimed;
  const id = message.id;
  const featureStream = featureStreamOf(edge, message);
  if (featureStream) return serveFeatureStream(featureStream, edge, message, { era: "2026", ...envelope });
  if (!is2026Method(message.method, runtime.server)) return refuse2026({ reason: "method-not-found-2026", method: message.method }, id);
  if (message.method === "tools/call") {
    const tool = typeof message.params?.name === "string" ? runtime.server.tools.get(message.params.name) : undefined;
    const mismatch =
      tool && tool.headerParams.length > 0
        ? checkParamHeaders(edge.request.headers, tool.headerParams, message.params?.arguments)
        : undefined;
    if (mismatch) return refuse2026({ reason: "header-mismatch", message: mismatch }, id);
  }
  return undefined;
}

/**
 * An interactive call: its notifications open the Worker's streaming reply, its asks go to the
 * MRTR round; the answer is its response, or `input_required` once it stopped to ask. Closing the
 * stream is the client's cancellation (streamable-http.mdx "Cancellation").
 */
async function runInteractive<Env extends EdgeEnv>(
  edge: EdgeRequest<Env>,
  run: { message: RequestMessage; lane: Lane2026; round: MrtrRound },
): Promise<Response> {
  const { env, runtime } = edge;
  const { message, lane, round } = run;
  const controller = new LazyAbort();
  const reply = new WorkerReply(runtime.options.session.keepAliveMs);
  reply.onCancel(() => controller.abort(new RpcError(INTERNAL_ERROR, "the client closed the response stream")));
  // Cost counters, only when the server is observed: the SSE events this reply sends (nothing is stored here).
  const meter = observerOf(runtime.server) ? newMeter() : undefined;
  // docs/engine-notes.md "Methods, not arrow properties"
  const channel: Channel = {
    notify(method, params) {
      meterEvent(meter);
      return reply.notify(toWire(notification(method, params)));
    },
    request(method, params, _from, key) {
      return round.ask(method, params, key);
    },
    closeStream() {},
    // server/utilities/logging.mdx: no level in _meta, no notifications/message.
    logLevel() {
      return lane.envelope.logLevel ?? "none";
    },
    requestUnavailable: undefined,
  };
  const done = dispatchRequest(message, dispatchContext(runtime.server, env, { ...lane, channel, meter }), controller);
  const outcome: Promise<Outcome> = Promise.race([
    done.then((response): Outcome => ({ kind: "done", response })),
    round.run.ended.then((): Outcome => ({ kind: "ended" })),
  ]);
  const first = await Promise.race([outcome, reply.opened.then(() => "stream" as const)]);
  if (first === "stream") {
    void outcome
      .then((o) => finalize(o, controller, round, runtime))
      .then((response) => inStreamChallenge(edge, message, response))
      .then((response) => reply.finish(toWire(finish2026Response(response))))
      .catch((error: unknown) => console.error("mcp-edge: 2026 stream failed", error));
    return reply.response();
  }
  const response = await finalize(first, controller, round, runtime);
  return challengeAnswer(edge, [message], [response]) ?? jsonAnswer(response);
}

/** The run's answer: its response, or `input_required` once it stopped to ask (its signal aborts then). */
async function finalize<Env extends EdgeEnv>(
  o: Outcome,
  controller: LazyAbort,
  round: MrtrRound,
  runtime: EdgeRuntime<Env>,
): Promise<ResponseMessage> {
  if (o.kind === "done") return o.response;
  controller.abort(RUN_ENDED_TO_ASK);
  return round.inputRequired(runtime.server);
}

/**
 * A claimed notification: 202. One of the server's own (defineNotification) runs first, in the Worker,
 * with this notification's envelope (one without a valid envelope is not heard: nothing says what its client declared).
 */
export async function accept2026Notification<Env>(edge: EdgeRequest<Env>, message: NotificationMessage): Promise<Response> {
  const { runtime } = edge;
  if (!runtime.server.notifications.has(message.method)) return accepted();
  const read = readEnvelope(message.params);
  if (!read.ok) {
    console.warn(`mcp-edge: notification ${message.method} dropped: ${read.problem}`);
    return accepted();
  }
  const lane: Lane2026 = {
    era: "2026",
    envelope: read.envelope,
    supportedVersions: servedVersions(runtime.options),
    principal: edge.principal,
    request: edge.info,
  };
  await dispatchNotification(message, dispatchContext(runtime.server, edge.env, lane));
  return accepted();
}
