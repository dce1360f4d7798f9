/**
 * The task part of a task object: one task of the Tasks extension, from its record to its expiry.
 * It stores the task before `create` returns (so a `tasks/get` for the id resolves at once), runs the
 * tool's handler (run.ts), answers `tasks/get|update|cancel` for the principal that created it
 * only, and deletes everything when its TTL ends. Invariants: a terminal status never changes; only
 * the current run may finish the task; a run lost in a restart never leaves the task `working`: on
 * wake-up it fails with a stored error, or runs again when its tool is resumable. Its status changes
 * go out through task-status.ts; its record through task-record.ts.
 */
import { INTERNAL_ERROR, INVALID_PARAMS } from "../../src/jsonrpc/errors";
import type { ErrorObject } from "../../src/jsonrpc/messages";
import type { McpServer } from "../../src/mcp/definition/server";
import { newMeter, type Observation, type Observer, type RowCounter } from "../../src/mcp/operations/observe";
import type { ResolvedTaskOptions } from "../../src/kernel/options";
import { routeKey } from "../../src/wire/route-params";
import { canTransition, isTerminal, type TaskRecord, type TaskStatus } from "./model";
import { finalState, newRecord, storedBytes, updateTask, type TaskSettings } from "./task-record";
import type { CreateTaskInput, InputResponses, TaskReply } from "./contract";
import { TaskRun, type RunHost, type RunOutcome } from "./run";
import type { TaskStatusOut } from "./task-status";
import { TaskStore } from "./task-store";

/** Runs of one task at most (the first and its resumptions): a handler that keeps killing its object ends failed. */
const MAX_ATTEMPTS = 4;

const NOT_FOUND: ErrorObject = { code: INVALID_PARAMS, message: "Failed to retrieve task: Task not found" };
const EXPIRED: ErrorObject = { code: INVALID_PARAMS, message: "Failed to retrieve task: Task has expired" };
const DONE: TaskReply = { ok: true, result: { resultType: "complete" } };

/** What the task part needs from its object. */
export interface TaskHost<Env> {
  readonly server: McpServer<Env>;
  readonly options: ResolvedTaskOptions;
  readonly observer: Observer | undefined;
  readonly env: Env;
  /** The object's storage (kit/edge-object.ts), and its row counter when the server is observed. */
  readonly storage: DurableObjectStorage;
  readonly metered: RowCounter | undefined;
  readonly status: TaskStatusOut;
}

export class Task<Env> {
  readonly store: TaskStore;
  private record: TaskRecord | undefined;
  private run: TaskRun<Env> | undefined;
  /** Set once the TTL ended and storage was deleted: nothing may write again. */
  private expired = false;
  /** Observed servers: the latest run's observation (kept after it finished: its slot's release is counted on it). */
  private lastObservation: Observation | undefined;
  private readonly runHost: RunHost<Env>;

  constructor(private readonly host: TaskHost<Env>) {
    this.store = new TaskStore(host.storage.sql);
    this.runHost = {
      server: host.server,
      observer: host.observer,
      env: host.env,
      store: this.store,
      storedBytes: () => this.storedBytes(),
      asked: (run) => this.whileCurrent(run, () => this.change("input_required")),
      progressed: (run, message) =>
        this.whileCurrent(run, () => this.change(this.record?.status === "input_required" ? "input_required" : "working", message)),
      finished: (run, outcome) => this.whileCurrent(run, () => this.finish(outcome)),
    };
  }

  /** Its status, or undefined when there is no task (yet, or any more). */
  get status(): TaskStatus | undefined {
    return this.record?.status;
  }

  /** Whether a run is on: its rows stay for the run's own event. */
  get running(): boolean {
    return this.run !== undefined && this.record !== undefined && !isTerminal(this.record.status);
  }

  /** The observation of the latest run (observed servers), which this object's own calls are counted on. */
  get observation(): Observation | undefined {
    return this.lastObservation;
  }

  /** Waking up: a task that is not finished has lost its run (a new instance has none). */
  restore(): void {
    this.record = this.store.record();
    const r = this.record;
    if (!r || isTerminal(r.status)) return;
    if (r.cancelRequested) this.finish({ status: "cancelled", statusMessage: "Cancelled by the client" });
    else if (r.resumable && r.attempt < MAX_ATTEMPTS) this.startRun("working", "Resumed after a restart");
    else if (r.resumable) {
      const message = `The task's runner stopped ${r.attempt} times before it finished; it is not resumed again`;
      this.finish({ status: "failed", error: { code: INTERNAL_ERROR, message }, statusMessage: "The task was interrupted too often" });
    } else {
      const message = "The task's runner stopped before it finished (its object restarted), and its tool is not resumable";
      this.finish({ status: "failed", error: { code: INTERNAL_ERROR, message }, statusMessage: "The task was interrupted" });
    }
  }

  /** Whether a task may be created in this object now (none yet, not expired). */
  isFresh(): boolean {
    return this.record === undefined && !this.expired;
  }

