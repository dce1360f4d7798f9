/**
 * Server-to-client requests awaiting the client's answer: id -> resolver, with a timeout and
 * an abort signal. Ids carry a per-instance random prefix, so an answer that arrives after a
 * restart can never settle a newer request; an answer for an unknown id is ignored.
 */
import { CLIENT_ERROR, LIMIT_EXCEEDED, REQUEST_CANCELLED, REQUEST_TIMEOUT, RpcError } from "../../src/jsonrpc/errors";
import type { Params, ResponseMessage } from "../../src/jsonrpc/messages";

interface Waiter {
  resolve(result: Params): void;
  reject(error: RpcError): void;
}

export interface SendRequest {
  /** Stores and sends the request; called once the id is reserved. */
  send(id: string): void;
  /** Tells the client to stop working on it (notifications/cancelled). */
  cancel(id: string, reason: string): void;
}

export class PendingRequests {
  private readonly waiters = new Map<string, Waiter>();
  private readonly prefix = crypto.randomUUID().slice(0, 8);
  private counter = 0;

  constructor(
    private readonly max: number,
    private readonly timeoutMs: number,
  ) {}

  get size(): number {
    return this.waiters.size;
  }

  request(method: string, signal: AbortSignal, sending: SendRequest): Promise<Params> {
    if (this.waiters.size >= this.max) {
      return Promise.reject(new RpcError(LIMIT_EXCEEDED, `Too many pending server requests (limit ${this.max}); ${method} was not sent`));
    }
    signal.throwIfAborted();
    const id = `s-${this.prefix}-${++this.counter}`;
    return new Promise<Params>((resolve, reject) => {
      const finish = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.waiters.delete(id);
      };
      const timer = setTimeout(() => {
        finish();
        sending.cancel(id, "timed out");
        reject(new RpcError(REQUEST_TIMEOUT, `${method}: the client did not answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      const onAbort = () => {
        finish();
        sending.cancel(id, "the request that asked for it was cancelled");
        reject(new RpcError(REQUEST_CANCELLED, `${method} was cancelled`));
      };
      signal.addEventListener("abort", onAbort);
      this.waiters.set(id, {
        resolve(r) {
          finish();
          resolve(r);
        },
        reject(e) {
          finish();
          reject(e);
        },
      });
      try {
        sending.send(id);
      } catch (error) {
        // Not sent (e.g. too large to store): nothing to wait for, and nothing to cancel later.
        finish();
        reject(error);
      }
    });
  }

  /** Settles the waiter for a client's response; false when the id is unknown (ignored). */
  settle(response: ResponseMessage): boolean {
    if (typeof response.id !== "string") return false;
    const waiter = this.waiters.get(response.id);
    if (!waiter) return false;
    if (response.kind === "result") waiter.resolve(response.result);
    else
      waiter.reject(
        new RpcError(CLIENT_ERROR, `The client answered with an error: ${response.error.message}`, { code: response.error.code }),
      );
    return true;
  }

  /** The client cancelled one of our requests (notifications/cancelled with our id). */
  cancelByClient(id: unknown): void {
    if (typeof id !== "string") return;
    this.waiters.get(id)?.reject(new RpcError(REQUEST_CANCELLED, "The client cancelled the request"));
  }

  rejectAll(error: RpcError): void {
    for (const waiter of [...this.waiters.values()]) waiter.reject(error);
  }
}
