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
/**
 * Rounds one invocation runs before it ends the stream with its final result (the client resumes with
 * its cursor): bounds the CPU a stream spends in one Worker invocation (about 14 hours at 10 s).
 */
const MAX_ROUNDS = 5_000;
/** Events errors that end the subscription rather than one round. */
const TERMINAL = new Set([EVENTS_NOT_FOUND, EVENTS_FORBIDDEN, EVENTS_UNSUPPORTED]);

export interface UpstreamStream<Env> {
  call: StreamCall<Env>;
  args: Record<string, unknown>;
  cursor: string | null;
  maxAgeMs: number | undefined;
  heartbeatMs: number;
  /** The most events one round delivers (the rest come in the next round, at once). */
  maxEvents: number;
}

export async function streamUpstream<Env>(type: EventDefinition<Env>, stream: UpstreamStream<Env>): Promise<Response> {
  const abort = new AbortController();
  const request = { args: stream.args, cursor: stream.cursor, maxAgeMs: stream.maxAgeMs, max: stream.maxEvents };
  // The first round confirms the subscription: its RpcError answers the request (no stream).
  const first = await pollUpstream(type, request, { env: stream.call.env, signal: abort.signal });
  const run = new UpstreamRun(type, stream, first, abort);
  stream.call.ctx?.waitUntil(run.rounds());
  return run.response;
}

/** One upstream-backed stream after its first round: the client's connection and the rounds that feed it. */
class UpstreamRun<Env> {
  readonly response: Response;
  private readonly live: LiveStreams;
  private cursor: string | null;

  constructor(
    private readonly type: EventDefinition<Env>,
    private readonly stream: UpstreamStream<Env>,
    private readonly first: PollAnswer,
    private readonly abort: AbortController,
  ) {
    const id = stream.call.id;
    this.cursor = first.cursor;
    this.live = new LiveStreams(stream.heartbeatMs, {
      keepAliveFrame: () => notificationFrame("notifications/events/heartbeat", { cursor: this.cursor }, id),
      onDrop: () => abort.abort(),
    });
    this.response = this.live.attach(STREAM, { "X-Accel-Buffering": "no" });
    const active = { cursor: stream.cursor ?? first.cursor, truncated: first.truncated };
    this.live.send(STREAM, notificationFrame("notifications/events/active", active, id));
    this.deliver(first);
  }

  /** Polls every `nextPollMs` (at once while `hasMore`) until the client leaves, the upstream ends it, or MAX_ROUNDS. */
  async rounds(): Promise<void> {
    const { type, stream, abort } = this;
    let answer = this.first;
    for (let round = 1; round <= MAX_ROUNDS; round++) {
      await wait(answer.hasMore ? 0 : Math.max(MIN_ROUND_MS, answer.nextPollMs), abort.signal);
      if (abort.signal.aborted) return;
      try {
        const request = { args: stream.args, cursor: this.cursor, maxAgeMs: undefined, max: stream.maxEvents };
        answer = await pollUpstream(type, request, { env: stream.call.env, signal: abort.signal });
        this.deliver(answer);
      } catch (error) {
        if (this.failed(error)) return;
        answer = { ...answer, hasMore: false };
      }
    }
    // Ended by the server: the final result; the client comes back with its cursor on a fresh invocation.
    this.end();
  }

  private deliver(answer: PollAnswer): void {
    for (const event of answer.events) this.live.send(STREAM, notificationFrame("notifications/events/event", event, this.stream.call.id));
    this.cursor = answer.cursor;
  }

  /** Reports a failed round: `error` and go on, or `terminated` and the end for an Events error (true then). */
  private failed(error: unknown): boolean {
    const rpc = error instanceof RpcError ? error : undefined;
    if (!rpc) console.error(`mcp-edge: event "${this.type.name}": a poll round failed`, error);
    const reported = {
      code: rpc?.code ?? INTERNAL_ERROR,
      message: rpc?.message ?? "Internal error: the upstream could not be read; retrying",
    };
    const terminal = rpc !== undefined && TERMINAL.has(rpc.code);
    const method = terminal ? "notifications/events/terminated" : "notifications/events/error";
    this.live.send(STREAM, notificationFrame(method, { error: reported }, this.stream.call.id));
    if (terminal) this.end();
    return terminal;
  }

  private end(): void {
    this.live.send(STREAM, finalResultFrame(this.stream.call.id, this.stream.call.era));
    this.live.close(STREAM);
  }
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
