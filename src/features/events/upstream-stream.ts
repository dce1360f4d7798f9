/**
 * The push stream of an upstream-backed event type, held and driven by this Worker invocation: the
 * author's `poll` runs once before the stream opens (its failure is the request's error, and no
 * stream), then every `nextPollMs`; no Durable Object is involved. A failed round is reported with
 * `notifications/events/error` and retried; an Events error (NotFound, Forbidden, Unsupported)
 * ends the stream with `notifications/events/terminated`.
 */
import { EVENTS_FORBIDDEN, EVENTS_NOT_FOUND, EVENTS_UNSUPPORTED, INTERNAL_ERROR, RpcError } from "../../jsonrpc/errors";
import type { StreamCall } from "../../kernel/feature";
import { LiveStreams } from "../../platform/live-streams";
import type { EventDefinition } from "./define";
import { pollUpstream, type PollAnswer } from "./poll";
import { finalResultFrame, notificationFrame } from "./stream";

const STREAM = 1;
/** The shortest wait between two rounds, whatever the author's nextPollMs says. */
const MIN_ROUND_MS = 1_000;
/** Events errors that end the subscription rather than one round. */
const TERMINAL = new Set([EVENTS_NOT_FOUND, EVENTS_FORBIDDEN, EVENTS_UNSUPPORTED]);

export interface UpstreamStream<Env> {
  call: StreamCall<Env>;
  args: Record<string, unknown>;
  cursor: string | null;
  maxAgeMs: number | undefined;
  heartbeatMs: number;
}

export async function streamUpstream<Env>(type: EventDefinition<Env>, stream: UpstreamStream<Env>): Promise<Response> {
  const { call } = stream;
  const signal = new AbortController();
  const request = { args: stream.args, cursor: stream.cursor, maxAgeMs: stream.maxAgeMs, max: 100 };
  // The first round confirms the subscription: its RpcError answers the request (no stream).
  const first = await pollUpstream(type, request, { env: call.env, signal: signal.signal });
  let cursor = first.cursor;
  const live = new LiveStreams(stream.heartbeatMs, {
    keepAliveFrame: () => notificationFrame("notifications/events/heartbeat", { cursor }, call.id),
    onDrop: () => signal.abort(),
  });
  const response = live.attach(STREAM, { "X-Accel-Buffering": "no" });
  live.send(
    STREAM,
    notificationFrame("notifications/events/active", { cursor: stream.cursor ?? first.cursor, truncated: first.truncated }, call.id),
  );
  const deliver = (answer: PollAnswer) => {
    for (const event of answer.events) live.send(STREAM, notificationFrame("notifications/events/event", event, call.id));
    cursor = answer.cursor;
  };
  deliver(first);
  const rounds = async () => {
    let answer = first;
    while (!signal.signal.aborted) {
      await wait(answer.hasMore ? 0 : Math.max(MIN_ROUND_MS, answer.nextPollMs), signal.signal);
      if (signal.signal.aborted) return;
      try {
        answer = await pollUpstream(type, { ...request, cursor, maxAgeMs: undefined }, { env: call.env, signal: signal.signal });
        deliver(answer);
      } catch (error) {
        const rpc = error instanceof RpcError ? error : undefined;
        if (!rpc) console.error(`mcp-edge: event "${type.name}": a poll round failed`, error);
        const reported = {
          code: rpc?.code ?? INTERNAL_ERROR,
          message: rpc?.message ?? "Internal error: the upstream could not be read; retrying",
        };
        if (rpc && TERMINAL.has(rpc.code)) {
          live.send(STREAM, notificationFrame("notifications/events/terminated", { error: reported }, call.id));
          live.send(STREAM, finalResultFrame(call.id, call.era));
          live.close(STREAM);
          return;
        }
        live.send(STREAM, notificationFrame("notifications/events/error", { error: reported }, call.id));
        answer = { ...answer, hasMore: false };
      }
    }
  };
  const running = rounds();
  call.ctx?.waitUntil(running);
  return response;
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
