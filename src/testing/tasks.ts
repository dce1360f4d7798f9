/**
 * The test client's side of the Tasks extension (io.modelcontextprotocol/tasks, 2026-07-28 only;
 * docs/tasks.md "From the client side"): a task-augmented `tools/call` whose answer is the flat
 * CreateTaskResult (`taskId` at the top), `tasks/get`, `tasks/update` with the answers to the
 * task's `inputRequests`, `tasks/cancel`, and waiting for a status or the result by polling,
 * every wait bounded.
 */
import { TestTimeoutError } from "./streams";

/** The extension's identifier, declared in the `_meta` of the task client's requests only. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

export type TestTaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** A task as `tasks/get` shows it (the CreateTaskResult has the same fields, without the payloads). */
export interface TestTask {
  taskId: string;
  status: TestTaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  /** While `input_required`: every outstanding ask by key; answer with `update` or `answer`. */
  inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>;
  /** When `completed`: the CallToolResult (tool errors included, `isError: true`). */
  result?: { content: Array<Record<string, unknown>>; isError?: boolean; [key: string]: unknown };
  /** When `failed`: the JSON-RPC error. */
  error?: { code: number; message: string; data?: unknown };
  [key: string]: unknown;
}

export interface TestTaskClient {
  /** Calls a tool as a task (declaring the extension): the CreateTaskResult; throws when the call did not become a task. */
  create(name: string, args?: Record<string, unknown>): Promise<TestTask>;
  /** `tasks/get`. */
  get(taskId: string): Promise<TestTask>;
  /** `tasks/update`: answers to outstanding `inputRequests`, by key. */
  update(taskId: string, inputResponses: Record<string, Record<string, unknown>>): Promise<void>;
  /** Answers every outstanding ask of the task with the client's callbacks (onElicit, …); the keys answered. */
  answer(taskId: string): Promise<string[]>;
  /** `tasks/cancel` (cooperative: the task ends `cancelled` when its handler gives up). */
  cancel(taskId: string): Promise<void>;
  /** Polls `tasks/get` until the task has one of `statuses`. */
  waitFor(taskId: string, statuses: TestTaskStatus | TestTaskStatus[], options?: { timeoutMs?: number }): Promise<TestTask>;
  /**
   * Waits for the end, answering asks with the callbacks on the way (unless `answer: false`): the
   * CallToolResult when completed; a `failed` task throws its error, a `cancelled` one throws too.
   */
  result(taskId: string, options?: { timeoutMs?: number; answer?: boolean }): Promise<NonNullable<TestTask["result"]>>;
}

/** What the task client needs of the test client. */
export interface TaskWire {
  readonly era2026: boolean;
  readonly timeoutMs: number;
  /** One request with the Tasks extension declared in its `_meta` (MRTR rounds answered). */
  callWithTasks(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The callback's answer to one ask, or undefined without a callback. */
  answer(method: string | undefined, params: Record<string, unknown>): Promise<Record<string, unknown> | undefined>;
  /** Builds the error a failed task or refusal throws. */
  rpcError(code: number, message: string, data?: unknown): Error;
}

const TERMINAL: readonly TestTaskStatus[] = ["completed", "failed", "cancelled"];
/** Polling a local Worker: faster than a real client's `pollIntervalMs`, so tests stay quick. */
const POLL_MS = 20;

function task(result: Record<string, unknown>): TestTask {
  const { resultType: _, ...rest } = result;
  return rest as unknown as TestTask;
}

export function taskClient(wire: TaskWire): TestTaskClient {
  const call = (method: string, params: Record<string, unknown>) => {
    if (!wire.era2026)
      throw new TypeError(
        `mcp-edge/testing: ${method}: tasks exist only on 2026-07-28 (createTestClient(worker, { protocolVersion: "2026-07-28" }))`,
      );
    return wire.callWithTasks(method, params);
  };
  const client: TestTaskClient = {
    async create(name, args = {}) {
      const result = await call("tools/call", { name, arguments: args });
      if (result.resultType !== "task")
        throw new TypeError(
          `mcp-edge/testing: tools/call ${name} did not become a task (resultType ${JSON.stringify(result.resultType)}); does the tool declare \`task\`?`,
        );
      return task(result);
    },
    get: async (taskId) => task(await call("tasks/get", { taskId })),
    async update(taskId, inputResponses) {
      await call("tasks/update", { taskId, inputResponses });
    },
    async answer(taskId) {
      const asks = (await client.get(taskId)).inputRequests ?? {};
      const inputResponses: Record<string, Record<string, unknown>> = {};
      for (const [key, ask] of Object.entries(asks)) {
        const given = await wire.answer(ask.method, ask.params ?? {});
        if (!given) throw wire.rpcError(-32601, `task ${taskId} asked for ${ask.method} but the test client has no callback for it`);
        inputResponses[key] = given;
      }
      if (Object.keys(inputResponses).length > 0) await client.update(taskId, inputResponses);
      return Object.keys(inputResponses);
    },
    async cancel(taskId) {
      await call("tasks/cancel", { taskId });
    },
    waitFor: (taskId, statuses, options = {}) =>
      poll(client, taskId, [statuses].flat(), { timeoutMs: options.timeoutMs ?? wire.timeoutMs, answer: false }),
    async result(taskId, options = {}) {
      const done = await poll(client, taskId, TERMINAL, {
        timeoutMs: options.timeoutMs ?? wire.timeoutMs,
        answer: options.answer !== false,
      });
      if (done.status === "completed") return done.result ?? { content: [] };
      if (done.status === "failed")
        throw wire.rpcError(done.error?.code ?? -32603, done.error?.message ?? "the task failed", done.error?.data);
      throw wire.rpcError(-32800, `task ${taskId} was cancelled`);
    },
  };
  return client;
}

/** Polls until one of `statuses`, answering asks on the way when `answer`; the error names the last status seen. */
async function poll(
  client: TestTaskClient,
  taskId: string,
  statuses: readonly TestTaskStatus[],
  how: { timeoutMs: number; answer: boolean },
): Promise<TestTask> {
  const { timeoutMs, answer } = how;
  const deadline = Date.now() + timeoutMs;
  let last: TestTask | undefined;
  for (;;) {
    last = await client.get(taskId);
    if (statuses.includes(last.status)) return last;
    if (answer && last.status === "input_required") await client.answer(taskId);
    if (Date.now() >= deadline)
      throw new TestTimeoutError(`task ${taskId} to be ${statuses.join(" or ")} (last seen ${last.status})`, timeoutMs);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
