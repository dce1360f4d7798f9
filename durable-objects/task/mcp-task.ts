/**
 * McpTask: the Durable Object that is one task of the Tasks extension. It stores the task
 * before `taskCreate` returns (so a `tasks/get` for the id resolves at once), runs the tool's
 * handler (run.ts), answers `tasks/get|update|cancel` for the principal that created it only,
 * and deletes itself when its TTL ends (alarm). Invariants: a terminal status never changes;
 * only the current run may finish the task; a run lost in a restart never leaves the task
 * `working`: on wake-up it fails with a stored error, or runs again when its tool is resumable.
 * The same class (binding MCP_TASK) plays the per-client ledger of tasks in flight, an object
 * named after a client key: that role is durable-objects/ledger/, with its own contract.
 */
import { DurableObject } from "cloudflare:workers";
import { ObjectBill } from "../shared/billing";
import { INTERNAL_ERROR, INVALID_PARAMS, LIMIT_EXCEEDED_2026 } from "../../src/jsonrpc/errors";
import type { ErrorObject } from "../../src/jsonrpc/messages";
import type { McpServer } from "../../src/mcp/definition/server";
import { newMeter, type Observation, type Observer } from "../../src/mcp/operations/observe";
import type { CreateTaskInput, InputResponses, TaskObjectRpc, TaskReply } from "./contract";
import {
  canTransition,
  createTaskResult,
  getTaskResult,
  isTerminal,
  jsonBytes,
  MAX_TASK_RECORD_BYTES,
  MAX_TASK_STORAGE_BYTES,
  taskStatusNotification,
  type TaskRecord,
  type TaskStatus,
  type TaskAudience,
  type TaskStatusNotification,
} from "./model";
import type { ResolvedTaskOptions } from "../../src/kernel/options";
import { routeKey } from "../../src/wire/route-params";
import { refusalRow } from "../../src/wire/refusals";
import { code2026 } from "../../src/jsonrpc/errors";
import { ClientLedger } from "../ledger/ledger";
import { ledgerOf, type LedgerRpc } from "../ledger/contract";
import type { EdgeBinding } from "../shared/edge-binding";
import { TaskRun, type RunHost, type RunOutcome } from "./run";
import { TaskStore } from "./task-store";

/** Runs of one task at most (the first and its resumptions): a handler that keeps killing its object ends failed. */
const MAX_ATTEMPTS = 4;

const NOT_FOUND: ErrorObject = { code: INVALID_PARAMS, message: "Failed to retrieve task: Task not found" };
const EXPIRED: ErrorObject = { code: INVALID_PARAMS, message: "Failed to retrieve task: Task has expired" };

/** The bindings the object reads itself (src/kernel/env.ts, above the objects, types them all). */
interface TaskEnv {
  MCP_TASK?: DurableObjectNamespace<TaskObjectRpc & LedgerRpc>;
  MCP_HUB?: unknown;
}

/**
 * Where a stored status change goes besides `tasks/get` (the listen streams, through the hub):
 * handed in by taskObject(edge) from the Worker's side of tasks (src/tasks/publish.ts).
 */
export type PublishTaskStatus = (env: unknown, notification: TaskStatusNotification, audience: TaskAudience) => Promise<void>;

export class McpTaskObject<Env = unknown> extends DurableObject<Env> implements TaskObjectRpc, LedgerRpc {
  private readonly store: TaskStore;
  private record: TaskRecord | undefined;
  private run: TaskRun<Env> | undefined;
  /** Set once the TTL ended and storage was deleted: nothing may write again. */
  private expired = false;
  private readonly host: RunHost<Env>;
  /** Callers of `awaitStatus` waiting for the next stored change. */
  private watchers: (() => void)[] = [];
  /** The ledger role (durable-objects/ledger/): used only by the object named after a client key. */
  private readonly ledger: ClientLedger;
  private readonly server: McpServer<Env>;
  private readonly options: ResolvedTaskOptions;
  /** The server's observer, when observed: handed in by taskObject(edge). */
  private readonly observer: Observer | undefined;
  /** Observed servers: the latest run's observation, which this object's own calls are counted on. */
  private billed: Observation | undefined;
  /** With an observed server's `onEvent`: every row this object writes, and its alarms (durable-objects/shared/billing.ts). */
  private readonly bill: ObjectBill | undefined;
  private readonly storage: DurableObjectStorage;

