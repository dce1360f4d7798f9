// The real Worker for end-to-end tests that run in Node (not workerd), started in this process
// by scripts/worker-server.mjs (`wrangler dev` in-process); each file gets its own port and storage.

import { afterAll, beforeAll } from "vitest";
import { startWorker, type WorkerServer, type WorkerServerOptions } from "../../../scripts/worker-server.mjs";

/** Startup includes esbuild bundling and workerd boot: above vitest's 10 s hook default. */
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 30_000;

export interface WorkerHandle {
  /** Origin, e.g. "http://127.0.0.1:41234"; only valid inside tests (after beforeAll). */
  readonly url: string;
  /** The MCP endpoint, `${url}/mcp`. */
  readonly mcpUrl: string;
  /** The running server (port, workerd pids, logs(), stop()). */
  readonly server: WorkerServer;
}

/**
 * Starts the Worker in `beforeAll` and stops it in `afterAll` of the calling file or `describe`.
 * Read `url`/`mcpUrl` inside tests, not at collection time.
 */
export function useWorker(options: WorkerServerOptions = {}): WorkerHandle {
  let current: WorkerServer | undefined;
  const running = (): WorkerServer => {
    if (!current) throw new Error("useWorker: the server is not running (use it inside a test, after beforeAll)");
    return current;
  };
  beforeAll(async () => {
    current = await startWorker(options);
  }, START_TIMEOUT_MS);
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
