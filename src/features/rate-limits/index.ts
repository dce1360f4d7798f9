/**
 * `rateLimits(rules)`: rate limits on Workers' Rate Limiting binding (`[[ratelimits]]` in wrangler.toml)
 * as a feature (the subpath `mcp-edge/rate-limits`). Each rule names its binding, the calls it counts
 * (`match`, default every request) and whose budget a call spends (`key`, default the principal's
 * subject, else the client's address). The Worker checks a POST's requests before anything runs or is
 * forwarded to a session object, so a call over its limit never starts anywhere (Worker, session object,
 * task) and costs no Durable Object request: the answer is HTTP 429 with Retry-After and a JSON-RPC error
 * for its id. A call counts once, whatever its rounds: an MRTR retry whose requestState verified is not
 * checked again.
 */
import { isObject } from "../../jsonrpc/parse";
import type { Params } from "../../jsonrpc/messages";
import type { Admission, Feature } from "../../kernel/feature";
import type { Principal } from "../../mcp/definition/principal";
import type { RequestInfo } from "../../mcp/definition/request-info";
import { targetOf } from "../../mcp/operations/middleware";
import { misconfigured } from "../../platform/bindings";
import { refuse, refuse2026 } from "../../wire/refusals";
import { rateLimitedRow } from "../../wire/rate-limit-refusals";

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

function limiterOf(env: unknown, binding: string): RateLimiter {
  const value = isObject(env) ? env[binding] : undefined;
  if (isObject(value) && typeof value.limit === "function") return value as unknown as RateLimiter;
  const toml = ["[[ratelimits]]", `name = "${binding}"`, 'namespace_id = "1001"', "simple = { limit = 100, period = 60 }"].join("\n");
  const message = `Server misconfigured: the rate limit rule names the binding "${binding}", which this Worker does not have. Add to wrangler.toml:\n\n${toml}\n\n(namespace_id: a number of your choice, unique in your account; limit and period: your rule's).`;
  throw misconfigured(`ratelimit:${binding}`, message, { missingBinding: binding, wranglerToml: toml }, env);
}

/** Whether `call` is over one of `rules`' limits: the rule it is over, else undefined. Stops at the first. */
async function overLimit<Env>(
  rules: readonly RateLimitRule<Env>[],
  call: RateLimitedCall<Env>,
  defaultKey: string,
): Promise<RateLimitRule<Env> | undefined> {
  for (const rule of rules) {
    if (rule.match && !rule.match(call)) continue;
    const key = rule.key ? rule.key(call) : defaultKey;
    const { success } = await limiterOf(call.env, rule.binding).limit({ key });
    if (!success) return rule;
  }
  return undefined;
}

/** Checks the rules when the feature is made: a rule without a binding name is a programming error. */
function checkRules<Env>(rules: readonly RateLimitRule<Env>[]): void {
  if (!Array.isArray(rules)) throw new TypeError("mcp-edge rateLimits(rules): rules is a list of { binding, match?, key?, period? }");
  for (const rule of rules) {
    if (!isObject(rule) || typeof rule.binding !== "string" || rule.binding === "")
      throw new TypeError(
        'mcp-edge rateLimits(rules): each rule needs binding, the name of a [[ratelimits]] binding (e.g. "MCP_RATE_LIMIT")',
      );
    if (rule.period !== undefined && rule.period !== 10 && rule.period !== 60)
      throw new TypeError("mcp-edge rateLimits(rules): period is 10 or 60 (the binding's simple.period)");
  }
}

/** The 429 answer when one of the admission's requests is over a rule's limit (checked in order), else undefined. */
async function overAnyLimit<Env>(rules: readonly RateLimitRule<Env>[], admission: Admission<Env>): Promise<Response | undefined> {
  for (const message of admission.requests) {
    const params = message.params ?? {};
    const call: RateLimitedCall<Env> = {
      method: message.method,
      name: targetOf(message.method, params),
      params,
      principal: admission.principal,
      request: admission.request,
      env: admission.env,
    };
    const rule = await overLimit(rules, call, admission.clientKey);
    if (rule) {
      const refusal = rateLimitedRow(rule.period ?? 60);
      return admission.era === "2026" ? refuse2026(refusal, message.id) : refuse(refusal, message.id);
    }
  }
  return undefined;
}

/** Rate limits: a request over a rule's limit gets 429 with Retry-After before anything runs (docs/operating.md "Rate limits"). */
export function rateLimits<Env = unknown>(rules: readonly RateLimitRule<Env>[]): Feature<Env> {
  checkRules(rules);
  return { name: "rate-limits", admit: (admission) => overAnyLimit(rules, admission) };
}