  constructor(
    ctx: DurableObjectState,
    env: Env,
    binding: EdgeBinding<Env>,
    private readonly publishStatus: PublishTaskStatus,
  ) {
    super(ctx, env);
    const server = binding.server;
    this.server = server;
    this.options = binding.options.tasks;
    const observer = binding.observer;
    this.observer = observer;
    this.bill = observer?.hasSink ? new ObjectBill(observer, "task", env) : undefined;
    this.storage = this.bill ? this.bill.meter(ctx.storage) : ctx.storage;
    this.store = new TaskStore(this.storage.sql);
    this.ledger = new ClientLedger(this.storage);
    this.host = {
      server,
      observer: binding.observer,
      env,
      store: this.store,
      storedBytes: () => this.storedBytes(),
      asked: (run) => this.whileCurrent(run, () => this.change("input_required")),
      progressed: (run, message) =>
        this.whileCurrent(run, () => this.change(this.record?.status === "input_required" ? "input_required" : "working", message)),
      finished: (run, outcome) => this.whileCurrent(run, () => this.finish(outcome)),
    };
    void ctx.blockConcurrencyWhile(async () => this.restore());
  }

  /** Waking up: a task that is not finished has lost its run (a new instance has none). */
  private restore(): void {
    this.record = this.store.record();
    const r = this.record;
    if (!r || isTerminal(r.status)) return;
    if (r.cancelRequested) {
      this.finish({ status: "cancelled", statusMessage: "Cancelled by the client" });
    } else if (r.resumable && r.attempt < MAX_ATTEMPTS) {
      this.startRun("working", "Resumed after a restart");
    } else if (r.resumable) {
      this.finish({
        status: "failed",
        error: {
          code: INTERNAL_ERROR,
          message: `The task's runner stopped ${r.attempt} times before it finished; it is not resumed again`,
        },
        statusMessage: "The task was interrupted too often",
      });
    } else {
      this.finish({
        status: "failed",
        error: {
          code: INTERNAL_ERROR,
          message: "The task's runner stopped before it finished (its object restarted), and its tool is not resumable",
        },
        statusMessage: "The task was interrupted",
      });
    }
  }

  // ---- RPC from the Worker (src/tasks/lane.ts) -------------------------------------------

  /** Stores the task, then starts its run; the reply (CreateTaskResult) leaves only once the task is stored. */
  async taskCreate(taskId: string, input: CreateTaskInput): Promise<TaskReply> {
    if (this.record || this.expired || taskId !== this.ctx.id.toString())
      throw new Error("mcp-edge: task object created twice or under another id");
    const tool = this.server.tools.get(input.tool);
    if (!tool?.task) throw new Error(`mcp-edge: tool "${input.tool}" cannot run as a task`);
    const ttlMs = tool.task.ttlMs ?? this.options.ttlMs;
    const pollIntervalMs = tool.task.pollIntervalMs ?? this.options.pollIntervalMs;
    if (input.clientKey !== undefined) {
      // The per-client cap on tasks in flight: nothing is stored for a task the client may not start.
      const limit = this.options.maxInFlightPerClient;
      if (!(await this.ledgerFor(input.clientKey).ledgerReserve(taskId, limit, Date.now() + ttlMs))) {
        const row = refusalRow({ reason: "too-many-tasks", limit, retryAfterSeconds: Math.max(1, Math.ceil(pollIntervalMs / 1000)) });
        return { ok: false, error: { code: code2026(row.code), message: row.message, data: row.data } };
      }
    }
    const now = new Date().toISOString();
    this.record = {
      taskId,
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      pollIntervalMs,
      owner: input.principal?.subject ?? null,
      tool: input.tool,
      args: input.args,
      principal: input.principal,
      clientKey: input.clientKey,
      clientCapabilities: input.clientCapabilities,
      meta: input.requestMeta,
      gathered: input.gathered,
      request: input.request,
      traceparent: input.traceparent,
      protocolVersion: input.protocolVersion,
      resumable: tool.task.resumable,
      attempt: 0,
      cancelRequested: false,
    };
    this.startRun("working", undefined);
    // The reservation above was a Durable Object request made for this run.
    if (input.clientKey !== undefined) this.billed?.countDoRequests();
    return { ok: true, result: createTaskResult(this.record) };
  }

