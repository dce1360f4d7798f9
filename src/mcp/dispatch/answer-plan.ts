/**
 * How one POST's exchange is answered, decided once for both lanes (the Worker's lane-2025.ts and the
 * session object's inflight.ts): refused (a batch the version does not allow), 202, JSON, or an
 * SSE stream. Each lane keeps only its transport: what a JSON answer or a stream is made of.
 */
import type { Refusal } from "../../wire/refusals";
import type { Exchange } from "./exchange";
import { isInteractiveCall } from "./routing";
import type { McpServer } from "../definition/server";
import { acceptsBatches, type AnyVersion } from "../definition/versions";

export type AnswerPlan =
  | { kind: "refuse"; refusal: Refusal }
  /** Only notifications and responses: 202 with no body. */
  | { kind: "accepted"; exchange: Exchange }
  /** A JSON body: the exchange's requests answered (none when only invalid entries need answers). */
  | { kind: "json"; exchange: Exchange }
  /** An SSE stream: some request may talk to the client before its result (an interactive tool, MRTR read). */
  | { kind: "stream"; exchange: Exchange };

/**
 * `admit` applies the lane's run limits (run-limits.ts) and must not start anything: the plan is
 * made before any message of the exchange is acted on.
 */
export function planAnswer<Env>(
  all: Exchange,
  version: AnyVersion,
  server: McpServer<Env>,
  admit: (exchange: Exchange) => Exchange,
): AnswerPlan {
  if (all.batch && !acceptsBatches(version)) return { kind: "refuse", refusal: { reason: "batch-unsupported", version } };
  const exchange = admit(all);
  if (exchange.requests.length === 0) return exchange.invalid.length === 0 ? { kind: "accepted", exchange } : { kind: "json", exchange };
  if (exchange.requests.some((r) => isInteractiveCall(r, server))) return { kind: "stream", exchange };
  return { kind: "json", exchange };
}
