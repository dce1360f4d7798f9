/**
 * The 2026-07-28 lane, entirely in the Worker (DESIGN.md "What the 2026 era gets"): one
 * claimed request in, one answer out, no session and no object. Unknown and removed methods
 * are 404 -32601; MRTR inputs (`requestState`, `inputResponses`) are verified before the
 * handler runs; the handler runs with this request's envelope, and an unanswered ask turns
 * the answer into `input_required` with a freshly signed `requestState`.
 */
import type { RequestInfo } from "../mcp/request-info";
import { TASKS_EXTENSION } from "../mcp/extensions";
import { serveListen } from "./listen";
import { checkScopes } from "../auth/authenticate";
import type { Principal } from "../auth/principal";
import { CLIENT_ERROR, INTERNAL_ERROR, INVALID_PARAMS, RpcError } from "../jsonrpc/errors";
import {
  errorMessage,
  notification,
  resultMessage,
  toWire,
  type Params,
  type RequestId,
  type RequestMessage,
  type ResponseMessage,
} from "../jsonrpc/messages";
import type { Channel } from "../mcp/context";
import { dispatchContext, dispatchRequest, isModernMethod } from "../mcp/dispatch";
import type { RequestEnvelope } from "../mcp/envelope";
import { withServerInfo } from "../mcp/modern-result";
import { MRTR_METHODS, MrtrRun, readInputResponses } from "../mcp/mrtr";
import { digestArguments, secretProblem, signState, STATE_SECRET_BINDING, verifyState, type StateBinding } from "../mcp/request-state";
import { isInteractiveCall } from "../mcp/routing";
import type { McpServer } from "../mcp/server";
import type { AnyVersion } from "../mcp/versions";
import { json } from "../wire/json";
import { answerStatus, refuseModern } from "../wire/refusals";
import { taskLane } from "../tasks/lane";
import { servedVersions } from "./era";
import { ModernReply } from "./modern-reply";
import { checkParamHeaders } from "./param-headers";
import type { EdgeEnv, EdgeRuntime } from "./runtime";

type Outcome = { kind: "done"; response: ResponseMessage } | { kind: "ended" };

/**
 * A client's malformed answer to an ask is -32602 on this era: 2026-07-28 (basic/index.mdx "Error
 * Codes") reserves -32000..-32019 for legacy use, where the 2025 lane reports it as -32007.
 */
function modernCodes(response: ResponseMessage): ResponseMessage {
  if (response.kind !== "error" || response.error.code !== CLIENT_ERROR) return response;
  return errorMessage(response.id, {
    code: INVALID_PARAMS,
    message: `Invalid params: an inputResponses answer is malformed (${response.error.message})`,
  });
}

/** The JSON answer: 200, except a missing client capability (refusals.ts answerStatus). */
function jsonAnswer(response: ResponseMessage): Response {
  return json(toWire(response), answerStatus(response));
}

function secretOf(env: unknown): unknown {
  return (env as Record<string, unknown>)[STATE_SECRET_BINDING];
}

const warned = new WeakSet<object>();

/** Once per server and isolate, in `wrangler dev` output and the Worker's logs: MRTR needs a secret. */
export function warnIfNoStateSecret(rt: object, env: unknown): void {
  if (warned.has(rt)) return;
  const problem = secretProblem(secretOf(env));
  if (!problem) return;
  warned.add(rt);
  console.warn(`mcp-edge: 2026-07-28 tools, prompts and reads that ask the client for input will fail: ${problem}`);
}

function bindingOf(message: RequestMessage, principal: Principal | undefined): Promise<StateBinding> {
  const params = message.params ?? {};
  const name = message.method === "resources/read" ? params.uri : params.name;
  return digestArguments(params.arguments).then((argsDigest) => ({
    subject: principal?.subject ?? "",
    method: message.method,
    name: typeof name === "string" ? name : "",
    argsDigest,
  }));
}

/** The answers this request brings: those inside a verified `requestState`, then its `inputResponses`. */
async function answersOf(message: RequestMessage, binding: () => Promise<StateBinding>, env: unknown): Promise<Record<string, Params>> {
  const responses = readInputResponses(message.params) ?? {};
  const state = message.params?.requestState;
  if (state === undefined) return responses;
  if (typeof state !== "string") throw new RpcError(INVALID_PARAMS, "Invalid params: requestState must be the string the server sent");
  const problem = secretProblem(secretOf(env));
  if (problem) {
    console.error(`mcp-edge: cannot verify a requestState: ${problem}`);
    throw new RpcError(INTERNAL_ERROR, `This server cannot continue multi round-trip requests: ${problem}`);
  }
  const check = await verifyState(secretOf(env) as string, state, await binding());
  if (!check.ok) throw new RpcError(INVALID_PARAMS, `Invalid params: ${check.problem}`);
  // Answers of earlier rounds were verified; they win over a retry's attempt to change them.
  return { ...responses, ...check.answers };
}