  /** tasks/get: the task's current DetailedTask. */
  async taskGet(subject: string | null, route?: string): Promise<TaskReply> {
    const r = this.visibleTo(subject, route);
    if (!r.ok) return r;
    return { ok: true, result: getTaskResult(r.record, this.store.outstanding()) };
  }

  /** Whether `subject` may see this task (for a listen stream's `taskIds`): only its creator, until it expires. */
  async taskVisible(subject: string | null, route?: string): Promise<boolean> {
    return this.visibleTo(subject, route).ok;
  }

  /** tasks/update: stores answers to outstanding asks and wakes the run; other keys are ignored. */
  async taskUpdate(subject: string | null, responses: InputResponses, route?: string): Promise<TaskReply> {
    try {
      return this.update(subject, responses, route);
    } finally {
      this.reportOwn("tasks/update", 0);
    }
  }

  private update(subject: string | null, responses: InputResponses, route?: string): TaskReply {
    const r = this.visibleTo(subject, route);
    if (!r.ok) return r;
    if (isTerminal(r.record.status)) return { ok: true, result: { resultType: "complete" } };
    for (const [key, answer] of Object.entries(responses)) {
      const json = JSON.stringify(answer);
      if (this.storedBytes() + new TextEncoder().encode(json).byteLength > MAX_TASK_STORAGE_BYTES) {
        return {
          ok: false,
          error: {
            code: LIMIT_EXCEEDED_2026,
            message: `tasks/update: the answer for "${key.slice(0, 100)}" would make the task keep more than ${MAX_TASK_STORAGE_BYTES} bytes`,
          },
        };
      }
      if (!this.store.answer(key, json)) continue;
      this.run?.deliver(key, answer);
    }
    if (r.record.status === "input_required" && Object.keys(this.store.outstanding()).length === 0) this.change("working");
    return { ok: true, result: { resultType: "complete" } };
  }

  /** tasks/cancel: cooperative; the run's signal aborts and the task ends `cancelled` when the handler gives up. */
  async taskCancel(subject: string | null, route?: string): Promise<TaskReply> {
    try {
      return this.cancel(subject, route);
    } finally {
      this.reportOwn("tasks/cancel", 0);
    }
  }

  private cancel(subject: string | null, route?: string): TaskReply {
    const r = this.visibleTo(subject, route);
    if (!r.ok) return r;
    const record = r.record;
    if (!isTerminal(record.status) && !record.cancelRequested) {
      record.cancelRequested = true;
      this.store.putRecord(record);
      if (this.run) this.run.cancel();
      else this.finish({ status: "cancelled", statusMessage: "Cancelled by the client" });
    }
    return { ok: true, result: { resultType: "complete" } };
  }

  // ---- RPC to the ledger role (durable-objects/ledger/contract.ts), from other task objects ----

  async ledgerReserve(taskId: string, limit: number, expiresAt: number): Promise<boolean> {
    try {
      return await this.ledger.reserve(taskId, limit, expiresAt);
    } finally {
      // The task that asked counts the request; the ledger's rows are told here.
      this.reportOwn("ledgerReserve", 0, "ledger");
    }
  }

  async ledgerRelease(taskId: string): Promise<void> {
    try {
      await this.ledger.release(taskId);
    } finally {
      this.reportOwn("ledgerRelease", 0, "ledger");
    }
  }

