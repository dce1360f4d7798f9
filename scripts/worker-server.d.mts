// Types for scripts/worker-server.mjs (the e2e TypeScript has no Node types).

export interface WorkerServerOptions {
  /** wrangler config file; defaults to the repository's wrangler.toml. */
  configPath?: string;
  /** Port on 127.0.0.1; the OS picks a free one when omitted. */
  port?: number;
  /** Plain-text vars that override the config's `[vars]`. */
  vars?: Record<string, string>;
  /** "wrangler" (default): `wrangler dev` in-process; "miniflare": the deploy bundle under Miniflare alone (HTTP only). */
  runner?: "wrangler" | "miniflare";
  /** Serve HTTPS with this PEM key and certificate; `url` becomes https://127.0.0.1:<port>. */
  https?: { keyPath: string; certPath: string };
  /** Keep wrangler's devtools inspector on (runner "wrangler"; off by default). */
  inspector?: boolean;
  /** Open workerd's inspector (Chrome DevTools Protocol) on this port (runner "miniflare"; off by default). */
  inspectorPort?: number;
  /** Where the temp folder (Durable Object storage) is made; default os.tmpdir(). */
  tmpDir?: string;
  /** Copy the Worker's console output to stderr (default: env MCP_EDGE_DEV_LOGS=1). */
  echo?: boolean;
}

export interface WorkerServer {
  /** Origin, e.g. "http://127.0.0.1:41234" (no trailing slash). */
  url: string;
  /** The MCP endpoint, `${url}/mcp`. */
  mcpUrl: string;
  port: number;
  /** This server's Durable Object storage; deleted by stop(). */
  persistDir: string;
  /** The workerd processes serving it (for memory and CPU figures). */
  workerdPids: number[];
  /** The last lines the Worker logged. */
  logs(): string;
  /**
   * Stops the runtime and starts it again on the same port with the same Durable Object storage, as a deploy
   * or a crash would: what the objects stored (their alarms too) is there, nothing in memory is.
   */
  restart(): Promise<void>;
  /** Disposes the runtime and deletes the temp folder. Idempotent. */
  stop(): Promise<void>;
}

export function startWorker(options?: WorkerServerOptions): Promise<WorkerServer>;

/** A port that was free on 127.0.0.1 a moment ago. */
export function findFreePort(): Promise<number>;
