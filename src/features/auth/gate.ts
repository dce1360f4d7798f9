/**
 * The resource server's gate as the `auth()` feature fills the kernel's `gate` seam: authentication
 * of every request to an endpoint (src/auth/authenticate.ts), the scopes each operation needs
 * checked before anything runs (src/mcp/dispatch/operation-scopes.ts), and a handler's challenge
 * answered as HTTP 401/403 or completed in the stream (src/auth/step-up.ts). The Worker's lanes and
 * the session object call the same gate, so both name the same scopes.
 */
import { authenticate, scopeRefusal } from "../../auth/authenticate";
import { authForRoute, type ResolvedAuth } from "../../auth/options";
import { challengeResponse, handlerChallengeOf, withChallenge, type ChallengePlace } from "../../auth/step-up";
import type { RequestMessage } from "../../jsonrpc/messages";
import type { AuthGate, GateCall } from "../../kernel/feature";
import { scopesForOperation } from "../../mcp/dispatch/operation-scopes";

/** The challenge's place: the route's auth, who asked, the operation's own scopes. */
async function placeOf<Env>(base: ResolvedAuth, call: GateCall<Env>, request: RequestMessage): Promise<ChallengePlace> {
  const auth = authForRoute(base, call.params);
  const { principal, server, params, env } = call;
  const operation = principal ? await scopesForOperation(request, server, auth, { principal, params, env }) : undefined;
  return { auth, principal, operationScopes: operation?.scopes ?? [] };
}

async function firstScopeRefusal<Env>(
  base: ResolvedAuth,
  call: GateCall<Env> & { principal: NonNullable<GateCall<Env>["principal"]> },
  requests: readonly RequestMessage[],
): Promise<Response | undefined> {
  const auth = authForRoute(base, call.params);
  const { principal, server, params, env } = call;
  for (const request of requests) {
    const needed = await scopesForOperation(request, server, auth, { principal, params, env });
    const refused = needed ? scopeRefusal(auth, principal, needed) : undefined;
    if (refused) return refused;
  }
  return undefined;
}

/** The gate of one edge, over its resolved `auth` settings. */
export function gateOf(base: ResolvedAuth): AuthGate {
  return {
    authenticate(request, params, env) {
      return authenticate(request, authForRoute(base, params), env);
    },
    refuseMissingScopes(call, requests) {
      const principal = call.principal;
      if (!principal) return undefined;
      return firstScopeRefusal(base, { ...call, principal }, requests);
    },
    challengeAnswer(call, requests, responses) {
      for (const [index, response] of responses.entries()) {
        const challenge = handlerChallengeOf(response);
        const request = requests[index];
        if (challenge && request) return placeOf(base, call, request).then((place) => challengeResponse(place, challenge));
      }
      return undefined;
    },
    async inStreamChallenge(call, request, response) {
      if (!handlerChallengeOf(response)) return response;
      return withChallenge(await placeOf(base, call, request), response);
    },
  };
}
