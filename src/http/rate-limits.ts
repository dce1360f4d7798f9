/**
 * Rate limits on Workers' Rate Limiting binding (`[[ratelimits]]` in wrangler.toml): each rule
 * names its binding, the calls it counts (`match`, default every request) and whose budget a call
 * spends (`key`, default the principal's subject, else the client's address: clientKey). The
 * Worker checks a POST's requests before anything runs or is forwarded to a session object, so a
 * call over its limit never starts anywhere (Worker, session object, task) and costs no Durable
 * Object request: the answer is HTTP 429 with Retry-After and a JSON-RPC error for its id.
 */
import type { Principal } from "../auth/principal";
import { isObject, parseBody } from "../jsonrpc/parse";
import { toExchange } from "../mcp/dispatch/exchange";
import type { Params, RequestId, RequestMessage } from "../jsonrpc/messages";
import type { RequestInfo } from "../mcp/dispatch/request-info";
import type { EdgeRequest } from "./edge-request";
import { targetOf } from "../mcp/operations/middleware";
import { refuse, refuse2026 } from "../wire/refusals";
import { misconfigured } from "./misconfiguration";

/** One request as a rule sees it, before anything ran: enough to choose it and key it. */
export interface RateLimitedCall<Env = unknown> {
  method: string;
  /** The tool or prompt name, or the resource URI (tools/call, prompts/get, resources/read); else undefined. */
  name: string | undefined;
  params: Params;
  /** With auth: who sent it. */
  principal: Principal | undefined;
  /** The HTTP request, as handlers see it (ctx.request), with `params`: the route's parameters (a key per tenant). */
  request: RequestInfo;
  env: Env;
}

export interface RateLimitRule<Env = unknown> {
  /** The `name` of a `[[ratelimits]]` binding in wrangler.toml. */
  binding: string;
  /** Which requests this rule counts (default: every request). */
  match?(call: RateLimitedCall<Env>): boolean;
  /** Whose budget a request spends (default: "sub:<subject>" with auth, else "ip:<CF-Connecting-IP>"). */
  key?(call: RateLimitedCall<Env>): string;
  /** The binding's `simple.period` in seconds, sent as Retry-After (default 60). */
  period?: 10 | 60;
}

/** What Workers' Rate Limiting binding offers (`env.<binding>.limit`). */
interface RateLimiter {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

function rateLimitToml(binding: string): string {
  return ["[[ratelimits]]", `name = "${binding}"`, 'namespace_id = "1001"', "simple = { limit = 100, period = 60 }"].join("\n");
}

function limiterOf(env: unknown, binding: string): RateLimiter {
  const value = isObject(env) ? env[binding] : undefined;
  if (isObject(value) && typeof value.limit === "function") return value as unknown as RateLimiter;
  const toml = rateLimitToml(binding);
  const message = `Server misconfigured: the rate limit rule names the binding "${binding}", which this Worker does not have. Add to wrangler.toml:\n\n${toml}\n\n(namespace_id: a number of your choice, unique in your account; limit and period: your rule's).`;
  throw misconfigured(`ratelimit:${binding}`, message, { missingBinding: binding, wranglerToml: toml }, env);
}

/** Whether `call` is over one of `rules`' limits: the rule it is over, else undefined. Stops at the first. */
async function overLimit(rules: readonly RateLimitRule[], call: RateLimitedCall, defaultKey: string): Promise<RateLimitRule | undefined> {
  for (const rule of rules) {
    if (rule.match && !rule.match(call)) continue;
    const key = rule.key ? rule.key(call) : defaultKey;
    const { success } = await limiterOf(call.env, rule.binding).limit({ key });
    if (!success) return rule;
  }
  return undefined;
}

/**
 * The 429 answer when one of `requests` is over a rule's limit (checked in order; nothing has run),
 * else undefined. `modern`: a 2026-07-28 request (its refusal shape). Free without rules.
 */
export async function rateLimited<Env>(
  edge: EdgeRequest<Env>,
  requests: readonly RequestMessage[],
  modern = false,
): Promise<Response | undefined> {
  const rules = edge.runtime.options.rateLimits;
  if (rules.length === 0) return undefined;
  for (const message of requests) {
    const params = message.params ?? {};
    // ctx.request as handlers will see it, route parameters included: a key may be per tenant.
    const call: RateLimitedCall = {
      method: message.method,
      name: targetOf(message.method, params),
      params,
      principal: edge.principal,
      request: edge.info,
      env: edge.env,
    };
    const rule = await overLimit(rules, call, edge.clientKey);
    if (rule) return tooMany(rule, message.id, modern);
  }
  return undefined;
}

/** `rateLimited` for a body not parsed yet (the 2024-11-05 transport's POST): parsed only when there are rules. */
export async function rateLimitedBody<Env>(edge: EdgeRequest<Env>, body: string): Promise<Response | undefined> {
  if (edge.runtime.options.rateLimits.length === 0) return undefined;
  const parsed = parseBody(body);
  return parsed.ok ? rateLimited(edge, toExchange(parsed).requests) : undefined;
}

function tooMany(rule: RateLimitRule, id: RequestId, modern: boolean): Response {
  const refusal = { reason: "rate-limited", retryAfterSeconds: rule.period ?? 60 } as const;
  return modern ? refuse2026(refusal, id) : refuse(refusal, id);
}

/** Checks the rules when createMcpEdge is called: a rule without a binding name is a programming error. */
export function resolveRateLimits<Env>(rules: readonly RateLimitRule<Env>[] | undefined): readonly RateLimitRule<Env>[] {
  if (rules === undefined) return [];
  if (!Array.isArray(rules)) throw new TypeError("mcp-edge option rateLimits must be a list of { binding, match?, key?, period? }");
  for (const rule of rules) {
    if (!isObject(rule) || typeof rule.binding !== "string" || rule.binding === "")
      throw new TypeError(
        'mcp-edge option rateLimits: each rule needs binding, the name of a [[ratelimits]] binding (e.g. "MCP_RATE_LIMIT")',
      );
    if (rule.period !== undefined && rule.period !== 10 && rule.period !== 60)
      throw new TypeError("mcp-edge option rateLimits: period is 10 or 60 (the binding's simple.period)");
  }
  return rules;
}
