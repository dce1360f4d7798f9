/**
 * Admission: the `admit` checks of an edge's features (rate limits, a user's own) on a POST's
 * requests, in the Worker, before anything runs or is forwarded to a session object, so a refused
 * call never starts anywhere and costs no Durable Object request. Free without such a feature.
 */
import { parseBody } from "../jsonrpc/parse";
import { toExchange } from "../mcp/dispatch/exchange";
import type { RequestMessage } from "../jsonrpc/messages";
import type { EdgeRequest } from "./edge-request";
import { refuseMissingScopes } from "./operation-auth";

/**
 * The first refusal of a feature's `admit` check for `requests`, else undefined; undefined at once
 * (no promise, no microtask turn on the lanes' path) when no feature of the edge checks.
 */
export function admissionRefusal<Env>(
  edge: EdgeRequest<Env>,
  requests: readonly RequestMessage[],
  era: "2025" | "2026",
): Promise<Response | undefined> | undefined {
  if (!edge.runtime.kernel.features.some((f) => f.admit)) return undefined;
  return firstRefusal(edge, requests, era);
}

async function firstRefusal<Env>(
  edge: EdgeRequest<Env>,
  requests: readonly RequestMessage[],
  era: "2025" | "2026",
): Promise<Response | undefined> {
  for (const feature of edge.runtime.kernel.features) {
    if (!feature.admit) continue;
    const refused = await feature.admit({
      requests,
      era,
      principal: edge.principal,
      request: edge.info,
      env: edge.env,
      clientKey: edge.clientKey,
    });
    if (refused) return refused;
  }
  return undefined;
}

/**
 * A body not parsed yet (the 2024-11-05 transport's POST), checked before its 202 as the endpoint's POST
 * is: its operations' scopes (with auth) and the features' `admit` checks; parsed only when one checks.
 */
export async function bodyRefusal<Env>(edge: EdgeRequest<Env>, body: string): Promise<Response | undefined> {
  const checksScopes = edge.principal !== undefined && edge.runtime.kernel.gate !== undefined;
  const admits = edge.runtime.kernel.features.some((f) => f.admit);
  if (!checksScopes && !admits) return undefined;
  const parsed = parseBody(body);
  if (!parsed.ok) return undefined;
  const requests = toExchange(parsed).requests;
  return (await refuseMissingScopes(edge, requests)) ?? (admits ? firstRefusal(edge, requests, "2025") : undefined);
}
