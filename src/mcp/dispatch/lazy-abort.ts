/**
 * A request's abort signal, made on first read (docs/engine-notes.md "An abort signal made on first read").
 * Aborted before anyone read it, the signal is born aborted, with the same reason.
 */
export class LazyAbort {
  private controller: AbortController | undefined;
  private done = false;
  private reason: unknown;

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.done) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** Whether it was aborted (without making the signal). */
  get aborted(): boolean {
    return this.done;
  }

  abort(reason: unknown): void {
    if (this.done) return;
    this.done = true;
    this.reason = reason;
    this.controller?.abort(reason);
  }
}