/** `input_required` with every outstanding ask and a state carrying the answers used so far. */
async function inputRequired<Env>(
  id: RequestId,
  run: MrtrRun,
  binding: () => Promise<StateBinding>,
  env: unknown,
  server: McpServer<Env>,
  ttlMs: number,
): Promise<ResponseMessage> {
  const problem = secretProblem(secretOf(env));
  if (problem) {
    console.error(`mcp-edge: a handler asked the client for input, but ${problem}`);
    // The fix is the server operator's, but the first to meet this is the developer's own client.
    return errorMessage(id, { code: INTERNAL_ERROR, message: `This server cannot ask the client for input: ${problem}` });
  }
  const requestState = await signState(secretOf(env) as string, await binding(), run.used, ttlMs);
  const inputRequests = Object.fromEntries([...run.asks].map(([key, ask]) => [key, { method: ask.method, params: ask.params }]));
  return resultMessage(id, withServerInfo({ resultType: "input_required", inputRequests, requestState }, server));
}

/** Serves one claimed 2026-07-28 request. `principal`: the authenticated caller, with auth. */
export async function serveModern<Env extends EdgeEnv>(
  headers: Headers,
  message: RequestMessage,
  envelope: RequestEnvelope,
  env: Env,
  rt: EdgeRuntime<Env>,
  principal?: Principal,
  request?: RequestInfo,
): Promise<Response> {
  const id = message.id;
  // 2026-07-28 streamable-http.mdx "Protocol Version Header": an unimplemented (or removed) method is 404 -32601.
  // subscriptions/listen is not a core method: the hub serves it (basic/patterns/subscriptions.mdx).
  const listen = message.method === "subscriptions/listen";
  if (!listen && !isModernMethod(message.method)) return refuseModern({ reason: "modern-method-not-found", method: message.method }, id);
  if (principal && rt.options.auth) {
    const denied = checkScopes([message], principal, rt.options.auth);
    if (denied) return denied;
  }
  if (listen) {
    const tasks = rt.server.extensions.has(TASKS_EXTENSION);
    return serveListen({ id, params: message.params }, envelope.clientCapabilities, env, rt, principal?.subject, { tasks });
  }
  if (message.method === "tools/call") {
    const tool = typeof message.params?.name === "string" ? rt.server.tools.get(message.params.name) : undefined;
    const mismatch =
      tool && tool.headerParams.length > 0 ? checkParamHeaders(headers, tool.headerParams, message.params?.arguments) : undefined;
    if (mismatch) return refuseModern({ reason: "header-mismatch", message: mismatch }, id);
  }
  const mrtr = MRTR_METHODS.has(message.method);
  // Computed only when a state is verified or minted: most calls never ask.
  let bound: Promise<StateBinding> | undefined;
  const binding = () => (bound ??= bindingOf(message, principal));
  let answers: Record<string, Params> = {};
  if (mrtr) {
    try {
      answers = await answersOf(message, binding, env);
    } catch (error) {
      if (!(error instanceof RpcError)) throw error;
      return jsonAnswer(errorMessage(id, error.toJSON()));
    }
  }

  const lane = {
    era: "2026",
    envelope,
    supportedVersions: servedVersions(rt.options),
    principal,
    tasks: taskLane(rt.server, env),
    request,
  } as const;
  const base = dispatchContext(rt.server, env, lane);
  // A simple tool, a list, a read: nothing can stream or ask, so no run, reply or channel is built.
  // (A JSON answer has no stream the client could close, so its signal never aborts.)
  if (!isInteractiveCall(message, rt.server)) return jsonAnswer(await dispatchRequest(message, base, new AbortController().signal));

  const controller = new AbortController();
  const run = new MrtrRun(answers);
  const reply = new ModernReply(rt.options.session.keepAliveMs);
  reply.onCancel(() => controller.abort(new RpcError(INTERNAL_ERROR, "the client closed the response stream")));
  const channel: Channel = {
    notify: (method, params) => reply.notify(toWire(notification(method, params))),
    // mrtr.mdx: only tools/call, prompts/get and resources/read may answer input_required.
    request: (method, params, _signal, key) =>
      mrtr
        ? run.request(method, params, key)
        : Promise.reject(new RpcError(INVALID_PARAMS, `${message.method} cannot ask the client for input`)),
    closeStream: () => undefined,
    // server/utilities/logging.mdx: no level in _meta, no notifications/message.
    logLevel: () => envelope.logLevel ?? "none",
    requestUnavailable: undefined,
  };
  const dc = dispatchContext(rt.server, env, { ...lane, channel });
  const done = dispatchRequest(message, dc, controller.signal);
  const outcome: Promise<Outcome> = Promise.race([
    done.then((response): Outcome => ({ kind: "done", response })),
    run.ended.then((): Outcome => ({ kind: "ended" })),
  ]);
  const finalize = async (o: Outcome): Promise<ResponseMessage> => {
    if (o.kind === "done") return modernCodes(o.response);
    controller.abort(new RpcError(INTERNAL_ERROR, "the run ended to ask the client for input"));
    return inputRequired(id, run, binding, env, rt.server, rt.options.mrtrStateTtlMs);
  };
  const first = await Promise.race([outcome, reply.opened.then(() => "stream" as const)]);
  if (first === "stream") {
    void outcome
      .then(finalize)
      .then((response) => reply.finish(toWire(response)))
      .catch((error: unknown) => console.error("mcp-edge: 2026 stream failed", error));
    return reply.response();
  }
  return jsonAnswer(await finalize(first));
}
