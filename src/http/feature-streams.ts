/**
 * Requests a feature answers with a Response of its own (its `streams`: `events/stream`): found by
 * method in the edge's kernel, and handed the request's one value as a StreamCall, in both eras,
 * after auth, scopes and rate limits, before dispatch.
 */
import type { RequestMessage } from "../jsonrpc/messages";
import type { StreamCall, StreamLane } from "../kernel/feature";
import { streamLaneOf } from "../kernel/kernel";
import type { ClientCapabilities } from "../mcp/definition/types";
import { routeKey } from "../wire/route-params";
import type { Exchange } from "../mcp/dispatch/exchange";
import type { EdgeRequest } from "./edge-request";

/** What the lane decided about the request's era: its revision and the capabilities it counts. */
export interface StreamEra {
  era: "2025" | "2026";
  protocolVersion: string;
  clientCapabilities: ClientCapabilities | undefined;
}

/** The feature lane answering `message`'s method, if a feature of this edge has one. */
export function featureStreamOf<Env>(edge: EdgeRequest<Env>, message: RequestMessage): StreamLane<Env> | undefined {
  return streamLaneOf(edge.runtime.kernel, message.method);
}

/** A feature's stream and the one request it answers, when a 2025-era POST carries exactly that request. */
export interface HeldRequest<Env> {
  lane: StreamLane<Env>;
  message: RequestMessage;
}

export function heldRequestOf<Env>(edge: EdgeRequest<Env>, exchange: Exchange): HeldRequest<Env> | undefined {
  if (exchange.batch || exchange.requests.length !== 1 || exchange.others.length > 0) return undefined;
  const message = exchange.requests[0] as RequestMessage;
  const lane = featureStreamOf(edge, message);
  return lane ? { lane, message } : undefined;
}

/** Answers `message` with `lane`: the request's one value, as the feature sees it. */
export function serveFeatureStream<Env>(
  lane: StreamLane<Env>,
  edge: EdgeRequest<Env>,
  message: RequestMessage,
  era: StreamEra,
): Promise<Response> {
  const call: StreamCall<Env> = {
    id: message.id,
    params: message.params ?? {},
    env: edge.env,
    ctx: edge.ctx,
    era: era.era,
    protocolVersion: era.protocolVersion,
    clientCapabilities: era.clientCapabilities,
    principal: edge.principal,
    request: edge.info,
    clientKey: edge.clientKey,
    route: routeKey(edge.params),
    kernel: edge.runtime.kernel,
  };
  return lane(call);
}
