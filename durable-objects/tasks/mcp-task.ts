/**
 * McpTask: the Durable Object of the Tasks extension, made by the object kit
 * (durable-objects/kit/edge-object.ts). One class (binding MCP_TASK) plays two roles, each a part
 * it routes to: an object named by a task id is one task (task.ts: the Worker→task contract,
 * contract.ts), an object named after a client key is that client's ledger of tasks in flight
 * (ledger.ts, its own contract ledger-contract.ts). The class holds the RPC surfaces, the
 * creation's checks and reservation, and what each call reports of its own.
 */
import { code2026 } from "../../src/jsonrpc/errors";
import type { McpServer } from "../../src/mcp/definition/server";
import type { ResolvedTaskOptions } from "../../src/kernel/options";
import { refusalRow } from "../../src/wire/refusals";
import { EdgeObject } from "../kit/edge-object";
import type { EdgeBinding } from "../shared/edge-binding";
import type { CreateTaskInput, InputResponses, TaskObjectRpc, TaskReply } from "./contract";
import { ClientLedger } from "./ledger";
import type { LedgerRpc } from "./ledger-contract";
import { createTaskResult, getTaskResult, type TaskStatus } from "./model";
import { Task } from "./task";
import { TaskStatusOut, type PublishTaskStatus, type TaskEnv } from "./task-status";

/** What the tasks feature makes the class with, beside the edge's kernel: its resolved options, and where status goes. */
export interface TaskObjectParts {
  options: ResolvedTaskOptions;
  publishStatus: PublishTaskStatus;
}

export class McpTaskObject<Env = unknown> extends EdgeObject<Env> implements TaskObjectRpc, LedgerRpc {
  /** The task role: used only by an object named after a task id. */
  private readonly task: Task<Env>;
  /** The ledger role: used only by the object named after a client key. */
  private readonly ledger: ClientLedger;
  private readonly out: TaskStatusOut;
  private readonly options: ResolvedTaskOptions;
  private readonly server: McpServer<Env>;

  constructor(ctx: DurableObjectState, env: Env, binding: EdgeBinding<Env>, parts: TaskObjectParts) {
    super(ctx, env, binding, { place: "task", rows: "spans" });
    this.options = parts.options;
    this.server = binding.server;
    this.out = new TaskStatusOut(ctx, env as TaskEnv, parts.publishStatus);
    this.task = new Task({
      server: this.server,
      options: this.options,
      observer: this.observer,
      env,
      storage: this.storage,
      metered: this.observed,
      status: this.out,
    });
    this.ledger = new ClientLedger(this.storage);
  }

  /** Waking up: a task that is not finished has lost its run (a new instance has none). */
  protected override onStart(): void {
    this.task.restore();
  }

  // ---- RPC from the Worker (src/features/tasks/lane.ts): the task role ---------------------------------

  /** Stores the task, then starts its run; the reply (CreateTaskResult) leaves only once the task is stored. */
  async taskCreate(taskId: string, input: CreateTaskInput): Promise<TaskReply> {
    if (!this.task.isFresh() || taskId !== this.ctx.id.toString())
      throw new Error("mcp-edge: task object created twice or under another id");
    const tool = this.server.tools.get(input.tool);
    if (!tool?.task) throw new Error(`mcp-edge: tool "${input.tool}" cannot run as a task`);
    const ttlMs = tool.task.ttlMs ?? this.options.ttlMs;
    const pollIntervalMs = tool.task.pollIntervalMs ?? this.options.pollIntervalMs;
    if (input.clientKey !== undefined) {
      // The per-client cap on tasks in flight: nothing is stored for a task the client may not start.
      const limit = this.options.maxInFlightPerClient;
      if (!(await this.out.ledgerFor(input.clientKey).ledgerReserve(taskId, limit, Date.now() + ttlMs))) {
        const row = refusalRow({ reason: "too-many-tasks", limit, retryAfterSeconds: Math.max(1, Math.ceil(pollIntervalMs / 1000)) });
        return { ok: false, error: { code: code2026(row.code), message: row.message, data: row.data } };
      }
    }
    const record = this.task.create(taskId, input, { ttlMs, pollIntervalMs, resumable: tool.task.resumable });
    // The reservation above was a Durable Object request made for this run.
    if (input.clientKey !== undefined) this.task.observation?.countDoRequests();
    return { ok: true, result: createTaskResult(record) };
  }

  /** tasks/get: the task's current DetailedTask. */
  async taskGet(subject: string | null, route?: string): Promise<TaskReply> {
    const r = this.task.visibleTo(subject, route);
    if (!r.ok) return r;
    return { ok: true, result: getTaskResult(r.record, this.task.store.outstanding()) };
  }

  /** Whether `subject` may see this task (for a listen stream's `taskIds`): only its creator, until it expires. */
  async taskVisible(subject: string | null, route?: string): Promise<boolean> {
    return this.task.visibleTo(subject, route).ok;
  }

  /** tasks/update: stores answers to outstanding asks and wakes the run; other keys are ignored. */
  async taskUpdate(subject: string | null, responses: InputResponses, route?: string): Promise<TaskReply> {
    try {
      return this.task.update(subject, responses, route);
    } finally {
      this.served("tasks/update", 0);
    }
  }

  /** tasks/cancel: cooperative; the run's signal aborts and the task ends `cancelled` when the handler gives up. */
  async taskCancel(subject: string | null, route?: string): Promise<TaskReply> {
    try {
      return this.task.cancel(subject, route);
    } finally {
      this.served("tasks/cancel", 0);
    }
  }

  /**
   * Resolves with the task's status once it is one of `statuses` (at once if it already is), or
   * undefined when the task is gone. For tests and operators that wait for an event instead of polling.
   */
  async awaitStatus(statuses: TaskStatus[]): Promise<TaskStatus | undefined> {
    return this.out.awaitStatus(statuses, () => this.task.status);
  }

  // ---- RPC from other task objects: the ledger role (ledger-contract.ts) -----------------------

  async ledgerReserve(taskId: string, limit: number, expiresAt: number): Promise<boolean> {
    try {
      return await this.ledger.reserve(taskId, limit, expiresAt);
    } finally {
      // The task that asked counts the request; the ledger's rows are told here.
      this.report("ledgerReserve", 0, "ledger");
    }
  }

  async ledgerRelease(taskId: string): Promise<void> {
    try {
      await this.ledger.release(taskId);
    } finally {
      this.report("ledgerRelease", 0, "ledger");
    }
  }

  // ---- the alarm (both roles: a ledger without a task deletes its storage) ----------------------

  protected override onAlarm(): Promise<void> {
    return this.task.alarm();
  }

  protected override served(method: string, received: number): void {
    this.report(method, received, "task");
  }

  /**
   * An event of this object's own (observed servers): a request nobody else counts, and the rows
   * written since the previous event; while a run is on, its rows stay for the run's event.
   * Without `onEvent` no one reads them: they are let go, so the next run's span counts only its own.
   */
  private report(method: string, received: number, place: "task" | "ledger"): void {
    const running = this.task.running;
    if (this.bill) {
      if (received > 0 || !running) void this.bill.report(method, received, 0, place);
    } else if (!running) this.observed?.takeRows();
  }
}