  /**
   * An event of this object's own (observed servers): a request nobody else counts, and the rows
   * written since the previous event; while a run is on, its rows stay for the run's event.
   */
  private reportOwn(method: string, received: number, place: "task" | "ledger" = "task"): void {
    if (!this.bill || (received === 0 && this.run && this.record && !isTerminal(this.record.status))) return;
    void this.bill.report(method, received, 0, place);
  }

  /**
   * Resolves with the task's status once it is one of `statuses` (at once if it already is), or
   * undefined when the task is gone. For tests and operators that wait for an event instead of polling.
   */
  async awaitStatus(statuses: TaskStatus[]): Promise<TaskStatus | undefined> {
    for (;;) {
      const status = this.record?.status;
      if (status === undefined || statuses.includes(status)) return status;
      await new Promise<void>((resolve) => this.watchers.push(resolve));
    }
  }

  override async alarm(): Promise<void> {
    try {
      await this.runAlarm();
    } finally {
      // An alarm has no caller: the object reports it.
      this.reportOwn("alarm", 1);
    }
  }

  private async runAlarm(): Promise<void> {
    const r = this.record;
    if (!r) {
      await this.storage.deleteAll();
      return;
    }
    if (Date.now() >= this.expiresAt(r)) {
      await this.expire();
      return;
    }
    await this.scheduleAlarm();
  }

  // ---- state ---------------------------------------------------------------------------

  /**
   * The task if `subject` may see it on `route` (the request's route key); a task of another
   * principal, or asked for on another route than the one it was created on, is answered as not found.
   */
  private visibleTo(subject: string | null, route = ""): { ok: true; record: TaskRecord } | { ok: false; error: ErrorObject } {
    if (this.expired) return { ok: false, error: EXPIRED };
    const r = this.record;
    if (!r || r.owner !== subject || routeKey(r.request?.params) !== route) return { ok: false, error: NOT_FOUND };
    if (Date.now() >= this.expiresAt(r)) {
      // The alarm may lag: an expired task is never served.
      void this.expire();
      return { ok: false, error: EXPIRED };
    }
    return { ok: true, record: r };
  }

  private startRun(status: TaskStatus, statusMessage: string | undefined): void {
    const r = this.record as TaskRecord;
    r.attempt += 1;
    r.status = status;
    if (statusMessage === undefined) delete r.statusMessage;
    else r.statusMessage = statusMessage;
    r.lastUpdatedAt = new Date().toISOString();
    // Observed: each run counts what the task stores from its start (this record) to its final state.
    const meter = this.observer ? newMeter() : undefined;
    // With events: every row the object wrote since its previous event (its record, asks, alarms), not only the store's.
    const bill = this.bill;
    if (meter && bill) meter.rows = () => bill.takeRows();
    this.store.meter = meter;
    this.store.putRecord(r);
    void this.scheduleAlarm();
    this.run = new TaskRun(this.host, r.attempt);
    this.run.start(r, meter);
    this.billed = this.run.observation;
  }

  /** Only the run of the current attempt may change the task. */
  private whileCurrent(run: TaskRun<Env>, change: () => void): void {
    if (this.expired || run !== this.run || this.record?.attempt !== run.attempt) return;
    change();
  }

  /** A non-terminal change (working <-> input_required, or a new status message), stored then published. */
  private change(status: "working" | "input_required", statusMessage?: string): void {
    const r = this.record;
    if (!r || !canTransition(r.status)) return;
    if (r.status === status && statusMessage === undefined) return;
    r.status = status;
    if (statusMessage !== undefined) r.statusMessage = statusMessage;
    r.lastUpdatedAt = new Date().toISOString();
    this.store.putRecord(r);
    this.publish(r);
  }

