// Types for bus-workers.mjs (the e2e TypeScript has no Node types).

export interface BusWorkers {
  /** The listener Worker's MCP endpoint (it defines the hub). */
  listenerUrl: string;
  /** The publisher Worker's MCP endpoint (bound to the listener's hub). */
  publisherUrl: string;
  /** The publisher's origin (its test-only /count route). */
  publisherOrigin: string;
  stop(): Promise<void>;
}

export function startBusWorkers(): Promise<BusWorkers>;