  /** Stores the task (its slot reserved by the caller), then starts its run; the record, for its CreateTaskResult. */
  create(taskId: string, input: CreateTaskInput, settings: TaskSettings): TaskRecord {
    this.record = newRecord(taskId, input, settings);
    this.startRun("working", undefined);
    return this.record;
  }

  /** The task if `subject` may see it on `route`; a task of another principal, or on another route, is not found. */
  visibleTo(subject: string | null, route = ""): { ok: true; record: TaskRecord } | { ok: false; error: ErrorObject } {
    if (this.expired) return { ok: false, error: EXPIRED };
    const r = this.record;
    if (!r || r.owner !== subject || routeKey(r.request?.params) !== route) return { ok: false, error: NOT_FOUND };
    if (Date.now() >= expiresAt(r)) {
      // The alarm may lag: an expired task is never served.
      void this.expire();
      return { ok: false, error: EXPIRED };
    }
    return { ok: true, record: r };
  }

  /** tasks/update: stores answers to outstanding asks and wakes the run; other keys are ignored. */
  update(subject: string | null, responses: InputResponses, route?: string): TaskReply {
    const r = this.visibleTo(subject, route);
    if (!r.ok) return r;
    if (isTerminal(r.record.status)) return DONE;
    const refused = updateTask(this.store, responses, { storedBytes: () => this.storedBytes(), run: this.run });
    if (refused) return refused;
    if (r.record.status === "input_required" && Object.keys(this.store.outstanding()).length === 0) this.change("working");
    return DONE;
  }

  /** tasks/cancel: cooperative; the run's signal aborts and the task ends `cancelled` when the handler gives up. */
  cancel(subject: string | null, route?: string): TaskReply {
    const r = this.visibleTo(subject, route);
    if (!r.ok) return r;
    const record = r.record;
    if (!isTerminal(record.status) && !record.cancelRequested) {
      record.cancelRequested = true;
      this.store.putRecord(record);
      if (this.run) this.run.cancel();
      else this.finish({ status: "cancelled", statusMessage: "Cancelled by the client" });
    }
    return DONE;
  }

  /** The alarm: no task, delete what is left (a ledger's rows); expired, delete the task; else set the next one. */
  async alarm(): Promise<void> {
    const r = this.record;
    if (!r) await this.host.storage.deleteAll();
    else if (Date.now() >= expiresAt(r)) await this.expire();
    else await this.scheduleAlarm();
  }

  private startRun(status: TaskStatus, statusMessage: string | undefined): void {
    const r = this.record as TaskRecord;
    r.attempt += 1;
    r.status = status;
    if (statusMessage === undefined) delete r.statusMessage;
    else r.statusMessage = statusMessage;
    r.lastUpdatedAt = new Date().toISOString();
    // Observed: each run counts what the task stores from its start (this record) to its final state:
    // every row the object wrote since its previous event (its record, asks, alarms), and the store's bytes.
    const metered = this.host.metered;
    const meter = metered ? newMeter() : undefined;
    if (meter && metered) meter.rows = () => metered.takeRows();
    this.store.meter = meter;
    this.store.putRecord(r);
    void this.scheduleAlarm();
    this.run = new TaskRun(this.runHost, r.attempt);
    this.run.start(r, meter);
    this.lastObservation = this.run.observation;
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
    this.host.status.publish(r, this.store, this.observation);
  }

  /** The terminal state: written once, never changed after. */
  private finish(outcome: RunOutcome): void {
    const r = this.record;
    if (!r || !canTransition(r.status)) return;
    finalState(r, outcome, (withResult) => this.storedBytes(withResult));
    this.store.dropOutstanding();
    this.store.putRecord(r);
    this.run = undefined;
    this.host.status.releaseSlot(r, this.observation);
    this.host.status.publish(r, this.store, this.observation);
    void this.scheduleAlarm();
  }

  /** Bytes this task keeps now: its record and every ask and answer (MAX_TASK_STORAGE_BYTES bounds it). */
  private storedBytes(record: TaskRecord | undefined = this.record): number {
    return storedBytes(record, this.store);
  }

  /** TTL over: stop the run and delete everything; this instance answers "expired" until it is evicted. */
  private async expire(): Promise<void> {
    if (this.expired) return;
    this.expired = true;
    if (this.record && !isTerminal(this.record.status)) this.host.status.releaseSlot(this.record, this.observation);
    this.run?.cancel();
    this.run = undefined;
    this.record = undefined;
    this.host.status.wake();
    this.store.forget();
    await this.host.storage.deleteAll();
  }

  /** Unfinished: wake by the watchdog interval (a lost run is noticed); finished: at expiry. */
  private async scheduleAlarm(): Promise<void> {
    const r = this.record;
    if (!r || this.expired) return;
    const expiry = expiresAt(r);
    const at = isTerminal(r.status) ? expiry : Math.min(expiry, Date.now() + this.host.options.watchdogMs);
    await this.host.storage.setAlarm(at);
  }
}

function expiresAt(r: TaskRecord): number {
  return Date.parse(r.createdAt) + r.ttlMs;
}
