// The real Worker under `wrangler dev` for end-to-end tests that run in Node (not workerd).
// Owns nothing itself: scripts/dev-server.mjs starts the process group and guarantees it is
// killed (afterAll, process exit, SIGINT/SIGTERM); each file gets its own port and storage.

import { afterAll, beforeAll } from "vitest";
import { startDevServer, type DevServer, type DevServerOptions } from "../../../scripts/dev-server.mjs";

export type { DevServer, DevServerOptions };

/** Startup includes esbuild bundling and workerd boot: far above vitest's 10 s hook default. */
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 30_000;

export interface DevServerHandle {
  /** Origin, e.g. "http://127.0.0.1:41234"; only valid inside tests (after beforeAll). */
  readonly url: string;
  /** The MCP endpoint, `${url}/mcp`. */
  readonly mcpUrl: string;
  /** The running server (port, pid, logs(), stop()). */
  readonly server: DevServer;
}

/**
 * Starts the Worker in `beforeAll` and stops it in `afterAll` of the calling file or `describe`.
 * Read `url`/`mcpUrl` inside tests, not at collection time.
 */
export function useDevServer(options: DevServerOptions & { startTimeoutMs?: number } = {}): DevServerHandle {
  const { startTimeoutMs = START_TIMEOUT_MS, ...serverOptions } = options;
  let current: DevServer | undefined;
  const running = (): DevServer => {
    if (!current) throw new Error("useDevServer: the server is not running (use it inside a test, after beforeAll)");
    return current;
  };

  beforeAll(async () => {
    current = await startDevServer({ readyTimeoutMs: startTimeoutMs, ...serverOptions });
  }, startTimeoutMs + STOP_TIMEOUT_MS);

  afterAll(async () => {
    const server = current;
    current = undefined;
    await server?.stop();
  }, STOP_TIMEOUT_MS);

  return {
    get url() {
      return running().url;
    },
    get mcpUrl() {
      return running().mcpUrl;
    },
    get server() {
      return running();
    },
  };
}

/** Starts the Worker without hooks; the caller must `await server.stop()`. */
export function startTestServer(options?: DevServerOptions): Promise<DevServer> {
  return startDevServer(options);
}
