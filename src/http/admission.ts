/**
 * Admission: the `admit` checks of an edge's features (rate limits, a user's own) on a POST's
 * requests, in the Worker, before anything runs or is forwarded to a session object, so a refused
 * call never starts anywhere and costs no Durable Object request. Free without such a feature.
 */
import type { RequestMessage } from "../jsonrpc/messages";
import { admitRefusal } from "../kernel/kernel";
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

/** The features' `admit` checks (src/kernel/kernel.ts) on this request's requests. */
function firstRefusal<Env>(
  edge: EdgeRequest<Env>,
  requests: readonly RequestMessage[],
  era: "2025" | "2026",
): Promise<Response | undefined> {
  return admitRefusal(edge.runtime.kernel, {
    requests,
    era,
    principal: edge.principal,
    request: edge.info,
    env: edge.env,
    clientKey: edge.clientKey,
  });
}
