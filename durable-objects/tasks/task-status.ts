/**
 * Where a task's stored changes go besides `tasks/get`: its status notification to the listen
 * streams (through the hub, by the status publish the Worker's side of tasks hands in), the
 * release of its client's slot in the ledger (ledger-contract.ts) once it is terminal or expired,
 * and whoever awaits a status (`awaitStatus`: tests and operators that wait instead of polling).
 * Each call is one Durable Object request of the task's latest run, counted on its observation.
 */
import type { Observation } from "../../src/mcp/operations/observe";
import type { TaskObjectRpc } from "./contract";
import { ledgerOf, type LedgerRpc } from "./ledger-contract";
import { taskStatusNotification, type TaskAudience, type TaskRecord, type TaskStatus, type TaskStatusNotification } from "./model";
import type { TaskStore } from "./task-store";

/**
 * Where a stored status change goes besides `tasks/get` (the listen streams, through the hub):
 * handed in by `taskClass(kernel)` (the `tasks()` feature) from the Worker's side of tasks (src/features/tasks/publish.ts).
 */
export type PublishTaskStatus = (env: unknown, notification: TaskStatusNotification, audience: TaskAudience) => Promise<void>;

/** The bindings the object reads itself (src/kernel/env.ts, above the objects, types them all). */
export interface TaskEnv {
  MCP_TASK?: DurableObjectNamespace<TaskObjectRpc & LedgerRpc>;
  MCP_HUB?: unknown;
}

export class TaskStatusOut {
  /** Callers of `awaitStatus` waiting for the next stored change. */
  private watchers: (() => void)[] = [];

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: TaskEnv,
    private readonly publishStatus: PublishTaskStatus,
  ) {}

  /** The status notification of a stored change, to the listen streams of its owner; awaiting callers wake. */
  publish(r: TaskRecord, store: TaskStore, observation: Observation | undefined): void {
    this.wake();
    const message = taskStatusNotification(r, r.status === "input_required" ? store.outstanding() : {}) as TaskStatusNotification;
    // One Durable Object request (the hub's shard 0), part of the run's trace.
    if (this.env.MCP_HUB) observation?.countDoRequests();
    this.ctx.waitUntil(
      this.publishStatus(this.env, message, {
        owner: r.owner,
        trace: observation?.traceparent ?? r.traceparent,
        route: r.request?.params,
      }).then(
        () => undefined,
        (error: unknown) => console.error(`mcp-edge: publishing task ${r.taskId} status failed`, error),
      ),
    );
  }

  /** The task no longer counts against its client's cap (terminal or expired); idempotent. */
  releaseSlot(r: TaskRecord, observation: Observation | undefined): void {
    if (r.clientKey === undefined) return;
    observation?.countDoRequests();
    this.ctx.waitUntil(
      this.ledgerFor(r.clientKey)
        .ledgerRelease(r.taskId)
        .catch((error: unknown) => console.error(`mcp-edge: releasing task ${r.taskId}'s in-flight slot failed`, error)),
    );
  }

  /** The ledger of a client key (same namespace, another role), through the ledger's contract. */
  ledgerFor(clientKey: string): DurableObjectStub<LedgerRpc> {
    return ledgerOf(this.env.MCP_TASK as DurableObjectNamespace<TaskObjectRpc & LedgerRpc>, clientKey);
  }

  /**
   * Resolves with the status `current()` reads once it is one of `statuses` (at once if it already
   * is), or undefined when the task is gone.
   */
  async awaitStatus(statuses: TaskStatus[], current: () => TaskStatus | undefined): Promise<TaskStatus | undefined> {
    for (;;) {
      const status = current();
      if (status === undefined || statuses.includes(status)) return status;
      await new Promise<void>((resolve) => this.watchers.push(resolve));
    }
  }

  /** Every caller of `awaitStatus` looks again. */
  wake(): void {
    const watchers = this.watchers;
    this.watchers = [];
    for (const wake of watchers) wake();
  }
}
