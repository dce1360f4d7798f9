/**
 * What the test client waits for, bounded: every wait has a timeout whose error names what was
 * awaited (an answer, a notification, a task's status). And the notification streams a client
 * keeps open: a 2026-07-28 `subscriptions/listen` stream or a 2025 session's GET stream, read in
 * the background and handed out as an async iterator or by `next(method)`.
 */
import { SseReader } from "./sse";

/** The test client's default bound on every wait. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** A notification as the server sent it. */
export interface TestNotification {
  method: string;
  params?: Record<string, unknown>;
}

/** A wait that did not end in time; the message names what was awaited. */
export class TestTimeoutError extends Error {
  constructor(
    readonly awaited: string,
    readonly timeoutMs: number,
  ) {
    super(`mcp-edge/testing: timed out after ${timeoutMs} ms waiting for ${awaited}`);
    this.name = "TestTimeoutError";
  }
}

/** `promise`, or a TestTimeoutError after `timeoutMs` (then `onTimeout` runs, to release what the wait held). */
export function within<T>(promise: Promise<T>, timeoutMs: number, awaited: string, onTimeout?: () => void): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout?.();
      reject(new TestTimeoutError(awaited, timeoutMs));
    }, timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => {
    if (timer !== undefined) clearTimeout(timer);
  });
}

/** Which notifications a `next` call takes: any, one method, or a predicate. */
export type NotificationMatch = string | ((notification: TestNotification) => boolean);

/** A stream of notifications the client holds open. */
export interface NotificationStream extends AsyncIterable<TestNotification> {
  /** 2026-07-28: what the server honours of the filter (the acknowledgement's `notifications`); undefined on 2025. */
  readonly acknowledged: Record<string, unknown> | undefined;
  /** Every notification received on this stream so far, oldest first. */
  readonly received: readonly TestNotification[];
  /** Why the stream ended ("complete": the server's closing result; "closed": by the server or `close()`), or undefined while open. */
  readonly ended: string | undefined;
  /**
   * The next notification not yet taken (by `next` or the iterator) that matches: a method name
   * or a predicate; waits for it up to the timeout (the client's `timeoutMs` unless given).
   */
  next(match?: NotificationMatch, options?: { timeoutMs?: number }): Promise<TestNotification>;
  /** Stops reading and releases the stream. */
  close(): Promise<void>;
}

type Waiter = { match: (n: TestNotification) => boolean; resolve: (n: TestNotification) => void; reject: (e: Error) => void };

function matcher(match: NotificationMatch | undefined): (n: TestNotification) => boolean {
  if (match === undefined) return () => true;
  return typeof match === "string" ? (n) => n.method === match : match;
}

function describeMatch(match: NotificationMatch | undefined): string {
  return match === undefined ? "a notification" : typeof match === "string" ? match : "a matching notification";
}

/** How the stream hands what it reads back to its client. */
export interface StreamHooks {
  /** Each notification (the client also records it in `client.notifications`). */
  notified(notification: TestNotification): void;
  /** A server request on the stream (2025: answered by POST); resolved before reading on. */
  serverRequest(message: Record<string, unknown>): Promise<void>;
}

/** A stream read in the background from the moment it opened. */
export class LiveNotificationStream implements NotificationStream {
  acknowledged: Record<string, unknown> | undefined;
  ended: string | undefined;
  readonly received: TestNotification[] = [];
  readonly #pending: TestNotification[] = [];
  readonly #waiters: Waiter[] = [];
  readonly #reader: SseReader;

  private readonly label: string;
  private readonly timeoutMs: number;
  /** Added to a timeout's message: why what was awaited may never come on this stream. */
  private readonly hint: string | undefined;

  constructor(
    response: Response,
    options: { label: string; timeoutMs: number; hint?: string | undefined },
    private readonly hooks: StreamHooks,
  ) {
    this.#reader = new SseReader(response);
    this.label = options.label;
    this.timeoutMs = options.timeoutMs;
    this.hint = options.hint;
  }

  /** Starts the background read; on 2026-07-28 resolves once the server acknowledged the listen request. */
  async open(awaitAcknowledgement: boolean): Promise<this> {
    void this.#pump();
    if (!awaitAcknowledgement) return this;
    try {
      const params = (await this.next("notifications/subscriptions/acknowledged")).params ?? {};
      this.acknowledged = (params.notifications as Record<string, unknown> | undefined) ?? {};
    } catch (error) {
      await this.close();
      throw error;
    }
    return this;
  }

  /** The background read: started once by `open`, ends with the stream. */
  async #pump(): Promise<void> {
    try {
      for (let m = (await this.#reader.read()) as Record<string, unknown> | undefined; m; m = (await this.#reader.read()) as typeof m) {
        if (typeof m.method === "string" && m.id !== undefined && m.id !== null) await this.hooks.serverRequest(m);
        else if (typeof m.method === "string")
          this.#push({ method: m.method, ...(m.params ? { params: m.params as Record<string, unknown> } : {}) });
        else if (m.result !== undefined || m.error !== undefined) this.ended ??= m.error ? "error" : "complete";
      }
    } catch {
      // A body cut off (the test closed the stream, the server went away) ends the stream like its end.
    }
    this.#end(this.ended ?? "closed");
  }

  #push(notification: TestNotification): void {
    this.received.push(notification);
    this.hooks.notified(notification);
    const waiter = this.#waiters.findIndex((w) => w.match(notification));
    if (waiter >= 0) this.#waiters.splice(waiter, 1)[0]?.resolve(notification);
    else this.#pending.push(notification);
  }

  #end(reason: string): void {
    this.ended = reason;
    for (const waiter of this.#waiters.splice(0))
      waiter.reject(new Error(`mcp-edge/testing: ${this.label} ended (${reason}) while waiting for a notification`));
  }

  next(match?: NotificationMatch, options: { timeoutMs?: number } = {}): Promise<TestNotification> {
    const test = matcher(match);
    const found = this.#pending.findIndex(test);
    if (found >= 0) return Promise.resolve(this.#pending.splice(found, 1)[0] as TestNotification);
    const what = `${describeMatch(match)} on ${this.label}${this.hint ? ` (${this.hint})` : ""}`;
    if (this.ended !== undefined)
      return Promise.reject(new Error(`mcp-edge/testing: ${this.label} ended (${this.ended}) before ${describeMatch(match)} arrived`));
    const waiter = {} as Waiter;
    const arrived = new Promise<TestNotification>((resolve, reject) => Object.assign(waiter, { match: test, resolve, reject }));
    this.#waiters.push(waiter);
    return within(arrived, options.timeoutMs ?? this.timeoutMs, what, () => {
      const index = this.#waiters.indexOf(waiter);
      if (index >= 0) this.#waiters.splice(index, 1);
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<TestNotification> {
    return {
      next: async () => {
        if (this.ended !== undefined && this.#pending.length === 0) return { done: true, value: undefined };
        try {
          return { done: false, value: await this.next() };
        } catch (error) {
          if (this.ended !== undefined && !(error instanceof TestTimeoutError)) return { done: true, value: undefined };
          throw error;
        }
      },
      return: async () => {
        await this.close();
        return { done: true, value: undefined };
      },
    };
  }

  async close(): Promise<void> {
    this.ended ??= "closed";
    await this.#reader.cancel();
  }
}
