/**
 * Rate limits on Workers' Rate Limiting binding (`[[ratelimits]]` in wrangler.toml): each rule
 * names its binding, the calls it counts (`match`, default every request) and whose budget a call
 * spends (`key`, default the principal's subject, else the client's address: clientKey). The
 * Worker checks a POST's requests before anything runs or is forwarded to a session object, so a
 * call over its limit never starts anywhere (Worker, session object, task) and costs no Durable
 * Object request: the answer is HTTP 429 with Retry-After and a JSON-RPC error for its id. A call
 * counts once, whatever its rounds: lane-2026.ts skips an MRTR retry whose requestState verified.
 */
import { isObject, parseBody } from "../jsonrpc/parse";
import { toExchange } from "../mcp/dispatch/exchange";
import type { RequestMessage } from "../jsonrpc/messages";
import type { EdgeRequest } from "./edge-request";
import { targetOf } from "../mcp/operations/middleware";
import { refuse, refuse2026 } from "../wire/refusals";
import { misconfigured } from "../platform/bindings";
import type { RateLimitRule, RateLimitedCall } from "../kernel/options";

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
    if (rule) {
      const refusal = { reason: "rate-limited", retryAfterSeconds: rule.period ?? 60 } as const;
      return modern ? refuse2026(refusal, message.id) : refuse(refusal, message.id);
    }
  }
  return undefined;
}

/** `rateLimited` for a body not parsed yet (the 2024-11-05 transport's POST): parsed only when there are rules. */
export async function rateLimitedBody<Env>(edge: EdgeRequest<Env>, body: string): Promise<Response | undefined> {
  if (edge.runtime.options.rateLimits.length === 0) return undefined;
  const parsed = parseBody(body);
  return parsed.ok ? rateLimited(edge, toExchange(parsed).requests) : undefined;
}