  /** The terminal state: written once, never changed after. */
  private finish(outcome: RunOutcome): void {
    const r = this.record;
    if (!r || !canTransition(r.status)) return;
    r.status = outcome.status;
    r.lastUpdatedAt = new Date().toISOString();
    const withResult = outcome.status === "completed" ? { ...r, result: outcome.result } : undefined;
    if (withResult && (jsonBytes(withResult) > MAX_TASK_RECORD_BYTES || this.storedBytes(withResult) > MAX_TASK_STORAGE_BYTES)) {
      // Too large to store means too large to serve: the task fails as the call would have (-31003).
      r.status = "failed";
      r.error = {
        code: LIMIT_EXCEEDED_2026,
        message: `The result is larger than a task can keep (${MAX_TASK_RECORD_BYTES} bytes of JSON in its record, ${MAX_TASK_STORAGE_BYTES} bytes with its asks and answers)`,
      };
      r.statusMessage = "The result was too large to keep";
    } else if (outcome.status === "completed") {
      r.result = outcome.result;
      delete r.statusMessage;
    } else {
      r.statusMessage = outcome.statusMessage;
      if (outcome.status === "failed") r.error = outcome.error;
    }
    this.store.dropOutstanding();
    this.store.putRecord(r);
    this.run = undefined;
    this.releaseSlot(r);
    this.publish(r);
    void this.scheduleAlarm();
  }

  /** Bytes this task keeps now: its record and every ask and answer (MAX_TASK_STORAGE_BYTES bounds it). */
  private storedBytes(record: TaskRecord | undefined = this.record): number {
    return (record ? jsonBytes(record) : 0) + this.store.askBytes();
  }

  /** The ledger of a client key (same namespace, another role), through the ledger's contract. */
  private ledgerFor(clientKey: string): DurableObjectStub<LedgerRpc> {
    return ledgerOf((this.env as TaskEnv).MCP_TASK as DurableObjectNamespace<TaskObjectRpc & LedgerRpc>, clientKey);
  }

  /** The task no longer counts against its client's cap (terminal or expired); idempotent. */
  private releaseSlot(r: TaskRecord): void {
    if (r.clientKey === undefined) return;
    this.billed?.countDoRequests();
    this.ctx.waitUntil(
      this.ledgerFor(r.clientKey)
        .ledgerRelease(r.taskId)
        .catch((error: unknown) => console.error(`mcp-edge: releasing task ${r.taskId}'s in-flight slot failed`, error)),
    );
  }

  private publish(r: TaskRecord): void {
    this.wakeWatchers();
    const message = taskStatusNotification(r, r.status === "input_required" ? this.store.outstanding() : {}) as TaskStatusNotification;
    // One Durable Object request (the hub's shard 0), part of the run's trace.
    if ((this.env as TaskEnv).MCP_HUB) this.billed?.countDoRequests();
    this.ctx.waitUntil(
      this.publishStatus(this.env, message, {
        owner: r.owner,
        trace: this.billed?.traceparent ?? r.traceparent,
        route: r.request?.params,
      }).then(
        () => undefined,
        (error: unknown) => console.error(`mcp-edge: publishing task ${r.taskId} status failed`, error),
      ),
    );
  }

  private wakeWatchers(): void {
    const watchers = this.watchers;
    this.watchers = [];
    for (const wake of watchers) wake();
  }

  private expiresAt(r: TaskRecord): number {
    return Date.parse(r.createdAt) + r.ttlMs;
  }

  /** TTL over: stop the run and delete everything; this instance answers "expired" until it is evicted. */
  private async expire(): Promise<void> {
    if (this.expired) return;
    this.expired = true;
    if (this.record && !isTerminal(this.record.status)) this.releaseSlot(this.record);
    this.run?.cancel();
    this.run = undefined;
    this.record = undefined;
    this.wakeWatchers();
    this.store.forget();
    await this.storage.deleteAll();
  }

  /** Unfinished: wake by the watchdog interval (a lost run is noticed); finished: at expiry. */
  private async scheduleAlarm(): Promise<void> {
    const r = this.record;
    if (!r || this.expired) return;
    const expiry = this.expiresAt(r);
    const at = isTerminal(r.status) ? expiry : Math.min(expiry, Date.now() + this.options.watchdogMs);
    await this.storage.setAlarm(at);
  }
}
