// Types for scripts/dev-server.mjs (no Node type definitions needed).

export interface DevServerOptions {
  /** Port for the Worker on 127.0.0.1; a free one is picked when omitted. */
  port?: number;
  /** Extra environment for wrangler (merged over process.env and the offline defaults). */
  env?: Record<string, string>;
  /** wrangler config file; defaults to the repository's wrangler.toml. */
  configPath?: string;
  /** Working directory for wrangler; defaults to the config file's folder. */
  cwd?: string;
  /** wrangler's --log-level; defaults to "warn". */
  logLevel?: "debug" | "info" | "log" | "warn" | "error" | "none";
  /** Copy wrangler's output to stderr as it comes (default: env MCP_EDGE_DEV_LOGS=1). */
  echo?: boolean;
  /** How long to wait for the first HTTP answer; default 90 000 ms. */
  readyTimeoutMs?: number;
  /**
   * "wrangler" (default): `wrangler dev`. "miniflare": the Worker bundled by `wrangler deploy
   * --dry-run` and served by Miniflare alone, without wrangler dev's proxy (no `args`, `https`
   * or inspector; used by the benchmark).
   */
  runner?: "wrangler" | "miniflare";
  /** Extra arguments for `wrangler dev`. */
  args?: string[];
  /** Where this server's temp folder (Durable Object storage, dev registry) is made; default os.tmpdir(). */
  tmpDir?: string;
  /**
   * Serve HTTPS with this PEM key and certificate (wrangler's `--local-protocol https`); `url`
   * becomes `https://127.0.0.1:<port>` and the readiness probe trusts only this certificate.
   */
  https?: { keyPath: string; certPath: string };
}

export interface DevServer {
  /** Origin of the Worker, e.g. "http://127.0.0.1:41234" (https:// with the `https` option; no trailing slash). */
  url: string;
  /** The MCP endpoint, `${url}/mcp`. */
  mcpUrl: string;
  port: number;
  inspectorPort: number;
  /** PID of the group leader (a small watchdog that runs wrangler), i.e. the process group id of wrangler, workerd and esbuild. */
  pid: number;
  /** This run's Durable Object storage; deleted by stop(). */
  persistDir: string;
  /** Settles when the wrangler process exits, for whatever reason. */
  exited: Promise<{ code: number | null; signal: string | null }>;
  /** The last lines wrangler printed (stdout and stderr). */
  logs(): string;
  /** True once stop() has been called. */
  readonly stopped: boolean;
  /** Kills the whole process group, waits until it is gone, deletes the temp folder. Idempotent. */
  stop(): Promise<void>;
}

/** Starts `wrangler dev` on 127.0.0.1 and resolves once it answers HTTP. */
export function startDevServer(options?: DevServerOptions): Promise<DevServer>;

/** A port that was free on the host (default 127.0.0.1) a moment ago. */
export function findFreePort(host?: string): Promise<number>;
