/**
 * Admission: the `admit` checks of an edge's features (rate limits, a user's own) on a POST's
 * requests, in the Worker, before anything runs or is forwarded to a session object, so a refused
 * call never starts anywhere and costs no Durable Object request. Free without such a feature.
 */
import { parseBody } from "../jsonrpc/parse";
import { toExchange } from "../mcp/dispatch/exchange";
import type { RequestMessage } from "../jsonrpc/messages";
import type { EdgeRequest } from "./edge-request";

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

/** `admissionRefusal` for a body not parsed yet (the 2024-11-05 transport's POST): parsed only when a feature checks. */
export async function bodyAdmissionRefusal<Env>(edge: EdgeRequest<Env>, body: string): Promise<Response | undefined> {
  if (!edge.runtime.kernel.features.some((f) => f.admit)) return undefined;
  const parsed = parseBody(body);
  return parsed.ok ? firstRefusal(edge, toExchange(parsed).requests, "2025") : undefined;
}
