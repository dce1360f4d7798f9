/**
 * One run of a task's handler inside its task object: the abort signal `tasks/cancel` trips,
 * the channel that turns `ctx.elicit`/`ctx.sample`/`ctx.listRoots` into stored asks (the
 * task's `inputRequests`) answered by `tasks/update`, and the outcome the run reports. A run
 * never writes the task record itself: it reports through its host, which ignores stale runs.
 */
import type { ClientCapabilities } from "../../src/mcp/definition/types";
import { INTERNAL_ERROR, LIMIT_EXCEEDED_2026, REQUEST_CANCELLED, RpcError } from "../../src/jsonrpc/errors";
import type { ErrorObject, Params } from "../../src/jsonrpc/messages";
import { runTool } from "../../src/mcp/tools/tool-call";
import { frozenRequestInfo } from "../../src/mcp/definition/request-info";
import { bindObservation, type Meter, type Observation, type Observer } from "../../src/mcp/operations/observe";
import type { OperationSpan } from "../../src/mcp/operations/tracing";
import { reportUnexpected } from "../../src/mcp/operations/unexpected";
import { refusalOf, throughMiddleware, wrappedCall } from "../../src/mcp/operations/middleware";
import type { Channel, InteractiveContext } from "../../src/mcp/definition/context";
import { createInteractiveContext } from "../../src/mcp/asks/interactive-context";
import { handlerContext } from "../../src/mcp/dispatch/handler-context";
import type { McpServer } from "../../src/mcp/definition/server";
import { jsonBytes, MAX_OUTSTANDING_ASKS, MAX_TASK_MESSAGE_BYTES, MAX_TASK_STORAGE_BYTES, type TaskRecord } from "./model";
import type { TaskStore } from "./task-store";

/** How a run ended: what the task's terminal state will be. */
function endRunSpan(span: OperationSpan, outcome: RunOutcome): void {
  if (outcome.status === "failed") span.failed(outcome.error.code, outcome.error.message);
  else if (outcome.status === "completed" && outcome.result.isError === true) span.toolFailed();
  span.end();
}

export type RunOutcome =
  | { status: "completed"; result: Record<string, unknown> }
  | { status: "failed"; error: ErrorObject; statusMessage: string }
  | { status: "cancelled"; statusMessage: string };

/** What a run needs from its object. */
export interface RunHost<Env> {
  server: McpServer<Env>;
  /** The server's observer, when observed (the run's span and event). */
  observer: Observer | undefined;
  env: Env;
  store: TaskStore;
  /** What the task keeps now (record, asks, answers) in bytes: held under MAX_TASK_STORAGE_BYTES. */
  storedBytes(): number;
  /** An ask was stored and is outstanding: the task is `input_required`. */
  asked(run: TaskRun<Env>): void;
  /** Progress from the handler, shown as the task's `statusMessage`. */
  progressed(run: TaskRun<Env>, message: string): void;
  finished(run: TaskRun<Env>, outcome: RunOutcome): void;
}

interface Waiter {
  resolve(result: Params): void;
  reject(reason: unknown): void;
}

export class TaskRun<Env> {
  readonly controller = new AbortController();
  private readonly waiters = new Map<string, Waiter>();
  /** Call order of asks within this run: the k-th ask sits at position k. */
  private nextPosition = 0;
  /** With an observed server: the run's span and event, which the object's writes and calls are counted on. */
  observation: Observation | undefined;

  constructor(
    private readonly host: RunHost<Env>,
    readonly attempt: number,
  ) {}

  /**
   * Starts the handler; its outcome reaches `host.finished` exactly once. `meter`: where the task's
   * store counts this run's writes (observed servers only), reported with the run's event.
   */
  start(record: TaskRecord, meter?: Meter): void {
    // With tracing: the run's span, a child of the span of the request that created the task.
    const operation = {
      method: "tools/call",
      params: { name: record.tool },
      requestId: record.taskId,
      protocolVersion: record.protocolVersion,
      parent: record.traceparent,
    };
    const span = this.host.observer?.start(operation, "task", this.host.env);
    if (span && meter) span.measure(meter);
    this.observation = span;
    void this.execute(record)
      .then(undefined, (error: unknown): RunOutcome => {
        // Outside the tool's own failure policy (a middleware's exception, a bug): logged and told with a reference.
        const reference = reportUnexpected(`task ${record.taskId} (tool "${record.tool}")`, error, { hook: this.host.server.errorHook });
        return {
          status: "failed",
          error: { code: INTERNAL_ERROR, message: "Internal error", data: { reference } },
          statusMessage: "The task failed",
        };
      })
      .then((outcome) => {
        // The task's final state is stored (and counted) before the run's event ends.
        this.host.finished(this, outcome);
        if (span) endRunSpan(span, outcome);
      });
  }

  cancel(): void {
    this.controller.abort(new RpcError(REQUEST_CANCELLED, "The task was cancelled (tasks/cancel)"));
  }

  /** Hands a stored answer to the ask waiting on `key` in this run, if it is still waiting. */
  deliver(key: string, answer: Params): void {
    const waiter = this.waiters.get(key);
    if (!waiter) return;
    this.waiters.delete(key);
    waiter.resolve(answer);
  }

  isWaiting(): boolean {
    return this.waiters.size > 0;
  }

  private async execute(record: TaskRecord): Promise<RunOutcome> {
    const tool = this.host.server.tools.get(record.tool);
    if (!tool) {
      // The deployment changed under the task: the tool it ran is gone.
      return {
        status: "failed",
        error: { code: INTERNAL_ERROR, message: `The tool "${record.tool}" no longer exists` },
        statusMessage: "The tool no longer exists",
      };
    }
    const signal = this.controller.signal;
    const ctx = this.context(record);
    const server = this.host.server;
    // The task's run is the tools/call its creating request made: middleware wraps it here too (middleware.ts).
    const call = wrappedCall(server, "tools/call", { name: record.tool, arguments: record.args }, ctx);
    const place = { protocolVersion: record.protocolVersion, era: "2026", task: true, listener: { hook: server.errorHook, call } } as const;
    const run = async (): Promise<Params> => ({ ...(await runTool(tool, record.args, ctx, place)) });
    try {
      const result = await throughMiddleware(server, call, run);
      return { status: "completed", result: { ...result } };
    } catch (error) {
      if (signal.aborted) return { status: "cancelled", statusMessage: "Cancelled by the client" };
      // A JSON-RPC error (the author's RpcError, or -32603 for a result that is no CallToolResult) fails the task.
      if (error instanceof RpcError)
        return { status: "failed", error: error.toJSON(), statusMessage: `Tool execution failed: ${error.message}` };
      // A middleware's refusal: a failing tool result, as in a synchronous call (the same rule).
      const refused = refusalOf(error, "tools/call");
      if (refused && "result" in refused) return { status: "completed", result: refused.result };
      throw error;
    }
  }

  private context(record: TaskRecord): InteractiveContext<Env> {
    const source = {
      server: this.host.server,
      env: this.host.env,
      // The Tasks extension is negotiated on 2026-07-28 only; the task keeps its creating request's capabilities.
      era: "2026",
      protocolVersion: record.protocolVersion,
      clientCapabilities: record.clientCapabilities as ClientCapabilities,
      session: undefined,
      principal: record.principal,
      request: record.request && frozenRequestInfo(record.request),
    } as const;
    // A task has no request of its own after creation: its id stands for it.
    const base = handlerContext(source, { id: record.taskId, params: { _meta: record.meta } }, this.controller);
    // A publish from the handler (`publish(env, event, { trace: ctx })`) continues the run's trace.
    if (this.observation) bindObservation(base, this.observation);
    const ctx = createInteractiveContext(base, this.channel(record), this.host.server);
    if (record.gathered !== undefined) ctx.gathered = record.gathered;
    return ctx;
  }

  private channel(record: TaskRecord): Channel {
    return {
      // Logging and progress notifications have no stream on a task (ext-tasks "Task Status Notifications").
      notify: async () => {},
      request: (method, params, from) => this.ask(method, params, from.signal),
      closeStream: () => {},
      logLevel: () => undefined,
      requestUnavailable: undefined,
      clientCapabilities: record.clientCapabilities,
      // ext-tasks: progress notifications are not sent for tasks; progress shows as the status message.
      progressed: async (progress, total, message) => {
        this.host.progressed(this, message ?? (total !== undefined ? `${progress}/${total}` : String(progress)));
      },
    };
  }

  /**
   * An ask at the next position. A resumed run meets its earlier asks again: the same request at
   * the same position gets its stored answer (or waits for it under the same key); a different
   * one supersedes that position and everything after it, under a new key.
   */
  private ask(method: string, params: Params, signal: AbortSignal): Promise<Params> {
    if (signal.aborted) return Promise.reject(signal.reason);
    const json = JSON.stringify(params);
    if (jsonBytes(params) > MAX_TASK_MESSAGE_BYTES)
      return Promise.reject(
        new RpcError(LIMIT_EXCEEDED_2026, `${method} was not sent: it is larger than ${MAX_TASK_MESSAGE_BYTES} bytes of JSON`),
      );
    if (this.host.storedBytes() + jsonBytes(params) > MAX_TASK_STORAGE_BYTES)
      return Promise.reject(
        new RpcError(LIMIT_EXCEEDED_2026, `${method} was not sent: the task would keep more than ${MAX_TASK_STORAGE_BYTES} bytes`),
      );
    if (this.waiters.size >= MAX_OUTSTANDING_ASKS)
      return Promise.reject(new RpcError(LIMIT_EXCEEDED_2026, `A task may wait for at most ${MAX_OUTSTANDING_ASKS} answers at once`));
    const position = this.nextPosition++;
    const store = this.host.store;
    const existing = store.askAt(position);
    let key: string;
    if (existing && existing.method === method && existing.params === json) {
      if (existing.answer !== null) return Promise.resolve(JSON.parse(existing.answer) as Params);
      key = existing.key;
    } else {
      if (existing) store.dropFrom(position);
      // Unique over the task's lifetime: a key is never reused for another request.
      key = `${this.attempt}-${position}`;
      store.addAsk(position, key, method, json);
    }
    const answered = new Promise<Params>((resolve, reject) => {
      this.waiters.set(key, { resolve, reject });
      signal.addEventListener(
        "abort",
        () => {
          this.waiters.delete(key);
          reject(signal.reason);
        },
        { once: true },
      );
    });
    this.host.asked(this);
    return answered;
  }
}
